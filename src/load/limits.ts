/**
 * Bounds on what itgen reads. Every input may come from a pull request, so each is refused with a
 * diagnostic beyond these sizes instead of exhausting memory, the stack or the CI job's time.
 * Documented in the README ("Running itgen on untrusted pull requests").
 */
import { closeSync, fstatSync, lstatSync, openSync, readSync } from './reads';

/** One file or standard input: the largest upstream bundle is about 0.4 MiB. */
export const MAX_INPUT_BYTES = 8 * 1024 * 1024;
/**
 * A cluster dump the operator names (`fit --nodes/--pods`: `kubectl get pods -A -o yaml|json`): a
 * large cluster's pod list runs to hundreds of MiB. JSON is parsed as JSON (fast); YAML past
 * MAX_INPUT_BYTES as YAML, slower.
 */
export const MAX_DUMP_BYTES = 1024 * 1024 * 1024;
/** YAML documents in one file or stream (a 10,000-VM file is a benchmark case). */
export const MAX_DOCUMENTS = 50_000;
/** Nesting of mappings and sequences in one document; KubeVirt's deepest VM field is about 15 levels down. */
export const MAX_DEPTH = 100;
/** Directory levels walked below a catalog, an input directory or an output directory. */
export const MAX_DIRECTORY_DEPTH = 32;

/** `8 MiB` for a byte count. */
export function bytesInWords(n: number): string {
  if (n % (1024 * 1024 * 1024) === 0) return `${n / (1024 * 1024 * 1024)} GiB`;
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`;
}

/** Thrown by a bounded read that met more than `limit` bytes. */
export class InputTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`more than ${bytesInWords(limit)}`);
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Reads a file descriptor to its end, holding at most `limit + 1` bytes: a stream that never ends
 * (`< /dev/zero`) or a file larger than the bound throws `InputTooLarge` after that much, in
 * bounded memory. A non-blocking descriptor (EAGAIN) is polled.
 */
export function readBounded(fd: number, limit = MAX_INPUT_BYTES): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  const chunk = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        sleep(5);
        continue;
      }
      if (code === 'EOF') break;
      throw e;
    }
    if (n === 0) break;
    total += n;
    if (total > limit) throw new InputTooLarge(limit);
    chunks.push(Buffer.from(chunk.subarray(0, n)));
  }
  return Buffer.concat(chunks, total);
}

/** A regular file's bytes, refused by size before anything is read. */
export function readFileBounded(abs: string, limit = MAX_INPUT_BYTES): Buffer {
  const fd = openSync(abs);
  try {
    if (fstatSync(fd).size > limit) throw new InputTooLarge(limit);
    return readBounded(fd, limit);
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of a regular file where it stands (a link, to anywhere, a directory or a FIFO reads as
 * nothing), bounded like every input; undefined when it is not one or cannot be read. For files a
 * writer into someone else's directory must not follow (init, bundle directories).
 */
export function readRegularFile(abs: string, limit = MAX_INPUT_BYTES): Buffer | undefined {
  try {
    return lstatSync(abs).isFile() ? readFileBounded(abs, limit) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The items of a large JSON cluster dump (`kubectl get pods -A -o json`: a `List` whose `items` hold
 * the objects, or a bare array), read chunk by chunk: each item's bytes are cut out by a scanner that
 * knows strings and escapes, parsed alone, and handed on, so a dump of hundreds of megabytes is never
 * one string (V8 refuses strings past about 512 MiB) and is never held whole. The top-level object's
 * other keys (`apiVersion`, `kind`, `metadata`) are skipped.
 */

/** A scanning error: what was wrong and at which byte. */
export interface ItemsError {
  readonly message: string;
  readonly offset: number;
}

/**
 * Over 80 lines: one byte-level scanner, whose state (depth, string, escape, key, item) every byte reads and changes.
 *
 * Calls `onItem` with each item, in order; `read` fills a buffer from the given file offset and
 * returns how many bytes it read (0 at the end). Returns an error for bytes that are not a JSON
 * object or array of that shape, or an item JSON.parse refuses.
 */
export function streamJsonItems(
  read: (into: Buffer, offset: number) => number,
  onItem: (item: unknown) => void,
  chunkSize = 16 * 1024 * 1024,
): ItemsError | undefined {
  const chunk = Buffer.alloc(chunkSize);
  let offset = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let top: number | undefined; // 0x7b `{` or 0x5b `[`
  let itemsDepth = -1; // the depth inside the array whose elements are items
  // The key being read at depth 1 of a top-level object, and the last one read.
  let key: number[] | undefined;
  let lastKey = '';
  let pieces: Buffer[] = [];
  let collecting = false;
  for (;;) {
    const n = read(chunk, offset);
    if (n <= 0) break;
    let from = collecting ? 0 : -1;
    for (let i = 0; i < n; i++) {
      const c = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) {
          inString = false;
          if (key) {
            lastKey = Buffer.from(key).toString('utf8');
            key = undefined;
          }
        } else if (key && key.length < 16) key.push(c);
        continue;
      }
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      if (top === undefined) {
        if (c !== 0x7b && c !== 0x5b) return { message: 'a cluster dump is a JSON object (a List) or array', offset: offset + i };
        top = c;
        depth = 1;
        if (c === 0x5b) itemsDepth = 1;
        continue;
      }
      if (c === 0x22) {
        inString = true;
        if (top === 0x7b && depth === 1) key = [];
        continue;
      }
      if (c === 0x7b || c === 0x5b) {
        if (depth === itemsDepth && !collecting) {
          collecting = true;
          from = i;
        }
        depth++;
        // The `items` array of the top-level object: its elements (not the array) are the items.
        if (top === 0x7b && depth === 2 && c === 0x5b && lastKey === 'items' && itemsDepth < 0) itemsDepth = 2;
        continue;
      }
      if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth < 0) return { message: 'unbalanced brackets', offset: offset + i };
        // The items array closed: nothing after it is an item (another key's `items` included).
        if (depth < itemsDepth) itemsDepth = Number.MAX_SAFE_INTEGER;
        if (collecting && depth === itemsDepth) {
          // Most items lie within one chunk: decoded in place, with no copy.
          const text = pieces.length === 0 ? chunk.toString('utf8', from, i + 1) : Buffer.concat([...pieces, chunk.subarray(from, i + 1)]).toString('utf8');
          pieces = [];
          collecting = false;
          from = -1;
          try {
            onItem(JSON.parse(text));
          } catch (e) {
            return { message: e instanceof Error ? e.message : String(e), offset: offset + i };
          }
        }
        continue;
      }
    }
    if (collecting && from >= 0) pieces.push(Buffer.from(chunk.subarray(from, n)));
    offset += n;
  }
  if (top === undefined) return { message: 'an empty cluster dump', offset };
  if (depth !== 0 || inString) return { message: 'the JSON ends before its last bracket closes', offset };
  return undefined;
}

/**
 * A running pod reduced to what placing pods and counting quotas read of it (its node, phase,
 * containers' names, resources and restart policy, overhead, affinity, scope fields): a dump of
 * 100,000 pods then holds a few hundred bytes per pod instead of its whole manifest.
 */
export function slimPod(o: Record<string, unknown>): Record<string, unknown> {
  const pick = (v: unknown, keys: readonly string[]): Record<string, unknown> | undefined => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    const r = v as Record<string, unknown>;
    return Object.fromEntries(keys.filter((k) => Object.hasOwn(r, k)).map((k) => [k, r[k]]));
  };
  const containers = (v: unknown): unknown => (Array.isArray(v) ? v.map((c) => pick(c, ['name', 'image', 'resources', 'restartPolicy']) ?? c) : v);
  const spec = pick(o['spec'], [
    'nodeName',
    'containers',
    'initContainers',
    'overhead',
    'affinity',
    'priorityClassName',
    'activeDeadlineSeconds',
    'tolerations',
  ]);
  if (spec) {
    if (spec['containers'] !== undefined) spec['containers'] = containers(spec['containers']);
    if (spec['initContainers'] !== undefined) spec['initContainers'] = containers(spec['initContainers']);
  }
  return {
    apiVersion: o['apiVersion'],
    kind: o['kind'],
    ...(o['metadata'] !== undefined ? { metadata: pick(o['metadata'], ['name', 'namespace']) ?? o['metadata'] } : {}),
    ...(spec ? { spec } : o['spec'] !== undefined ? { spec: o['spec'] } : {}),
    ...(o['status'] !== undefined ? { status: pick(o['status'], ['phase']) ?? o['status'] } : {}),
  };
}

/** Past this size a JSON cluster dump is read item by item (a 100 MiB pod list parses whole in about a second). */
export const STREAM_DUMP_BYTES = 64 * 1024 * 1024;

/**
 * A JSON dump past STREAM_DUMP_BYTES, item by item, each flattened by `items` (a List's items) and
 * its pods slimmed; undefined for a smaller dump or one that does not start as JSON (the whole-file
 * readers take those).
 */
export function streamedDump(
  read: (into: Buffer, offset: number) => number,
  size: number,
  items: (v: unknown) => Record<string, unknown>[],
): { objects: Record<string, unknown>[] } | { error: ItemsError } | undefined {
  const first = Buffer.alloc(64);
  const n = read(first, 0);
  let k = 0;
  while (k < n && (first[k] === 0x20 || first[k] === 0x0a || first[k] === 0x0d || first[k] === 0x09)) k++;
  if (size <= STREAM_DUMP_BYTES || (first[k] !== 0x7b && first[k] !== 0x5b)) return undefined;
  const objects: Record<string, unknown>[] = [];
  const error = streamJsonItems(read, (item) => {
    for (const o of items(item)) objects.push(o['kind'] === 'Pod' ? slimPod(o) : o);
  });
  return error ? { error } : { objects };
}

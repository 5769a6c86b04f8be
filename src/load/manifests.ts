/**
 * Manifest files named on the command line (VirtualMachines for `expand`, instancetype bundles for
 * `--with`): files, directories (their *.yaml, *.yml and *.json, sorted, links not followed) or `-`
 * for standard input. Inside the project only, like every file itgen reads.
 */
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { diag, type Diagnostic } from '../diagnostics';
import { outsideProject, readNamedFile, readProjectFile, relativePath, within } from './files';
import { bytesInWords, InputTooLarge, MAX_DIRECTORY_DEPTH } from './limits';
import { parseSource, type SourceDoc } from './source';
import { byText } from '../order';

const MANIFEST = /\.(ya?ml|json)$/;

/** `target.push(...items)` without passing every item as an argument (a file may hold 50,000 documents). */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

/**
 * Standard input through the caller's reader, which bounds it (`readBounded`): the bytes, or why
 * not. A stream that never ends is refused after MAX_INPUT_BYTES.
 */
export function readStdin(stdin: () => string | Buffer): { bytes: Buffer } | { error: string } {
  try {
    const v = stdin();
    return { bytes: typeof v === 'string' ? Buffer.from(v) : v };
  } catch (e) {
    if (e instanceof InputTooLarge) return { error: `it is larger than ${bytesInWords(e.limit)}, the most itgen reads; pass a file instead` };
    const code = (e as NodeJS.ErrnoException).code;
    return { error: code === 'EISDIR' ? 'it is a directory' : `the operating system refused it (${code ?? 'unknown'})` };
  }
}

/** The manifest files under a directory, sorted, links not followed; `deep` is set when levels past MAX_DIRECTORY_DEPTH were left out. */
function walk(abs: string, depth = 0, out: string[] = [], deep: { at?: string } = {}): { files: string[]; deep: { at?: string } } {
  for (const entry of readdirSync(abs, { withFileTypes: true }).sort(byText((x) => x.name))) {
    const p = path.join(abs, entry.name);
    if (entry.isDirectory()) {
      if (depth + 1 >= MAX_DIRECTORY_DEPTH) deep.at ??= p;
      else walk(p, depth + 1, out, deep);
    } else if (entry.isFile() && MANIFEST.test(entry.name)) out.push(p);
  }
  return { files: out, deep };
}

/**
 * `cwd`: where the command was typed. A path is read relative to the project (`-C DIR`, or the
 * project found upward) first, then relative to `cwd`, so that `itgen -C out expand out/vms/*.yaml`
 * (paths the shell expanded) and `itgen expand vm.yaml` in a subdirectory both work as typed.
 */
function locateInput(absRoot: string, input: string, cwd: string | undefined): string {
  const fromRoot = path.resolve(absRoot, input);
  if (cwd === undefined || path.isAbsolute(input) || existsSync(fromRoot)) return fromRoot;
  const fromCwd = path.resolve(cwd, input);
  return existsSync(fromCwd) ? fromCwd : fromRoot;
}

export function loadManifests(root: string, inputs: readonly string[], stdin: () => string, cwd?: string): { docs: SourceDoc[]; diagnostics: Diagnostic[] } {
  const docs: SourceDoc[] = [];
  const diagnostics: Diagnostic[] = [];
  const absRoot = path.resolve(root);
  for (const input of inputs) {
    if (input === '-') {
      const read = readStdin(stdin);
      if ('error' in read) {
        diagnostics.push(diag('IT1001', `cannot read standard input: ${read.error}`));
        continue;
      }
      const parsed = parseSource('<stdin>', read.bytes);
      appendAll(docs, parsed.docs);
      appendAll(diagnostics, parsed.diagnostics);
      continue;
    }
    const abs = locateInput(absRoot, input, cwd);
    // Inside the project a file is named by its project path; outside, as the operator gave it.
    // A file found under an operand directory is named from the operand as typed, never by the
    // absolute path the walk reached it by (a linked directory would reveal the machine's layout).
    const shownAs = (file: string): string =>
      outsideProject(absRoot, file) === undefined && within(absRoot, file)
        ? relativePath(absRoot, file)
        : file === abs
          ? input
          : `${input.replace(/\/+$/, '')}/${relativePath(abs, file)}`;
    let files: string[];
    try {
      if (input.includes('\0')) throw new Error('NUL');
      const isDir = statSync(abs).isDirectory();
      if (isDir) {
        const walked = walk(abs);
        files = walked.files;
        if (walked.deep.at !== undefined)
          diagnostics.push(
            diag('IT1001', `\`${input}\` nests directories deeper than ${MAX_DIRECTORY_DEPTH} levels; the deeper ones were not read`, undefined, {
              hint: `first left out: ${shownAs(walked.deep.at).slice(0, 200)}`,
            }),
          );
      } else files = [abs];
    } catch {
      diagnostics.push(diag('IT1001', `cannot read \`${input}\`: no such file or directory`));
      continue;
    }
    for (const file of files) {
      const shown = shownAs(file);
      // Files the operator names are the operator's choice (read wherever they are); what the
      // project itself points at stays confined (load/files.ts readProjectFile).
      const read = readNamedFile(file);
      if ('error' in read) {
        diagnostics.push(diag('IT1001', `cannot read \`${shown}\`: ${read.error}`));
        continue;
      }
      const parsed = parseSource(shown, read.bytes);
      appendAll(docs, parsed.docs);
      appendAll(diagnostics, parsed.diagnostics);
    }
  }
  return { docs, diagnostics };
}

/**
 * The YAML files of the project a GitOps tool may read (Flux Kustomizations, Argo CD Applications):
 * every *.yaml and *.yml but those under node_modules, .git and the directories given (outputs and
 * catalogs, which itgen reads anyway), at most 2,000 files of at most 1 MiB, links not followed.
 */
export function loadProjectManifests(root: string, skip: readonly string[]): SourceDoc[] {
  const absRoot = path.resolve(root);
  const skipped = new Set([...skip.map((d) => path.resolve(absRoot, d)), path.join(absRoot, 'node_modules'), path.join(absRoot, '.git')]);
  const files: string[] = [];
  const walkDir = (dir: string, depth = 0): void => {
    if (files.length >= 2000 || skipped.has(dir) || depth > MAX_DIRECTORY_DEPTH) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort(byText((x) => x.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walkDir(p, depth + 1);
      else if (e.isFile() && /\.ya?ml$/.test(e.name) && files.length < 2000) files.push(p);
    }
  };
  walkDir(absRoot);
  const docs: SourceDoc[] = [];
  for (const file of files) {
    try {
      if (lstatSync(file).size > 1 << 20) continue;
    } catch {
      continue;
    }
    const read = readProjectFile(absRoot, file);
    if (!('bytes' in read) || !/\b(kustomize\.toolkit\.fluxcd\.io|source\.toolkit\.fluxcd\.io|argoproj\.io)\//.test(read.bytes.toString('utf8'))) continue;
    docs.push(...parseSource(relativePath(absRoot, file), read.bytes).docs);
  }
  return docs;
}

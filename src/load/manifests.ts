/**
 * Manifest files named on the command line (VirtualMachines for `expand`, instancetype bundles for
 * `--with`): files, directories (their *.yaml, *.yml and *.json, sorted, links not followed) or `-`
 * for standard input. Inside the project only, like every file itgen reads.
 */
import { closeSync, existsSync, lstatSync, openSync, readdirEntries, readSync, statSync, taint } from './reads';
import path from 'node:path';
import { diag, type Diagnostic, type SourceRange } from '../diagnostics';
import { outsideProject, readNamedFile, readProjectFile, relativePath, STDIN_NAME, within } from './files';
import { isUtf8 } from 'node:buffer';
import { yamlDump, yamlListDump } from './yaml-items';
import { bytesInWords, InputTooLarge, MAX_DIRECTORY_DEPTH, MAX_DUMP_BYTES, readFileBounded } from './limits';
import { STREAM_DUMP_BYTES, streamedDump } from './json-items';
import { locate, parseSource, type PathSegment, type SourceDoc } from './source';
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
  // Standard input is read once: nothing a replay could read again.
  taint('standard input');
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
  for (const entry of readdirEntries(abs).sort(byText((x) => x.name))) {
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
      const parsed = parseSource(STDIN_NAME, read.bytes);
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
 * The objects of one cluster dump the operator names (`kubectl get nodes -o yaml`, `kubectl get
 * pods -A -o json`): a `List`'s items, or the documents. Up to MAX_DUMP_BYTES; JSON (the file
 * starts with `{` or `[`) through JSON.parse, which reads a 100 MiB pod list in about a second;
 * YAML, and JSON that JSON.parse refuses, through the manifest reader, which places any error.
 */
export function loadClusterDump(
  root: string,
  input: string,
  stdin: () => string,
  cwd?: string,
): {
  objects: Record<string, unknown>[];
  shown: string;
  diagnostics: Diagnostic[];
  /** Where each object is in the file (YAML only: a JSON dump is read without positions). */
  at?: (index: number, path: readonly PathSegment[]) => SourceRange | undefined;
} {
  const items = (v: unknown): Record<string, unknown>[] => {
    const isObj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);
    const all = Array.isArray(v) ? v : [v];
    return all.filter(isObj).flatMap((o) => (o['kind'] === 'List' && Array.isArray(o['items']) ? (o['items'] as unknown[]).filter(isObj) : [o]));
  };
  let bytes: Buffer;
  let shown = input;
  // A large JSON dump is read item by item (never one string, never held whole); its pods slimmed.
  const streamed = (read: (into: Buffer, offset: number) => number, size: number): ReturnType<typeof loadClusterDump> | undefined => {
    const r = streamedDump(read, size, items);
    if (r === undefined) return undefined;
    if ('objects' in r) return { objects: r.objects, shown, diagnostics: [] };
    return {
      objects: [],
      shown,
      diagnostics: [
        diag('IT1002', `\`${shown}\` is not a JSON list of objects: ${r.error.message} (at byte ${r.error.offset})`, { file: shown, line: 1, col: 1 }),
      ],
    };
  };
  if (input === '-') {
    const read = readStdin(stdin);
    if ('error' in read) return { objects: [], shown: STDIN_NAME, diagnostics: [diag('IT1001', `cannot read standard input: ${read.error}`)] };
    bytes = read.bytes;
    shown = STDIN_NAME;
    const fromStdin = bytes;
    const r = streamed((into, offset) => fromStdin.copy(into, 0, offset, Math.min(fromStdin.length, offset + into.length)), bytes.length);
    if (r) return r;
  } else {
    const absRoot = path.resolve(root);
    const abs = locateInput(absRoot, input, cwd);
    if (outsideProject(absRoot, abs) === undefined && within(absRoot, abs)) shown = relativePath(absRoot, abs);
    try {
      if (input.includes('\0') || !statSync(abs).isFile()) throw new Error('not a file');
      const size = statSync(abs).size;
      if (size > MAX_DUMP_BYTES) throw new InputTooLarge(MAX_DUMP_BYTES);
      if (size > STREAM_DUMP_BYTES) {
        const fd = openSync(abs);
        try {
          const r = streamed((into, offset) => readSync(fd, into, 0, into.length, offset), size);
          if (r) return r;
        } finally {
          closeSync(fd);
        }
      }
      if (size > MAX_YAML_DUMP_BYTES) return { objects: [], shown, diagnostics: [tooLargeYaml(shown)] };
      bytes = readFileBounded(abs, MAX_DUMP_BYTES);
    } catch (e) {
      const why = e instanceof InputTooLarge ? `it is larger than ${bytesInWords(e.limit)}, the most itgen reads from a cluster dump` : 'no such file';
      return { objects: [], shown, diagnostics: [diag('IT1001', `cannot read \`${input}\`: ${why}`)] };
    }
  }
  let first = 0;
  while (first < bytes.length && (bytes[first] === 0x20 || bytes[first] === 0x0a || bytes[first] === 0x0d || bytes[first] === 0x09)) first++;
  if (bytes[first] === 0x7b || bytes[first] === 0x5b) {
    try {
      return { objects: items(JSON.parse(bytes.toString('utf8'))), shown, diagnostics: [] };
    } catch {
      // Not JSON after all: the YAML reader (JSON is YAML) reads it, or places the error at its line and column.
    }
  }
  if (bytes.length > MAX_YAML_DUMP_BYTES) return { objects: [], shown, diagnostics: [tooLargeYaml(shown)] };
  // A List (what kubectl writes) entry by entry, its pods slimmed; anything else whole.
  // (Text that is not UTF-8 goes to the file reader, which says where.)
  const list = isUtf8(bytes) ? yamlListDump(bytes.toString('utf8'), shown) : undefined;
  if (list) return { objects: list.objects, shown, diagnostics: list.diagnostics, at: list.at };
  return yamlDump(parseSource(shown, bytes, MAX_DUMP_BYTES), shown, items);
}

/** The largest YAML dump read (about 10 s at the fast reader's pace); JSON is read item by item up to MAX_DUMP_BYTES. */
export const MAX_YAML_DUMP_BYTES = 128 * 1024 * 1024;

const tooLargeYaml = (shown: string): Diagnostic =>
  diag('IT1001', `cannot read \`${shown}\`: a YAML dump larger than ${bytesInWords(MAX_YAML_DUMP_BYTES)} is more than itgen reads in YAML`, undefined, {
    hint: `give it as JSON (kubectl get ... -o json), which itgen reads item by item up to ${bytesInWords(MAX_DUMP_BYTES)}`,
  });

/** Directories where GitOps repositories keep their Flux and Argo CD objects by convention (flux bootstrap's clusters/<name>/...). */
const GITOPS_DIRS = ['clusters', 'gitops', 'flux', 'argocd', 'argo'];
/** Directories whose top-level YAML files are read (Argo CD's app-of-apps keeps its Applications flat in apps/), never their subdirectories. */
const SHALLOW_DIRS = ['apps', 'applications'];
/** What one search reads at most: directories, and YAML files of at most 1 MiB each. */
const MAX_SEARCH_DIRS = 120;
const MAX_SEARCH_FILES = 2000;
/** How many directories deep the search follows from where it began (clusters/<name>/flux-system is two). */
const MAX_FOLLOW = 2;
const GITOPS_TEXT = /\b(kustomize\.toolkit\.fluxcd\.io|source\.toolkit\.fluxcd\.io|argoproj\.io)\//;

/** A path as GitOps tools and kustomize name a directory: POSIX, no `./`, no trailing slash, `.` for the root. */
export const normalDir = (p: string): string => path.posix.normalize(p.replace(/\\/g, '/')).replace(/^\.\//, '').replace(/\/+$/, '') || '.';

/**
 * The project's Flux and Argo CD objects, found by following what deploys rather than by reading
 * every directory (a GitOps monorepo holds thousands of other kustomizations): from the root
 * kustomization.yaml, the YAML files at the top of the project, and the conventional GitOps
 * directories (clusters/, gitops/, flux/, argocd/, argo/), through kustomization `resources` and the
 * paths the Flux Kustomizations and Argo CD Applications found name (a directory without a
 * kustomization.yaml is read as Flux reads it: every YAML file below it). Bounded (120 directories,
 * 2,000 files of at most 1 MiB), links not followed, node_modules, .git and `skip` (outputs,
 * catalogs) never entered. An object nothing of that reaches is not seen; docs/design.md says why.
 *
 * Over 80 lines: a bounded breadth-first walk of what deploys (kustomizations, Flux, Argo CD); the bounds and the walk are one loop.
 */
export function loadProjectManifests(root: string, skip: readonly string[]): SourceDoc[] {
  const absRoot = path.resolve(root);
  const skipped = new Set([...skip.map((d) => normalDir(path.relative(absRoot, path.resolve(absRoot, d)))), 'node_modules', '.git']);
  const docs: SourceDoc[] = [];
  const seenDirs = new Set<string>();
  const seenFiles = new Set<string>();
  // Each directory with how it is read: `flat` (its top-level YAML files: the root, apps/) or in full.
  // `depth`: directories followed from where the search began (a conventional directory or a path
  // a GitOps object names); past MAX_FOLLOW only files are read, so an app tree of thousands of
  // kustomizations is not walked for the GitOps objects it does not hold.
  const queue: { dir: string; flat: boolean; depth: number }[] = [
    { dir: '.', flat: true, depth: 0 },
    ...GITOPS_DIRS.map((dir) => ({ dir, flat: false, depth: 0 })),
    ...SHALLOW_DIRS.map((dir) => ({ dir, flat: true, depth: 0 })),
  ];
  const seenFlat = new Set<string>();
  const isSkipped = (rel: string): boolean => [...skipped].some((s) => rel === s || rel.startsWith(`${s}/`));
  const inside = (rel: string): boolean => rel !== '..' && !rel.startsWith('../') && !path.isAbsolute(rel);
  const readYaml = (rel: string, only?: RegExp): SourceDoc[] => {
    if (seenFiles.has(rel) || seenFiles.size >= MAX_SEARCH_FILES) return [];
    seenFiles.add(rel);
    const abs = path.join(absRoot, rel);
    try {
      const st = lstatSync(abs);
      if (!st.isFile() || st.size > 1 << 20) return [];
    } catch {
      return [];
    }
    const read = readProjectFile(absRoot, abs);
    if (!('bytes' in read)) return [];
    // Most YAML of a GitOps repository is workloads: parsed only when it can hold what is sought.
    if (only && !only.test(read.bytes.toString('latin1'))) return [];
    return parseSource(rel, read.bytes).docs;
  };
  /** A Flux Kustomization's or Argo CD Application's path, as a project directory to read in full. */
  const follow = (d: SourceDoc): void => {
    for (const x of syncersOf([d])) queue.push({ dir: x.dir, flat: false, depth: 0 });
  };
  const take = (rel: string): void => {
    for (const d of readYaml(rel, GITOPS_TEXT)) {
      if (!GITOPS_TEXT.test(String((d.value as { apiVersion?: unknown } | null)?.apiVersion ?? ''))) continue;
      docs.push(d);
      follow(d);
    }
  };
  while (queue.length > 0 && seenDirs.size + seenFlat.size < MAX_SEARCH_DIRS) {
    const { dir, flat, depth } = queue.shift()!;
    if (seenDirs.has(dir) || (flat && seenFlat.has(dir)) || !inside(dir) || isSkipped(dir)) continue;
    let entries;
    try {
      if (lstatSync(path.join(absRoot, dir)).isSymbolicLink()) continue;
      entries = readdirEntries(path.join(absRoot, dir)).sort(byText((x) => x.name));
    } catch {
      continue;
    }
    (flat ? seenFlat : seenDirs).add(dir);
    const join = (name: string): string => (dir === '.' ? name : `${dir}/${name}`);
    const k = entries.find((e) => e.isFile() && (e.name === 'kustomization.yaml' || e.name === 'kustomization.yml' || e.name === 'Kustomization'));
    if (k && (!flat || dir === '.')) {
      // What kustomize builds here (the root's too): its resources, files read, directories followed.
      const kdoc = readYaml(join(k.name))[0];
      const resources = (kdoc?.value as { resources?: unknown } | undefined)?.resources;
      if (Array.isArray(resources))
        for (const r of resources) {
          if (typeof r !== 'string' || /^[a-z]+:\/\//.test(r)) continue;
          const rel = normalDir(path.posix.join(dir, r));
          if (/\.ya?ml$/.test(rel)) take(rel);
          else if (depth < MAX_FOLLOW) queue.push({ dir: rel, flat: false, depth: depth + 1 });
        }
      // The root's own top-level YAML files too (a repository keeps its Argo CD root app there).
      if (dir === '.') for (const e of entries) if (e.isFile() && /\.ya?ml$/.test(e.name)) take(e.name);
      continue;
    }
    // No kustomization: Flux reads every YAML file below; a flat visit only the top level.
    for (const e of entries) {
      if (e.isFile() && /\.ya?ml$/.test(e.name)) take(join(e.name));
      else if (e.isDirectory() && !flat && depth < MAX_FOLLOW) queue.push({ dir: join(e.name), flat: false, depth: depth + 1 });
    }
  }
  return docs;
}

/** A Flux Kustomization or Argo CD Application: what applies a path of the repository to clusters. */
export interface Syncer {
  readonly tool: 'flux' | 'argocd';
  readonly name: string;
  /** Where it is written (project-relative) and its path field. */
  readonly file: string;
  readonly dir: string;
  readonly at: ReturnType<typeof locate>;
  /** Flux: the source it reads (`spec.sourceRef`). */
  readonly sourceRef?: { readonly kind: string; readonly name: string; readonly namespace?: string | undefined } | undefined;
  readonly prune: boolean;
}

/** The Flux Kustomizations and Argo CD Applications among the project's YAML documents. */
export function syncersOf(gitops: readonly SourceDoc[]): Syncer[] {
  const out: Syncer[] = [];
  for (const src of gitops) {
    const o = src.value as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown }; spec?: Record<string, unknown> };
    const api = String(o.apiVersion ?? '');
    const name = typeof o.metadata?.name === 'string' ? o.metadata.name : '';
    if (o.kind === 'Kustomization' && api.startsWith('kustomize.toolkit.fluxcd.io/') && typeof o.spec?.['path'] === 'string') {
      const ref = o.spec['sourceRef'] as { kind?: unknown; name?: unknown; namespace?: unknown } | undefined;
      out.push({
        tool: 'flux',
        name,
        file: src.file,
        dir: normalDir(o.spec['path']),
        at: locate(src, ['spec', 'path']),
        sourceRef:
          typeof ref?.name === 'string'
            ? {
                kind: typeof ref.kind === 'string' ? ref.kind : 'GitRepository',
                name: ref.name,
                namespace: typeof ref.namespace === 'string' ? ref.namespace : undefined,
              }
            : undefined,
        prune: o.spec['prune'] === true,
      });
    }
    if (o.kind === 'Application' && api.startsWith('argoproj.io/')) {
      const source = o.spec?.['source'] as Record<string, unknown> | undefined;
      const automated = (o.spec?.['syncPolicy'] as { automated?: { prune?: unknown } } | undefined)?.automated;
      const prune = automated?.prune === true;
      if (typeof source?.['path'] === 'string')
        out.push({ tool: 'argocd', name, file: src.file, dir: normalDir(source['path']), at: locate(src, ['spec', 'source', 'path']), prune });
      const sources = o.spec?.['sources'];
      if (Array.isArray(sources))
        sources.forEach((x: unknown, i) => {
          const p = (x as Record<string, unknown> | null)?.['path'];
          if (typeof p === 'string')
            out.push({ tool: 'argocd', name, file: src.file, dir: normalDir(p), at: locate(src, ['spec', 'sources', i, 'path']), prune });
        });
    }
  }
  return out;
}

/** How a diagnostic names a GitOps object: `Flux Kustomization \`x\`` or `Argo CD Application \`x\``. */
export function syncerName(x: Syncer): string {
  return `${x.tool === 'flux' ? 'Flux Kustomization' : 'Argo CD Application'} \`${x.name}\``;
}

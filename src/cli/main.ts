#!/usr/bin/env node
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { globSync } from 'glob';
import { stringify } from 'yaml';
import { diag, didYouMean, hasErrors, type Diagnostic } from '../diagnostics';
import { diffTrees } from '../emit/drift';
import { serializeObjects, type OutputFile } from '../emit/layout';
import { readTree, withOutputLock, writeFilesAtomic, writeTree } from '../emit/write';
import { relativePath } from '../load/files';
import { parseSource } from '../load/source';
import { compile, compileGenerator, generatorFromDocument, loadGenerator, outputOverlaps, within, type CompileResult } from '../pipeline';
import { buildBundles } from '../release/bundle';
import { diffObjects, formatDiff, parseObjects, type KubeObject, type ObjectDiff } from '../release/diff';
import { parseResourceList, resultItems, resultsOf, serializeResourceList, withoutOrchestratorAnnotations } from '../release/krm';
import { currentObjects, lockFileFor, recordRelease, serializeLock } from '../release/lock';
import { DOCS_FILE } from '../render/docs';
import { explainObject } from '../render/explain';
import { KIND_ORDER, onePerSource } from '../render/manifests';
import { catalogJsonSchema } from '../schema/catalog';
import { generatorJsonSchema } from '../schema/generator';
import { lockSchema } from '../schema/lock';
import { z } from 'zod';
import { parseArgs, USAGE, type ParsedArgs } from './args';
import { formatGithub, formatJson, formatText, summary, type OutputFormat } from './format';
import { readTreeAt } from './git';

export const EXIT_OK = 0;
export const EXIT_USER = 1;
export const EXIT_INTERNAL = 2;

export interface Io {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  readonly cwd: string;
  readonly color: boolean;
  /** Standard input, read on demand (the KRM function mode). */
  readonly stdin?: () => string;
}

/** The generators named on the command line, or else every generator of the project (`*.lock.yaml` beside them are release locks). */
function generatorFiles(root: string, named: readonly string[]): string[] {
  if (named.length > 0) return [...named];
  return globSync('generators/*.{yaml,yml}', { cwd: root, posix: true, ignore: ['generators/*.lock.{yaml,yml}'] }).sort();
}

function report(io: Io, format: OutputFormat, diagnostics: readonly Diagnostic[], root: string): void {
  if (format === 'json') {
    io.out(formatJson(diagnostics));
    return;
  }
  if (diagnostics.length === 0) return;
  if (format === 'github') {
    io.out(formatGithub(diagnostics));
    return;
  }
  const cache = new Map<string, string[] | undefined>();
  const lines = (file: string): string[] | undefined => {
    if (!cache.has(file)) {
      try {
        const abs = path.resolve(root, file);
        // Only regular files: reading a FIFO named *.yaml would block forever.
        cache.set(file, statSync(abs).isFile() ? readFileSync(abs, 'utf8').split(/\r?\n/) : undefined);
      } catch {
        cache.set(file, undefined);
      }
    }
    return cache.get(file);
  };
  io.err(formatText(diagnostics, lines, io.color));
  io.err(summary(diagnostics));
}

function strictify(diagnostics: readonly Diagnostic[], strict: boolean): Diagnostic[] {
  return strict ? diagnostics.map((d) => (d.severity === 'warning' ? { ...d, severity: 'error' as const, message: `${d.message} (--strict)` } : d)) : [...diagnostics];
}

function exitCodeFor(diagnostics: readonly Diagnostic[]): number {
  if (diagnostics.some((d) => d.code.startsWith('IT9'))) return EXIT_INTERNAL;
  return hasErrors(diagnostics) ? EXIT_USER : EXIT_OK;
}

function compileAll(root: string, args: ParsedArgs): { results: CompileResult[]; diagnostics: Diagnostic[] } {
  const files = generatorFiles(root, args.generators);
  if (files.length === 0) {
    return { results: [], diagnostics: [diag('IT1009', 'no generator found: pass --generator FILE or add generators/*.yaml')] };
  }
  const results = files.map((f) => compile(root, f));
  const loaded = results.flatMap((r) => (r.generator ? [r.generator] : []));
  const diagnostics = strictify([...results.flatMap((r) => r.diagnostics), ...outputOverlaps(loaded)], args.strict);
  return { results, diagnostics };
}

/** Only the commands that write need this: one generator when the output is a single place. */
function single(results: readonly CompileResult[], what: string): { result?: CompileResult; diagnostics: Diagnostic[] } {
  if (results.length === 1) return { result: results[0]!, diagnostics: [] };
  return { diagnostics: [diag('IT1009', `${what} works on one generator at a time; pass -g generators/<name>.yaml (found ${results.length})`)] };
}

function objectsOf(files: readonly OutputFile[]): KubeObject[] {
  return files.filter((f) => /\.ya?ml$/.test(f.path)).flatMap((f) => parseObjects(f.content).objects);
}

function generatedObjects(r: CompileResult): KubeObject[] {
  return serializeObjects(r.objects).flatMap(([, doc]) => parseObjects(doc).objects);
}

function writeText(io: Io, text: string): void {
  io.out(text.endsWith('\n') ? text.slice(0, -1) : text);
}

// ---------------------------------------------------------------------------------------------

function cmdGenerate(io: Io, args: ParsedArgs, root: string): number {
  const { results, diagnostics } = compileAll(root, args);
  report(io, args.format, diagnostics, root);
  const code = exitCodeFor(diagnostics);
  if (code !== EXIT_OK) {
    if (args.format === 'text') io.err('nothing written');
    return code;
  }
  // Everything validated: only now touch the disk, one generator directory at a time, each atomically.
  for (const r of results) {
    try {
      writeTree(path.resolve(root, r.generator!.outputDir), r.files);
    } catch (e) {
      report(io, args.format, [diag('IT9002', `cannot write ${r.generator!.outputDir}: ${(e as Error).message}`)], root);
      return EXIT_INTERNAL;
    }
    if (args.format === 'text') io.err(`${r.generator!.name}: wrote ${r.objects.length} objects to ${r.generator!.outputDir}`);
  }
  return EXIT_OK;
}

/** Drift of one generator's output directory: file-level diagnostics and the object-level diff. */
function drift(root: string, r: CompileResult): { diagnostics: Diagnostic[]; objects: ObjectDiff[] } {
  const dir = r.generator!.outputDir;
  const onDisk = readTree(path.resolve(root, dir));
  const changes = diffTrees(onDisk, r.files);
  const diagnostics = changes.map((c) =>
    // Files that exist get a location, so GitHub annotations land on them in a pull request.
    diag('IT7001', `${dir}/${c.path} ${c.change === 'added' ? 'is missing' : c.change === 'removed' ? 'should not exist' : 'differs from what the catalog generates'}`, c.change === 'added' ? undefined : { file: `${dir}/${c.path}`, line: 1, col: 1 }, {
      hint: 'run `itgen generate` and commit the result',
    }),
  );
  return { diagnostics, objects: changes.length > 0 ? diffObjects(objectsOf(onDisk), generatedObjects(r)) : [] };
}

function cmdCheck(io: Io, args: ParsedArgs, root: string): number {
  const { results, diagnostics } = compileAll(root, args);
  const all = [...diagnostics];
  const objectDiffs: string[] = [];
  if (!hasErrors(diagnostics)) {
    for (const r of results) {
      const d = drift(root, r);
      all.push(...d.diagnostics);
      if (d.objects.length > 0) objectDiffs.push(`${r.generator!.outputDir}: from what is committed to what the catalogs generate:\n${formatDiff(d.objects)}`);
    }
  }
  report(io, args.format, all, root);
  if (args.format === 'text' && objectDiffs.length > 0) io.err(objectDiffs.join('\n'));
  return exitCodeFor(all);
}

function cmdDiff(io: Io, args: ParsedArgs, root: string): number {
  const { results, diagnostics } = compileAll(root, args);
  if (hasErrors(diagnostics)) {
    report(io, args.format, diagnostics, root);
    return exitCodeFor(diagnostics);
  }
  const against = args.against;
  const bundleFile = against !== undefined && existsSync(path.resolve(io.cwd, against)) && statSync(path.resolve(io.cwd, against)).isFile() ? path.resolve(io.cwd, against) : undefined;
  const problems: Diagnostic[] = [...diagnostics];
  const sections: { generator: string; against: string; diffs: ObjectDiff[] }[] = [];
  if (bundleFile !== undefined) {
    const s = single(results, 'diff --against FILE');
    if (!s.result) {
      report(io, args.format, s.diagnostics, root);
      return EXIT_USER;
    }
    const parsed = parseObjects(readFileSync(bundleFile, 'utf8'));
    const shown = relativePath(root, bundleFile);
    if (parsed.error !== undefined) {
      report(io, args.format, [diag('IT7301', `cannot read ${shown}: ${parsed.error}`)], root);
      return EXIT_USER;
    }
    // Comparing with a file that holds no instance types or preferences would list every object as added.
    if (parsed.objects.length === 0) {
      report(io, args.format, [diag('IT7301', `${shown} holds no instance types or preferences (instancetype.kubevirt.io objects)`, undefined, { hint: 'pass a release bundle, such as common-instancetypes-all-bundle-<version>.yaml, or a commit' })], root);
      return EXIT_USER;
    }
    // A bundle carries the version label; the base does not.
    const ignore = [s.result.generator!.config.bundle.versionLabel];
    sections.push({ generator: s.result.generator!.name, against: shown, diffs: diffObjects(parsed.objects, generatedObjects(s.result), ignore) });
  } else {
    for (const r of results) {
      const dir = r.generator!.outputDir;
      let before: OutputFile[];
      if (against === undefined) before = readTree(path.resolve(root, dir));
      else {
        const t = readTreeAt(root, against, dir);
        if ('error' in t) {
          problems.push(diag('IT7301', `cannot read ${dir} at ${against}: ${t.error}`, undefined, { hint: 'pass a commit, branch or tag, or an existing YAML file' }));
          continue;
        }
        before = t.files;
      }
      sections.push({ generator: r.generator!.name, against: against === undefined ? `${dir} (working tree)` : `${dir} at ${against}`, diffs: diffObjects(objectsOf(before), generatedObjects(r)) });
    }
  }
  if (args.format === 'json') {
    io.out(JSON.stringify({ diagnostics: problems, generators: sections }, null, 2));
  } else {
    report(io, args.format, problems, root);
    const text = sections.map((s) => `${sections.length > 1 ? `# ${s.generator}: from ${s.against} to the catalogs\n` : ''}${formatDiff(s.diffs)}`).join('\n');
    if (text !== '') writeText(io, text);
  }
  const code = exitCodeFor(problems);
  if (code !== EXIT_OK) return code;
  return args.exitCode && sections.some((s) => s.diffs.length > 0) ? EXIT_USER : EXIT_OK;
}

function cmdDocs(io: Io, args: ParsedArgs, root: string): number {
  const { results, diagnostics } = compileAll(root, args);
  report(io, args.format, diagnostics, root);
  const code = exitCodeFor(diagnostics);
  if (code !== EXIT_OK) return code;
  for (const r of results) {
    const readme = r.files.find((f) => f.path === DOCS_FILE)!;
    try {
      const outDir = path.resolve(root, r.generator!.outputDir);
      withOutputLock(outDir, () => writeFilesAtomic(outDir, [readme]));
    } catch (e) {
      report(io, args.format, [diag('IT9002', `cannot write ${r.generator!.outputDir}/${DOCS_FILE}: ${(e as Error).message}`)], root);
      return EXIT_INTERNAL;
    }
    if (args.format === 'text') io.err(`${r.generator!.name}: wrote ${r.generator!.outputDir}/${DOCS_FILE}`);
  }
  return EXIT_OK;
}

function cmdRelease(io: Io, args: ParsedArgs, root: string): number {
  const version = args.version!;
  const { results, diagnostics } = compileAll(root, args);
  const all = [...diagnostics];
  // A release records what is committed: the output must be current.
  if (!hasErrors(all)) for (const r of results) all.push(...drift(root, r).diagnostics);
  const updates: { file: string; content: string; text: string }[] = [];
  if (!hasErrors(all)) {
    for (const r of results) {
      const g = r.generator!;
      const rec = recordRelease(r.lock, g.name, currentObjects(r.objects), version);
      all.push(...rec.diagnostics);
      if (!rec.lock) continue;
      const s = rec.summary!;
      updates.push({
        file: lockFileFor(g.file, g.name),
        content: serializeLock(rec.lock),
        text: `${g.name}: release ${version}: ${s.added} added, ${s.deprecated} newly deprecated, ${s.removed} removed, ${s.changed} changed by override`,
      });
    }
  }
  report(io, args.format, all, root);
  const code = exitCodeFor(all);
  if (code !== EXIT_OK) {
    if (args.format === 'text') io.err('nothing written');
    return code;
  }
  try {
    writeFilesAtomic(root, updates.map((u) => ({ path: u.file, content: u.content })));
  } catch (e) {
    report(io, args.format, [diag('IT9002', `cannot write the release lock: ${(e as Error).message}`)], root);
    return EXIT_INTERNAL;
  }
  if (args.format === 'text') for (const u of updates) io.err(`${u.text}; wrote ${u.file}`);
  return EXIT_OK;
}

function cmdBundle(io: Io, args: ParsedArgs, root: string): number {
  const version = args.version!;
  const { results, diagnostics } = compileAll(root, args);
  const s = single(results, 'bundle');
  const all = [...diagnostics, ...s.diagnostics];
  const r = s.result;
  if (r && !hasErrors(all) && r.lock) {
    // With a lock, a bundle is the recorded release: that version, and exactly its objects.
    const lock = r.lock.lock;
    const last = lock.releases[lock.releases.length - 1];
    const recorded = new Map(lock.objects.filter((o) => o.removed === undefined).map((o) => [`${o.kind}/${o.name}`, o.digest] as const));
    const now = currentObjects(r.objects);
    const same = now.length === recorded.size && now.every((c) => recorded.get(`${c.kind}/${c.name}`) === c.digest);
    if (last !== version) {
      all.push(diag('IT7107', `${version} is not the last release recorded in ${r.lock.file} (${last ?? 'none'})`, undefined, { hint: `run \`itgen release --version ${version}\` and commit the lock first, or bundle from the commit of that release` }));
    } else if (!same) {
      all.push(diag('IT7107', `the catalogs no longer generate what ${r.lock.file} recorded for ${version}`, undefined, { hint: 'bundle from the commit of the release, or record a new release' }));
    }
  }
  report(io, args.format, all, root);
  const code = exitCodeFor(all);
  if (code !== EXIT_OK || !r) return code === EXIT_OK ? EXIT_USER : code;
  const outDir = path.resolve(io.cwd, args.out!);
  const misplaced = bundleOutProblem(root, outDir, args.out!);
  if (misplaced) {
    report(io, args.format, [misplaced], root);
    return EXIT_USER;
  }
  const cfg = r.generator!.config.bundle;
  const files = buildBundles(r.objects, { version, versionLabel: cfg.versionLabel, filePrefix: cfg.filePrefix });
  try {
    writeFilesAtomic(outDir, files);
  } catch (e) {
    report(io, args.format, [diag('IT9002', `cannot write ${args.out!}: ${(e as Error).message}`)], root);
    return EXIT_INTERNAL;
  }
  if (args.format === 'text') io.err(`${r.generator!.name}: wrote ${files.length - 1} bundles and CHECKSUMS.sha256 to ${args.out!}`);
  return EXIT_OK;
}

/**
 * Bundles are written beside what is there, so `--out` must not be a directory itgen replaces (a
 * generator's output: the next generate would drop them) or reads (a catalog would take them for
 * catalog files), nor the generators directory or `.git`.
 */
function bundleOutProblem(root: string, outDir: string, written: string): Diagnostic | undefined {
  const absRoot = path.resolve(root);
  const places: [string, string][] = [
    [path.join(absRoot, 'generators'), 'the generators directory'],
    [path.join(absRoot, '.git'), 'the Git repository'],
  ];
  for (const file of generatorFiles(root, [])) {
    const g = loadGenerator(root, file).generator;
    if (!g) continue;
    places.push([path.resolve(absRoot, g.outputDir), `the output of generator \`${g.name}\``], [path.resolve(absRoot, g.catalogDir), `the catalog of generator \`${g.name}\``]);
  }
  for (const [dir, what] of places) {
    if (outDir === dir || within(dir, outDir)) {
      return diag('IT9002', `--out ${written} is ${outDir === dir ? '' : 'inside '}${what}`, undefined, {
        hint: 'write bundles to a directory of their own, such as dist/release or _build/bundles',
      });
    }
  }
  return undefined;
}

/**
 * KRM function: the functionConfig is a generator. kpt and kustomize do not say where it came
 * from, so it is taken to be `generators/<metadata.name>.yaml` under the project root (the
 * working directory, or -C): `catalog` and `output` resolve exactly as they do for that file.
 */
function onFunctionConfig(d: Diagnostic, file: string): Diagnostic {
  const rename = <T extends { file: string }>(l: T): T => (l.file === file ? { ...l, file: `functionConfig(${file})` } : l);
  return {
    ...d,
    ...(d.location ? { location: rename(d.location) } : {}),
    ...(d.related ? { related: d.related.map((r) => ({ ...r, location: rename(r.location) })) } : {}),
  };
}

function cmdFn(io: Io, args: ParsedArgs, root: string): number {
  const fail = (message: string): number => {
    io.out(serializeResourceList([], resultsOf([diag('IT7302', message)])));
    io.err(`error IT7302 ${message}`);
    return EXIT_USER;
  };
  const input = parseResourceList(io.stdin ? io.stdin() : '');
  if ('error' in input) return fail(input.error);
  const fc = withoutOrchestratorAnnotations(input.functionConfig);
  const meta = fc['metadata'];
  const name = meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? meta['name'] : undefined;
  if (typeof name !== 'string' || !/^[a-z0-9][a-z0-9._-]*$/.test(name)) return fail('the functionConfig needs metadata.name: the generator name (its file name without .yaml)');
  const file = `generators/${name}.yaml`;
  const src = parseSource(file, Buffer.from(stringify(fc)));
  const loaded = src.docs[0] ? generatorFromDocument(root, file, src.docs[0]) : { diagnostics: src.diagnostics };
  const result: CompileResult | undefined = 'generator' in loaded && loaded.generator ? compileGenerator(root, loaded.generator) : undefined;
  // Positions in the function config refer to kpt's copy of it, not to the file on disk: name
  // it as such, so that no line of the real file is quoted under the wrong message.
  const relocated = (result ? result.diagnostics : loaded.diagnostics).map((d) => onFunctionConfig(d, file));
  const diagnostics = strictify(relocated, args.strict);
  const failed = hasErrors(diagnostics);
  const items = result && !failed ? resultItems(input, result.objects) : input.items;
  io.out(serializeResourceList(items, resultsOf(diagnostics)));
  if (diagnostics.length > 0) report(io, 'text', diagnostics, root);
  return exitCodeFor(diagnostics);
}

function cmdExplain(io: Io, args: ParsedArgs, root: string): number {
  const { results, diagnostics } = compileAll(root, args);
  const matches = results.flatMap((r) => r.objects.filter((o) => o.manifest.metadata.name === args.name && (args.kind === undefined || o.manifest.kind === args.kind)));
  if (matches.length === 0) {
    report(io, args.format, diagnostics, root);
    const kinds = KIND_ORDER as readonly string[];
    if (args.kind !== undefined && !kinds.includes(args.kind)) {
      io.err(`unknown kind \`${args.kind}\`; ${didYouMean(args.kind, kinds) ?? `one of ${kinds.join(', ')}`}`);
      return EXIT_USER;
    }
    const names = new Set(results.flatMap((r) => r.objects.map((o) => o.manifest.metadata.name)));
    const suggestion = didYouMean(args.name ?? '', names);
    io.err(`no object named \`${args.name}\`${args.kind !== undefined ? ` of kind ${args.kind}` : ''}${suggestion ? `; ${suggestion}` : ''}`);
    return EXIT_USER;
  }
  // One explanation per object; the namespaced twin is the same object under another kind.
  io.out(onePerSource(matches).map(explainObject).join('---\n'));
  return EXIT_OK;
}

function cmdSchema(io: Io, args: ParsedArgs): number {
  const schema =
    args.schema === 'generator'
      ? generatorJsonSchema()
      : args.schema === 'lock'
        ? { ...(z.toJSONSchema(lockSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>), title: 'itgen release lock', $id: 'https://itgen.dev/schema/lock.json' }
        : catalogJsonSchema();
  io.out(JSON.stringify(schema, null, 2));
  return EXIT_OK;
}

export function run(argv: readonly string[], io: Io): number {
  const args = parseArgs(argv);
  if ('error' in args) {
    io.err(`${args.error}\n\n${USAGE}`);
    return EXIT_USER;
  }
  const root = path.resolve(io.cwd, args.root ?? '.');
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    io.err(`-C ${args.root}: no such directory`);
    return EXIT_USER;
  }
  switch (args.command) {
    case 'help':
      io.out(USAGE);
      return EXIT_OK;
    case 'schema':
      return cmdSchema(io, args);
    case 'validate': {
      const { diagnostics } = compileAll(root, args);
      report(io, args.format, diagnostics, root);
      return exitCodeFor(diagnostics);
    }
    case 'generate':
      return cmdGenerate(io, args, root);
    case 'check':
      return cmdCheck(io, args, root);
    case 'diff':
      return cmdDiff(io, args, root);
    case 'docs':
      return cmdDocs(io, args, root);
    case 'release':
      return cmdRelease(io, args, root);
    case 'bundle':
      return cmdBundle(io, args, root);
    case 'fn':
      return cmdFn(io, args, root);
    case 'explain':
      return cmdExplain(io, args, root);
  }
}

/** The process entry: real stdio, exit code on the process. Also the snapshot's main. */
export function main(argv: readonly string[] = process.argv.slice(2)): void {
  let code: number;
  try {
    code = run(argv, {
      out: (s) => process.stdout.write(s.endsWith('\n') ? s : `${s}\n`),
      err: (s) => process.stderr.write(s.endsWith('\n') ? s : `${s}\n`),
      cwd: process.cwd(),
      color: Boolean(process.stderr.isTTY) && !process.env['NO_COLOR'],
      stdin: () => readFileSync(0, 'utf8'),
    });
  } catch (e) {
    process.stderr.write(`itgen: internal error: ${(e as Error).message}\nplease report this with the input that caused it\n`);
    if (process.env['ITGEN_DEBUG']) process.stderr.write(`${(e as Error).stack ?? ''}\n`);
    code = EXIT_INTERNAL;
  }
  process.exitCode = code;
}

if (require.main === module) main();

import { type JsonObject } from '../json';
import { diag, hasErrors, strictify, type Diagnostic } from '../diagnostics';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { objectStore, type ObjectStore } from '../expand';
import { kubevirtFromDocuments, manifestObjects } from '../expand/documents';
import type { ClusterDefaults } from '../kubevirt/config';
import { readNamedFile, readProjectFile } from '../load/files';
import { loadManifests } from '../load/manifests';
import type { SourceDoc } from '../load/source';

import type { CompileResult } from '../pipeline';
import { compileProject, projectGenerators, type ProjectOptions } from '../release/project';
import { MAX_INPUT_BYTES } from '../load/limits';
import { readFileAt } from './git';
import { optionValue, type CommandLine, type CommandShape, type GlobalOptions } from './args';
import { formatGithub, formatGitlab, formatJson, formatText, summary, type OutputFormat } from './format';

export const EXIT_OK = 0;
export const EXIT_USER = 1;
export const EXIT_INTERNAL = 2;

export interface Io {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  readonly cwd: string;
  readonly color: boolean;
  /** stderr is a terminal: commands that are silent on success in CI say what they checked. */
  readonly terminal?: boolean;
  /** Standard input, read on demand; bounded by the reader (load/limits.ts readBounded), which throws InputTooLarge. */
  readonly stdin?: () => string;
  /**
   * GitHub Actions workflow commands (`--format github`), the one output that may start a line
   * with `::`; everything else goes through `out`/`err`, which `run()` guards. Absent: `out`.
   */
  readonly workflow?: (s: string) => void;
}

/** What a command is given: where to print, its command line, and the project root it runs in. */
export interface CommandContext {
  readonly io: Io;
  readonly line: CommandLine;
  readonly global: GlobalOptions;
  readonly root: string;
}

/** A command is a file under commands/: its name, its options, its usage text and what it runs. */
export interface Command extends CommandShape {
  /** One line for the command list. */
  readonly summary: string;
  /** The synopsis after `itgen`, e.g. `explain NAME [--kind KIND]`. */
  readonly synopsis: string;
  /** Longer help shown by `itgen help COMMAND`, if the summary is not enough. */
  readonly details?: string;
  /** Commands that need no project directory (schema, help). */
  readonly projectless?: boolean;
  /** Commands that make a project where they are typed (init, migrate presets): no search upward for one. */
  readonly inPlace?: boolean;
  /** Positional arguments name generators, as -g does (`itgen generate generators/x.yaml`). */
  readonly generatorArguments?: boolean;
  readonly run: (ctx: CommandContext) => number;
}

/** Accepts no positional argument. */
export function noPositionals(line: CommandLine): string | undefined {
  return line.positionals.length > 0 ? `unexpected argument \`${line.positionals[0]}\`` : undefined;
}

/** The generators named on the command line, or else every generator of the project (`*.lock.yaml` beside them are release locks). */
export const generatorFiles = projectGenerators;

export { writeProblem } from '../emit/write';

/**
 * Prints diagnostics in the chosen format; text quotes the source line under each. JSON goes to
 * standard output, unless the command's standard output holds its result (`aside`: expand, build),
 * where the JSON document of diagnostics goes to standard error.
 */
export function report(io: Io, format: OutputFormat, diagnostics: readonly Diagnostic[], root: string, aside = false): void {
  if (format === 'json') {
    (aside ? io.err : io.out)(formatJson(diagnostics));
    return;
  }
  // A Code Quality report is a whole document, empty included: GitLab reads the file the job writes.
  if (format === 'gitlab') {
    (aside ? io.err : io.out)(formatGitlab(diagnostics));
    return;
  }
  if (diagnostics.length === 0) return;
  if (format === 'github') {
    (io.workflow ?? io.out)(formatGithub(diagnostics));
    return;
  }
  const cache = new Map<string, string[] | undefined>();
  const lines = (file: string): string[] | undefined => {
    if (!cache.has(file)) {
      // The same guard as loading: nothing outside the project is ever quoted, no FIFO is opened.
      const read = readProjectFile(root, file);
      cache.set(file, 'bytes' in read ? read.bytes.toString('utf8').split(/\r?\n/) : undefined);
    }
    return cache.get(file);
  };
  io.err(formatText(diagnostics, lines, io.color));
  io.err(summary(diagnostics));
}

export function exitCodeFor(diagnostics: readonly Diagnostic[]): number {
  if (diagnostics.some((d) => d.code.startsWith('IT9'))) return EXIT_INTERNAL;
  return hasErrors(diagnostics) ? EXIT_USER : EXIT_OK;
}

/** Compiles every generator the command line names (or all of them), with overlap checks, --strict and --base applied. */
export function compileAll(ctx: CommandContext): { results: CompileResult[]; diagnostics: Diagnostic[] } {
  return compileProject(ctx.root, { generators: ctx.global.generators, strict: ctx.global.strict, base: baseOf(ctx), bundles: bundlesOf(ctx) });
}

/** The option every command that checks the release lock takes: the published history to hold it to. */
export const BASE_OPTION = {
  flag: '--base',
  value: 'REF',
  help: "the revision the change is made on (origin/main in CI): the release lock may add the next release, never rewrite what REF's lock published",
} as const;

/** The option that names the published bundles the release lock is held to. */
export const BUNDLES_OPTION = {
  flag: '--bundles',
  value: 'DIR',
  help: 'published release bundles with their CHECKSUMS.sha256 (itgen bundle --out DIR): the release lock must agree with what they shipped',
} as const;

/** `--bundles DIR` as the project workflows take it: the regular files of the directory, each read bounded. */
export function bundlesOf(ctx: CommandContext): ProjectOptions['bundles'] {
  const dir = ctx.line.options.get('--bundles')?.[0];
  if (dir === undefined) return undefined;
  const abs = path.resolve(ctx.io.cwd, dir);
  return {
    shown: dir.replace(/\/+$/, ''),
    files: () => {
      let names: string[];
      try {
        names = readdirSync(abs).sort();
      } catch {
        names = [];
      }
      return names.flatMap((name) => {
        const read = readNamedFile(path.join(abs, name));
        return 'bytes' in read ? [{ name, bytes: read.bytes }] : [];
      });
    },
  };
}

/** `--base REF` as the project workflows take it: the release lock files as committed at REF. */
export function baseOf(ctx: CommandContext): ProjectOptions['base'] {
  const ref = ctx.line.options.get('--base')?.[0];
  if (ref === undefined) return undefined;
  return {
    name: ref,
    read: (file) => readFileAt(ctx.root, ref, file, MAX_INPUT_BYTES),
    atTag: (version, file) => {
      const r = readFileAt(ctx.root, `refs/tags/${version}`, file, MAX_INPUT_BYTES);
      return r && 'text' in r ? r : undefined;
    },
  };
}

/**
 * Compiles every generator for a command that needs a sound catalog: the results, or the exit
 * code after printing the errors (`aside` for commands whose stdout holds their output).
 */
export function compiledOrExit(ctx: CommandContext, aside = false): { results: CompileResult[]; diagnostics: Diagnostic[] } | { exit: number } {
  const compiled = compileAll(ctx);
  if (!hasErrors(compiled.diagnostics)) return compiled;
  report(ctx.io, ctx.global.format, compiled.diagnostics, ctx.root, aside);
  return { exit: exitCodeFor(compiled.diagnostics) };
}

/** Only the commands that write a single place need this: exactly one generator. */
export function single(results: readonly CompileResult[], what: string): { result?: CompileResult; diagnostics: Diagnostic[] } {
  if (results.length === 1) return { result: results[0]!, diagnostics: [] };
  return { diagnostics: [diag('IT1009', `${what} works on one generator at a time; pass -g generators/<name>.yaml (found ${results.length})`)] };
}

/** Prints text without doubling its final newline (io.out adds one). */
export function writeText(io: Io, text: string): void {
  io.out(text.endsWith('\n') ? text.slice(0, -1) : text);
}

/**
 * For commands over manifest files (expand, validate FILE): the files named (`inputs`), and the
 * objects they may reference: the project's generated objects (when it has generators, or -g)
 * and the `--with` files. `problems` are what loading them found, --strict applied; `blocking` when
 * the project or a --with file has errors (an input file with errors blocks nothing).
 */
export function loadManifestInputs(
  ctx: CommandContext,
  inputs: readonly string[],
  withFiles: readonly string[],
): { docs: SourceDoc[]; store: ObjectStore; problems: Diagnostic[]; blocking: boolean } {
  const { io, global, root } = ctx;
  const stdin = (): string => (io.stdin ? io.stdin() : '');
  const useProject = global.generators.length > 0 || existsSync(path.join(root, 'generators'));
  const compiled = useProject ? compileAll(ctx) : { results: [], diagnostics: [] };
  const extra = loadManifests(root, withFiles, stdin, io.cwd);
  const input = loadManifests(root, inputs, stdin, io.cwd);
  const objects: JsonObject[] = [
    // The rendered manifests themselves: no need to serialize and parse them back.
    ...compiled.results.flatMap((r) => r.objects.map((o) => o.manifest as unknown as JsonObject)),
    ...extra.docs.flatMap((d) => (d.value !== null && typeof d.value === 'object' ? [d.value as JsonObject] : [])),
  ];
  const problems = strictify([...compiled.diagnostics, ...extra.diagnostics, ...input.diagnostics], global.strict);
  return {
    docs: input.docs,
    store: objectStore(objects),
    problems,
    // What the inputs may reference is unsound: judging them would only add errors that follow from
    // it. An unreadable input document is not: every other one is still judged.
    blocking: hasErrors(strictify([...compiled.diagnostics, ...extra.diagnostics], global.strict)),
  };
}

/** `validated 2 generators (default: 35 objects, acme: 208 objects), 3 warnings`: what a silent success checked. */
export function checkedSummary(what: string, results: readonly CompileResult[], diagnostics: readonly Diagnostic[]): string {
  const each = results.flatMap((r) => (r.generator ? [`${r.generator.name}: ${r.objects.length} objects in ${r.generator.outputDir}`] : []));
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  return `${what} ${each.length} generator${each.length === 1 ? '' : 's'} (${each.join('; ')}), ${warnings} warning${warnings === 1 ? '' : 's'}`;
}

/**
 * The KubeVirt CR that `--kubevirt FILE` names (the operator's file, read wherever it is; `-` is
 * standard input): its configuration, none without the option, and what reading it found.
 */
export function kubevirtOption(ctx: CommandContext): { config?: ClusterDefaults; diagnostics: Diagnostic[] } {
  const file = optionValue(ctx.line, '--kubevirt');
  if (file === undefined) return { diagnostics: [] };
  const read = loadManifests(ctx.root, [file], () => (ctx.io.stdin ? ctx.io.stdin() : ''), ctx.io.cwd);
  if (hasErrors(read.diagnostics)) return { diagnostics: read.diagnostics };
  return kubevirtFromDocuments(read.docs, file);
}

/** The objects of files the operator names (`--with`), a `List`'s items one by one, and what reading them found. */
export function objectsOfFiles(ctx: CommandContext, files: readonly string[]): { objects: JsonObject[]; diagnostics: Diagnostic[] } {
  const read = loadManifests(ctx.root, files, () => (ctx.io.stdin ? ctx.io.stdin() : ''), ctx.io.cwd);
  return { objects: manifestObjects(read.docs).map((f) => f.value), diagnostics: read.diagnostics };
}

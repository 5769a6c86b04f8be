import { diag, hasErrors, type Diagnostic } from '../diagnostics';
import { readProjectFile, STDIN_NAME } from '../load/files';
import type { CompileResult } from '../pipeline';
import type { Report } from '../workflows/report';
import type { CommandLine, CommandSpec, GlobalOptions } from './parse';
import { baseRevision, bundlesDirectory, openProject, type Project, type ProjectInputs } from '../project';
import { optionValue, optionValues } from './parse';
import { formatGithub, formatGitlab, formatJson, formatText, summary, type OutputFormat } from '../format';

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

/** A command: its declaration (src/commands) and what it runs. */
export interface Command extends CommandSpec {
  readonly run: (ctx: CommandContext) => number;
}

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
  // What a person or a CI log reads is bounded (a VM with a hundred thousand disks has as many
  // findings): the first ones, then how many more; the JSON and Code Quality documents hold all.
  const shown = diagnostics.length > MAX_SHOWN ? diagnostics.slice(0, MAX_SHOWN) : diagnostics;
  const more =
    diagnostics.length > MAX_SHOWN
      ? `... and ${diagnostics.length - MAX_SHOWN} more not shown (the first ${MAX_SHOWN} are above; --format json lists every one)`
      : undefined;
  if (format === 'github') {
    (io.workflow ?? io.out)(formatGithub(shown));
    if (more !== undefined) io.err(more);
    return;
  }
  const cache = new Map<string, string[] | undefined>();
  const lines = (file: string): string[] | undefined => {
    if (file === STDIN_NAME) return undefined; // standard input is gone: never a project file of that name
    if (!cache.has(file)) {
      // The same guard as loading: nothing outside the project is ever quoted, no FIFO is opened.
      const read = readProjectFile(root, file);
      cache.set(file, 'bytes' in read ? read.bytes.toString('utf8').split(/\r?\n/) : undefined);
    }
    return cache.get(file);
  };
  io.err(formatText(shown, lines, io.color));
  if (more !== undefined) io.err(more);
  io.err(summary(diagnostics));
}

/** The most diagnostics text and GitHub annotations print. */
const MAX_SHOWN = 1000;

export function exitCodeFor(diagnostics: readonly Diagnostic[]): number {
  if (diagnostics.some((d) => d.code.startsWith('IT9'))) return EXIT_INTERNAL;
  return hasErrors(diagnostics) ? EXIT_USER : EXIT_OK;
}

/**
 * A workflow's report rendered: `text` (its data, rendered by the command) on stdout, then the
 * diagnostics in the chosen format (to stderr when stdout holds the data: `aside`); the exit code is
 * theirs.
 */
export function finish(ctx: CommandContext, result: Report, text: string | undefined, aside = true): number {
  if (text !== undefined && text !== '') writeText(ctx.io, text);
  report(ctx.io, ctx.global.format, result.diagnostics, ctx.root, aside);
  return exitCodeFor(result.diagnostics);
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

/** The `-o` format given, or the option's default. */
export function outputOf<F extends string>(ctx: CommandContext, option: { readonly formats: readonly F[] }): F {
  return (optionValue(ctx.line, '--output') as F | undefined) ?? option.formats[0]!;
}

/** The run's project: the root, the generators named, --strict, and the shared options the command line holds. */
export function projectOf(ctx: CommandContext, extra: Partial<ProjectInputs> = {}): Project {
  const { io, line, global, root } = ctx;
  const kubevirt = optionValue(line, '--kubevirt');
  const policies = optionValues(line, '--policies');
  const kubevirtVersion = optionValue(line, '--kubevirt-version');
  const base = optionValue(line, '--base');
  const bundles = optionValue(line, '--bundles');
  return openProject({
    root,
    cwd: io.cwd,
    stdin: () => (io.stdin ? io.stdin() : ''),
    generators: global.generators,
    strict: global.strict,
    with: optionValues(line, '--with'),
    ...(kubevirt !== undefined ? { kubevirt } : {}),
    ...(policies.length > 0 ? { policies } : {}),
    ...(kubevirtVersion !== undefined ? { kubevirtVersion } : {}),
    ...(base !== undefined ? { base: baseRevision(root, base) } : {}),
    ...(bundles !== undefined ? { bundles: bundlesDirectory(io.cwd, bundles) } : {}),
    ...extra,
  });
}

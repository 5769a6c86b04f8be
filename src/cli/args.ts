import { RELEASE_VERSION } from '../schema/common';
import type { OutputFormat } from './format';

export const COMMANDS = ['generate', 'validate', 'check', 'diff', 'docs', 'release', 'bundle', 'fn', 'explain', 'schema', 'help'] as const;
export type Command = (typeof COMMANDS)[number];

export const SCHEMAS = ['catalog', 'generator', 'lock'] as const;
export type SchemaName = (typeof SCHEMAS)[number];

export interface ParsedArgs {
  readonly command: Command;
  readonly generators: string[];
  readonly format: OutputFormat;
  readonly strict: boolean;
  readonly root: string | undefined;
  readonly name: string | undefined;
  readonly kind: string | undefined;
  readonly against: string | undefined;
  readonly version: string | undefined;
  readonly out: string | undefined;
  readonly exitCode: boolean;
  readonly schema: SchemaName;
}

export const USAGE = `usage: itgen <command> [options]

commands:
  generate           validate every generator, then write its kustomize base and README (atomically)
  validate           run every check, write nothing
  check              exit 1 when the committed output differs from what the catalogs generate
  diff               objects added, removed and changed (by kind, name and field) between the
                     committed output (or --against GIT_REF or BUNDLE.yaml) and the catalogs
  docs               rewrite only output/<generator>/README.md
  release            record the current objects in the release lock (--version vX.Y.Z)
  bundle             write release bundles and CHECKSUMS.sha256 (--version vX.Y.Z --out DIR)
  fn                 KRM function: ResourceList on stdin (functionConfig: a generator), one on stdout
  explain NAME       print the resolved object with the source of every field
  schema [catalog|generator|lock]
                     print the JSON Schema of catalog documents, generator files or release locks
  help               this text

options:
  -g, --generator FILE   generator to use (repeatable); default generators/*.yaml
  --format text|json|github
                         diagnostics as compiler text (default), JSON, or GitHub annotations
  --strict               treat warnings as errors
  --kind KIND            with explain: only this kind
  --against REF|FILE     with diff: a Git revision, or a bundle or other YAML file of objects
  --exit-code            with diff: exit 1 when there are differences
  --version vX.Y.Z       with release and bundle: the release version
  --out DIR              with bundle: where to write the bundles
  -C, --root DIR         project directory (default: the current directory)

exit codes: 0 ok (warnings allowed), 1 errors in the input (or differences, for check), 2 internal failure`;

interface MutableArgs {
  command: Command;
  generators: string[];
  format: OutputFormat;
  strict: boolean;
  root: string | undefined;
  name: string | undefined;
  kind: string | undefined;
  against: string | undefined;
  version: string | undefined;
  out: string | undefined;
  exitCode: boolean;
  schema: SchemaName;
}

function base(command: Command): MutableArgs {
  return {
    command,
    generators: [],
    format: 'text',
    strict: false,
    root: undefined,
    name: undefined,
    kind: undefined,
    against: undefined,
    version: undefined,
    out: undefined,
    exitCode: false,
    schema: 'catalog',
  };
}


/** Options that take a value: what follows them is not the command. */
const VALUE_OPTIONS: ReadonlySet<string> = new Set(['-g', '--generator', '--format', '--kind', '--against', '--version', '--out', '-C', '--root']);

/** Index of the command word: the first argument that is neither an option nor an option's value. */
function commandIndex(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-h' || a === '--help') return -1;
    if (!a.startsWith('-')) return i;
    if (VALUE_OPTIONS.has(a)) i++;
  }
  return -1;
}

/** Options may come before the command (`itgen -C dir validate`, as with git) or after it. */
export function parseArgs(argv: readonly string[]): ParsedArgs | { error: string } {
  const at = commandIndex(argv);
  const rest = at < 0 ? [...argv] : [argv[at]!, ...argv.slice(0, at), ...argv.slice(at + 1)];
  if (at < 0 && argv.length > 0 && !argv.includes('-h') && !argv.includes('--help')) return { error: 'no command given' };
  const first = at < 0 ? undefined : rest.shift();
  if (first === undefined || first === '-h' || first === '--help') return base('help');
  if (!(COMMANDS as readonly string[]).includes(first)) return { error: `unknown command \`${first}\`` };
  const args = base(first as Command);
  const positional: string[] = [];
  while (rest.length > 0) {
    const a = rest.shift()!;
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = (): string | undefined => inline ?? rest.shift();
    switch (flag) {
      case '-g':
      case '--generator': {
        const v = value();
        if (!v) return { error: `${flag} needs a file` };
        args.generators.push(v);
        break;
      }
      case '--format': {
        const v = value();
        if (v !== 'text' && v !== 'json' && v !== 'github') return { error: '--format is text, json or github' };
        args.format = v;
        break;
      }
      case '--strict':
        args.strict = true;
        break;
      case '--exit-code':
        args.exitCode = true;
        break;
      case '--kind': {
        const v = value();
        if (!v) return { error: '--kind needs a kind' };
        args.kind = v;
        break;
      }
      case '--against': {
        const v = value();
        if (!v) return { error: '--against needs a Git revision or a YAML file' };
        args.against = v;
        break;
      }
      case '--version': {
        const v = value();
        if (!v || !RELEASE_VERSION.test(v)) return { error: '--version needs a release version like v1.2.0' };
        args.version = v;
        break;
      }
      case '--out': {
        const v = value();
        if (!v) return { error: '--out needs a directory' };
        args.out = v;
        break;
      }
      case '-C':
      case '--root': {
        const v = value();
        if (!v) return { error: `${flag} needs a directory` };
        args.root = v;
        break;
      }
      case '-h':
      case '--help':
        return base('help');
      default:
        if (a.startsWith('-')) return { error: `unknown option \`${a}\`` };
        positional.push(a);
    }
  }
  if (args.command === 'explain') {
    if (positional.length !== 1) return { error: 'explain needs exactly one object name' };
    args.name = positional[0];
  } else if (args.command === 'schema' && positional.length > 0) {
    const s = positional[0]!;
    if (!(SCHEMAS as readonly string[]).includes(s) || positional.length > 1) return { error: `schema takes one of ${SCHEMAS.join(', ')}` };
    args.schema = s as SchemaName;
  } else if (positional.length > 0) {
    return { error: `unexpected argument \`${positional[0]}\`` };
  }
  if ((args.command === 'release' || args.command === 'bundle') && args.version === undefined) return { error: `${args.command} needs --version vX.Y.Z` };
  if (args.command === 'bundle' && args.out === undefined) return { error: 'bundle needs --out DIR' };
  return args;
}

import type { OutputFormat } from './format';

export const COMMANDS = ['generate', 'validate', 'check', 'explain', 'schema', 'help'] as const;
export type Command = (typeof COMMANDS)[number];

export interface ParsedArgs {
  readonly command: Command;
  readonly generators: string[];
  readonly format: OutputFormat;
  readonly strict: boolean;
  readonly root: string | undefined;
  readonly name: string | undefined;
  readonly kind: string | undefined;
}

export const USAGE = `usage: itgen <command> [options]

commands:
  generate           validate every generator, then write its kustomize base (atomically)
  validate           run every check, write nothing
  check              exit 1 when the committed output differs from what the catalogs generate
  explain NAME       print the resolved object with the source of every field
  schema             print the JSON Schema of catalog documents
  help               this text

options:
  -g, --generator FILE   generator to use (repeatable); default generators/*.yaml
  --format text|json|github
                         diagnostics as compiler text (default), JSON, or GitHub annotations
  --strict               treat warnings as errors
  --kind KIND            with explain: only this kind
  -C, --root DIR         project directory (default: the current directory)

exit codes: 0 ok (warnings allowed), 1 errors in the input, 2 internal failure`;

export function parseArgs(argv: readonly string[]): ParsedArgs | { error: string } {
  const rest = [...argv];
  const first = rest.shift();
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
      case '--kind': {
        const v = value();
        if (!v) return { error: '--kind needs a kind' };
        args.kind = v;
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
  } else if (positional.length > 0) {
    return { error: `unexpected argument \`${positional[0]}\`` };
  }
  return args;
}

interface MutableArgs {
  command: Command;
  generators: string[];
  format: OutputFormat;
  strict: boolean;
  root: string | undefined;
  name: string | undefined;
  kind: string | undefined;
}

function base(command: Command): MutableArgs {
  return { command, generators: [], format: 'text', strict: false, root: undefined, name: undefined, kind: undefined };
}

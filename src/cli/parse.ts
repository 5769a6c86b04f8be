import type { OutputFormat } from '../format';

/**
 * One command-line option. A `value` (its placeholder in the usage text) makes it take an argument;
 * without one it is a switch. `check` returns an error message for a value it refuses.
 */
export interface OptionSpec {
  readonly flag: `--${string}`;
  readonly short?: `-${string}`;
  readonly value?: string;
  readonly repeatable?: boolean;
  readonly help: string;
  readonly check?: (value: string) => string | undefined;
}

/** What every command accepts, before or after the command word (`itgen -C dir validate`, as with git). */
export interface GlobalOptions {
  readonly generators: readonly string[];
  readonly format: OutputFormat;
  readonly strict: boolean;
  readonly root: string | undefined;
}

export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { flag: '--generator', short: '-g', value: 'FILE', repeatable: true, help: 'generator to use (repeatable); default generators/*.yaml' },
  {
    flag: '--format',
    value: 'text|json|github|gitlab',
    help: 'diagnostics as compiler text (default), JSON, GitHub annotations, or a GitLab Code Quality report',
    check: (v) => (v === 'text' || v === 'json' || v === 'github' || v === 'gitlab' ? undefined : '--format is text, json, github or gitlab'),
  },
  { flag: '--strict', help: 'treat warnings as errors' },
  { flag: '--root', short: '-C', value: 'DIR', help: 'project directory (default: the current directory)' },
];

/** The command-line words after the command's own options were taken out. */
export interface CommandLine {
  readonly global: GlobalOptions;
  readonly positionals: readonly string[];
  /** The command's own options by flag: every value given, or `[]` for a switch that was set. */
  readonly options: ReadonlyMap<string, readonly string[]>;
}

/** The value of a command option given once (the last one wins), or undefined. */
export function optionValue(line: CommandLine, flag: string): string | undefined {
  const values = line.options.get(flag);
  return values === undefined ? undefined : values[values.length - 1];
}

export function optionValues(line: CommandLine, flag: string): readonly string[] {
  return line.options.get(flag) ?? [];
}

export function optionSet(line: CommandLine, flag: string): boolean {
  return line.options.has(flag);
}

export type Parsed<C> =
  | { readonly command: C; readonly line: CommandLine }
  | { readonly help: true; readonly topic?: string }
  /** `command` when the error is about one command's options or arguments (its usage helps most). */
  | { readonly error: string; readonly command?: C };

/** What the parser needs to know of a command: its name and options, and how many positionals it takes. */
export interface CommandShape {
  readonly name: string;
  readonly options: readonly OptionSpec[];
  /** Checks the positionals (and option combinations); an error message, or undefined. */
  readonly accept?: (line: CommandLine) => string | undefined;
}

function findOption(specs: readonly OptionSpec[], word: string): OptionSpec | undefined {
  return specs.find((s) => s.flag === word || s.short === word);
}

/** Index of the command word: the first argument that is neither an option nor an option's value. */
function commandIndex(argv: readonly string[], all: readonly OptionSpec[]): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-h' || a === '--help') return -1;
    if (!a.startsWith('-')) return i;
    if (!a.includes('=') && findOption(all, a)?.value !== undefined) i++;
  }
  return -1;
}

/**
 * Splits argv into the command, the global options and the command's own options and positionals.
 * Options may come before the command word or after it; `--flag=value` and `--flag value` both work.
 */
export function parseCommandLine<C extends CommandShape>(argv: readonly string[], commands: readonly C[]): Parsed<C> {
  const everyOption = [...GLOBAL_OPTIONS, ...commands.flatMap((c) => c.options)];
  const at = commandIndex(argv, everyOption);
  if (at < 0) {
    if (argv.length === 0 || argv.includes('-h') || argv.includes('--help')) return { help: true };
    return { error: 'no command given' };
  }
  const word = argv[at]!;
  const command = commands.find((c) => c.name === word);
  if (!command) return { error: `unknown command \`${word}\`` };
  const specs = [...GLOBAL_OPTIONS, ...command.options];
  const rest = [...argv.slice(0, at), ...argv.slice(at + 1)];
  const values = new Map<string, string[]>();
  const positionals: string[] = [];
  while (rest.length > 0) {
    const a = rest.shift()!;
    if (a === '-h' || a === '--help') return { help: true, topic: command.name };
    if (a === '--') {
      positionals.push(...rest.splice(0));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      positionals.push(a);
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const word = eq < 0 ? a : a.slice(0, eq);
    const spec = findOption(specs, word);
    if (!spec) return { error: `unknown option \`${a}\`${command.name === 'help' ? '' : ` for ${command.name}`}`, command };
    const seen = values.get(spec.flag) ?? [];
    if (spec.value === undefined) {
      if (eq >= 0) return { error: `${spec.flag} takes no value`, command };
      values.set(spec.flag, seen);
      continue;
    }
    const value = eq >= 0 ? a.slice(eq + 1) : rest.shift();
    if (value === undefined || value === '') return { error: `${word} needs ${spec.value}`, command };
    const refused = spec.check?.(value);
    if (refused !== undefined) return { error: refused, command };
    if (seen.length > 0 && !spec.repeatable) seen.length = 0;
    seen.push(value);
    values.set(spec.flag, seen);
  }
  const format = values.get('--format');
  const global: GlobalOptions = {
    generators: values.get('--generator') ?? [],
    format: (format?.[format.length - 1] ?? 'text') as OutputFormat,
    strict: values.has('--strict'),
    root: values.get('--root')?.at(-1),
  };
  for (const g of GLOBAL_OPTIONS) values.delete(g.flag);
  const line: CommandLine = { global, positionals, options: values };
  const refused = command.accept?.(line);
  if (refused !== undefined) return { error: refused, command };
  return { command, line };
}

/** `  --flag, -f VALUE    help`, aligned: the options part of a usage text. */
export function describeOptions(specs: readonly OptionSpec[]): string {
  const left = specs.map((s) => `${s.short ? `${s.short}, ` : ''}${s.flag}${s.value ? ` ${s.value}` : ''}`);
  const width = Math.max(...left.map((l) => l.length)) + 3;
  return specs.map((s, i) => `  ${left[i]!.padEnd(width)}${s.help}`).join('\n');
}

/** A command as declared: its name, usage, options and what its arguments must be. `itgen help` and docs/commands.md are made from these. */
export interface CommandSpec extends CommandShape {
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
}

/** Accepts no positional argument. */
export function noPositionals(line: CommandLine): string | undefined {
  return line.positionals.length > 0 ? `unexpected argument \`${line.positionals[0]}\`` : undefined;
}

// The options several commands take, declared once.

export const BASE_OPTION = {
  flag: '--base',
  value: 'REF',
  help: "the revision the change is made on (origin/main in CI): the release lock may add the next release, never rewrite what REF's lock published",
} as const satisfies OptionSpec;

export const BUNDLES_OPTION = {
  flag: '--bundles',
  value: 'DIR',
  help: 'published release bundles with their CHECKSUMS.sha256 (itgen bundle --out DIR): the release lock must agree with what they shipped',
} as const satisfies OptionSpec;

export const WITH_OPTION = {
  flag: '--with',
  value: 'FILE|DIR',
  repeatable: true,
  help: 'instance types and preferences (a release bundle, kubectl get ... -o yaml) and the objects VMs refer to; without generators/, the catalog',
} as const satisfies OptionSpec;

export const KUBEVIRT_OPTION = {
  flag: '--kubevirt',
  value: 'FILE',
  help: "the cluster's KubeVirt CR (kubectl get kubevirt -n kubevirt kubevirt -o yaml); default KubeVirt's defaults",
} as const satisfies OptionSpec;

export const NAMESPACE_OPTION = {
  flag: '--namespace',
  short: '-n',
  value: 'NS',
  help: 'the namespace of VMs that name none (default: default)',
} as const satisfies OptionSpec;

export const VMS_OPTION = {
  flag: '--vms',
  value: 'DIR',
  repeatable: true,
  help: 'VirtualMachines kept in Git: every one judged against the catalogs, and what the change does to them',
} as const satisfies OptionSpec;

/** `-o` with its formats; the first is the default. */
export function outputOption<const F extends string>(formats: readonly F[], help?: string): OptionSpec & { readonly formats: readonly F[] } {
  const words = formats.length === 2 ? `${formats[0]} or ${formats[1]}` : `${formats.slice(0, -1).join(', ')} or ${formats[formats.length - 1]}`;
  return {
    flag: '--output',
    short: '-o',
    value: formats.join('|'),
    help: help ?? `${formats[0]} (default)${formats.length > 1 ? `, ${formats.slice(1).join(', ')}` : ''}`,
    check: (v) => ((formats as readonly string[]).includes(v) ? undefined : `-o is ${words}`),
    formats,
  };
}

export const POLICIES_OPTION = {
  flag: '--policies',
  value: 'FILE',
  repeatable: true,
  help: "the platform's admission policies (ValidatingAdmissionPolicies, bindings, parameters): applied to the VMs as kube-apiserver would",
} as const satisfies OptionSpec;

export const KUBEVIRT_VERSION_OPTION = {
  flag: '--kubevirt-version',
  value: 'vX.Y[.Z]',
  help: "the KubeVirt release the cluster runs (default: the KubeVirt CR's status.observedKubeVirtVersion, else v1.9.0): answers as that release does",
  check: (v: string) => (/^v\d+\.\d+(\.\d+)?$/.test(v) ? undefined : '--kubevirt-version is a KubeVirt release like v1.8.4, or a minor release like v1.8'),
} as const satisfies OptionSpec;

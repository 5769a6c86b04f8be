/**
 * The options several commands take, declared once, and how a command line becomes the run's
 * project (src/project): the same `--with`, `--kubevirt`, `--base` and `--bundles` everywhere.
 */
import { baseRevision, bundlesDirectory, openProject, type Project, type ProjectInputs } from '../project';
import type { OptionSpec } from './args';
import { optionValue, optionValues } from './args';
import type { CommandContext } from './command';

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

/** The `-o` format given, or the option's default. */
export function outputOf<F extends string>(ctx: CommandContext, option: { readonly formats: readonly F[] }): F {
  return (optionValue(ctx.line, '--output') as F | undefined) ?? option.formats[0]!;
}

/** The run's project: the root, the generators named, --strict, and the shared options the command line holds. */
export function projectOf(ctx: CommandContext, extra: Partial<ProjectInputs> = {}): Project {
  const { io, line, global, root } = ctx;
  const kubevirt = optionValue(line, '--kubevirt');
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
    ...(base !== undefined ? { base: baseRevision(root, base) } : {}),
    ...(bundles !== undefined ? { bundles: bundlesDirectory(io.cwd, bundles) } : {}),
    ...extra,
  });
}

/**
 * Mutation testing of validation: copy the default catalog into a scratch project, break it in one
 * way, and check that compiling rejects it with the expected code at a place inside the file that
 * was broken. Used by test/mutation.test.ts and by `node bench/mutation-report.mjs`.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Diagnostic, DiagnosticCode } from '../src/diagnostics';
import { compile } from '../src/pipeline';

const REPO = path.resolve(__dirname, '..');

/** One textual edit: replace `find` (exactly once, after `after` when given), or append. */
export interface Edit {
  /** Path in the scratch project: `catalog/...` or `generators/default.yaml`. */
  readonly file: string;
  readonly find?: string;
  readonly replace?: string;
  readonly after?: string;
  readonly append?: string;
}

export interface Mutation {
  readonly id: string;
  readonly what: string;
  readonly edits: readonly Edit[];
  readonly expect: DiagnosticCode;
}

const F = 'catalog/families.yaml';
const S = 'catalog/sizes.yaml';
const C = 'catalog/catalog.yaml';
const FR = 'catalog/fragments.yaml';
const L = 'catalog/preferences/linux.yaml';
const W = 'catalog/preferences/windows.yaml';
const G = 'generators/default.yaml';

const r = (file: string, find: string, replace: string, after?: string): Edit => ({ file, find, replace, ...(after !== undefined ? { after } : {}) });
/** Insert text right after an anchor. */
const ins = (file: string, anchor: string, text: string, after?: string): Edit => r(file, anchor, anchor + text, after);
const add = (file: string, append: string): Edit => ({ file, append });

export const MUTATIONS: readonly Mutation[] = [
  // size ladder
  { id: 'ladder-drop-cpu', what: 'drop a required field (size vCPUs)', edits: [r(S, '  - name: small\n    cpu: 2\n', '  - name: small\n')], expect: 'IT1204' },
  { id: 'ladder-negative-cpu', what: 'negative vCPU count', edits: [r(S, 'cpu: 4', 'cpu: -4')], expect: 'IT1203' },
  { id: 'ladder-zero-cpu', what: 'a size with 0 vCPUs', edits: [r(S, 'cpu: 8', 'cpu: 0')], expect: 'IT4012' },
  { id: 'ladder-order', what: 'break the size ladder order', edits: [r(S, 'cpu: 16', 'cpu: 6')], expect: 'IT5001' },
  { id: 'ladder-fraction', what: 'fractional vCPUs', edits: [r(S, 'cpu: 2\n', 'cpu: 2.5\n')], expect: 'IT1203' },
  { id: 'ladder-huge', what: 'a huge number of vCPUs', edits: [r(S, 'cpu: 16', 'cpu: 99999999999999999999')], expect: 'IT1203' },
  { id: 'ladder-size-uppercase', what: 'uppercase size name', edits: [r(S, 'name: xlarge', 'name: XLarge')], expect: 'IT1206' },
  { id: 'ladder-misspelt-key', what: 'misspell a key (sizes)', edits: [r(S, 'sizes:', 'size:')], expect: 'IT1202' },
  { id: 'ladder-duplicate-key', what: 'duplicate key in a mapping', edits: [ins(S, 'cpu: 1\n', '    cpu: 3\n')], expect: 'IT1003' },
  { id: 'ladder-yaml-syntax', what: 'broken YAML', edits: [r(S, '  - name: medium', '  - name: [medium')], expect: 'IT1002' },
  // catalog
  { id: 'catalog-misspelt-kind', what: 'misspell a document kind', edits: [r(C, 'kind: Catalog', 'kind: Catalogue')], expect: 'IT1201' },
  {
    id: 'catalog-pattern-placeholder',
    what: 'unknown placeholder in a name pattern',
    edits: [r(C, '"{family}.{size}"', '"{family}.{sizes}"')],
    expect: 'IT2011',
  },
  {
    id: 'catalog-pattern-invalid-names',
    what: 'name pattern producing invalid names',
    edits: [r(C, '"{family}.{size}"', '"{family}_{size}"')],
    expect: 'IT2011',
  },
  {
    id: 'catalog-architecture',
    what: 'misspelt enum value (architecture)',
    edits: [r(C, 'defaultArchitecture: amd64', 'defaultArchitecture: amd46')],
    expect: 'IT1203',
  },
  { id: 'catalog-naming-key', what: 'misspell a nested key', edits: [r(C, '  instancetype: "', '  instancetypes: "')], expect: 'IT1202' },
  // families
  { id: 'family-drop-ratio', what: 'drop a required field (memoryPerCPU)', edits: [r(F, 'memoryPerCPU: 2Gi\n', '')], expect: 'IT1204' },
  { id: 'family-bad-quantity', what: 'bad quantity', edits: [r(F, 'memoryPerCPU: 8Gi', 'memoryPerCPU: 8GB')], expect: 'IT1205' },
  { id: 'family-milli-quantity', what: 'quantity that is not whole bytes', edits: [r(F, 'memoryPerCPU: 8Gi', 'memoryPerCPU: 512m')], expect: 'IT1205' },
  { id: 'family-unknown-fragment', what: 'unknown fragment', edits: [r(F, 'include: [gpu]', 'include: [gpus]')], expect: 'IT2002' },
  {
    id: 'family-misspelt-spec-key',
    what: 'misspelt spec key',
    edits: [ins(F, 'memoryPerCPU: 4Gi\n', 'spec:\n  cpu:\n    dedicatedCPUPlacment: true\n', 'name: m\n')],
    expect: 'IT1202',
  },
  {
    id: 'family-overcommit-hugepages',
    what: 'overcommit together with hugepages',
    edits: [ins(F, 'memoryPerCPU: 8Gi\n', 'spec:\n  memory:\n    overcommitPercent: 10\n    hugepages:\n      pageSize: 2Mi\n')],
    expect: 'IT4002',
  },
  {
    id: 'family-overcommit-range',
    what: 'overcommitPercent over 100',
    edits: [ins(F, 'memoryPerCPU: 8Gi\n', 'spec:\n  memory:\n    overcommitPercent: 101\n')],
    expect: 'IT4001',
  },
  {
    id: 'family-isolate',
    what: 'isolateEmulatorThread without dedicated CPUs',
    edits: [ins(F, 'memoryPerCPU: 2Gi\n', 'spec:\n  cpu:\n    isolateEmulatorThread: true\n')],
    expect: 'IT4007',
  },
  {
    id: 'family-numa',
    what: 'NUMA passthrough without dedicated CPUs and hugepages',
    edits: [ins(F, 'memoryPerCPU: 2Gi\n', 'spec:\n  cpu:\n    numa:\n      guestMappingPassthrough: {}\n')],
    expect: 'IT4006',
  },
  {
    id: 'family-hugepage-alignment',
    what: 'guest memory not a multiple of the hugepage size',
    edits: [r(F, 'memoryPerCPU: 2Gi\n', 'memoryPerCPU: 1536Mi\nspec:\n  memory:\n    hugepages:\n      pageSize: 1Gi\n')],
    expect: 'IT4005',
  },
  {
    id: 'family-hugepage-size',
    what: 'hugepage size no architecture has',
    edits: [ins(F, 'memoryPerCPU: 2Gi\n', 'spec:\n  memory:\n    hugepages:\n      pageSize: 3Mi\n')],
    expect: 'IT4016',
  },
  {
    id: 'family-max-sockets',
    what: 'maxSockets below the vCPUs',
    edits: [ins(F, 'memoryPerCPU: 2Gi\n', 'spec:\n  cpu:\n    maxSockets: 2\n')],
    expect: 'IT4009',
  },
  {
    id: 'family-max-guest',
    what: 'memory hotplug ceiling below guest memory',
    edits: [ins(F, 'memoryPerCPU: 2Gi\n', 'spec:\n  memory:\n    maxGuest: 4Gi\n')],
    expect: 'IT4013',
  },
  { id: 'family-duplicate', what: 'duplicate family name', edits: [r(F, 'name: r\n', 'name: m\n')], expect: 'IT2007' },
  { id: 'family-name-uppercase', what: 'uppercase family name', edits: [r(F, 'name: g\n', 'name: G\n')], expect: 'IT1206' },
  { id: 'family-class', what: 'invalid class label value', edits: [r(F, 'class: general.purpose', 'class: General Purpose')], expect: 'IT1203' },
  {
    id: 'family-size-not-offered',
    what: 'offer a size the ladder does not have',
    edits: [ins(F, 'memoryPerCPU: 2Gi\n', 'sizes: [small, huge]\n')],
    expect: 'IT2005',
  },
  {
    id: 'family-override-unknown-size',
    what: 'override for a size not offered',
    edits: [ins(F, 'memoryPerCPU: 2Gi\n', 'overrides:\n  xxlarge:\n    memory: 64Gi\n')],
    expect: 'IT2005',
  },
  {
    id: 'family-override-shrinks',
    what: 'override making a bigger size smaller',
    edits: [ins(F, 'memoryPerCPU: 2Gi\n', 'overrides:\n  large:\n    memory: 1Gi\n')],
    expect: 'IT5001',
  },
  {
    id: 'family-template-typo',
    what: 'unknown variable in a description',
    edits: [r(F, 'The C family is for', 'The {{familly}} family is for')],
    expect: 'IT2009',
  },
  {
    id: 'family-template-proto',
    what: 'Handlebars reaching for constructor',
    edits: [r(F, 'displayName: Compute', 'displayName: "{{constructor}}"')],
    expect: 'IT2009',
  },
  {
    id: 'family-template-lookup',
    what: 'Handlebars lookup helper',
    edits: [r(F, 'displayName: GPU', 'displayName: "{{lookup this \'__proto__\'}}"')],
    expect: 'IT2009',
  },
  {
    id: 'family-label-value',
    what: 'label value Kubernetes rejects',
    edits: [ins(F, 'memoryPerCPU: 2Gi\n', 'labels:\n  example.com/tier: top tier\n')],
    expect: 'IT3001',
  },
  { id: 'family-unknown-ladder', what: 'unknown size ladder', edits: [ins(F, 'memoryPerCPU: 2Gi\n', 'ladder: standrd\n')], expect: 'IT2010' },
  { id: 'family-wrong-type', what: 'wrong type (list for a string)', edits: [r(F, 'displayName: GPU', 'displayName: [GPU]')], expect: 'IT1203' },
  { id: 'family-icon', what: 'icon with a space', edits: [r(F, 'icon: fa-memory', 'icon: fa memory')], expect: 'IT1203' },
  {
    id: 'family-dedicated-threads',
    what: 'dedicated CPUs paired with a threads topology',
    edits: [
      ins(F, 'memoryPerCPU: 2Gi\n', 'spec:\n  cpu:\n    dedicatedCPUPlacement: true\n'),
      ins(L, 'vm.kubevirt.io/os: linux\n', '  cpu:\n    preferredCPUTopology: threads\n'),
    ],
    expect: 'IT4008',
  },
  // fragments
  {
    id: 'fragment-gpu-name',
    what: 'drop a required field (GPU name)',
    edits: [r(FR, '    - name: gpu1\n      deviceName', '    - deviceName')],
    expect: 'IT1204',
  },
  { id: 'fragment-disk-bus', what: 'misspelt enum value (disk bus)', edits: [r(FR, 'preferredDiskBus: sata', 'preferredDiskBus: stata')], expect: 'IT1203' },
  { id: 'fragment-tick-policy', what: 'misspelt timer tick policy', edits: [r(FR, 'tickPolicy: delay', 'tickPolicy: delayed')], expect: 'IT1203' },
  { id: 'fragment-negative-spinlocks', what: 'negative value in a uint32 field', edits: [r(FR, 'spinlocks: 8191', 'spinlocks: -1')], expect: 'IT1203' },
  { id: 'fragment-duplicate', what: 'duplicate fragment name', edits: [r(FR, 'name: tpm\n', 'name: hyperv\n')], expect: 'IT2007' },
  {
    id: 'fragment-conflict',
    what: 'two sources at one level disagree',
    edits: [ins(FR, '      persistent: true\n', '      secureBoot: false\n', 'name: efi-persistent')],
    expect: 'IT2004',
  },
  {
    id: 'fragment-alias-bomb',
    what: 'YAML alias bomb',
    edits: [
      add(
        FR,
        '---\nkind: PreferenceFragment\nname: bomb\nspec:\n  annotations:\n    a: &a [x,x,x,x,x,x,x,x,x,x]\n    b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n    c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n    d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n    e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n    f: [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\n',
      ),
    ],
    expect: 'IT1007',
  },
  { id: 'fragment-not-mapping', what: 'a document that is not a mapping', edits: [add(FR, '---\n- just\n- a list\n')], expect: 'IT1004' },
  { id: 'fragment-binary', what: 'binary bytes in a catalog file', edits: [add(FR, '\u0000\u0001\u0002')], expect: 'IT1006' },
  // Linux preferences
  {
    id: 'pref-unknown-base',
    what: 'unknown base preference',
    edits: [r(L, 'inherits: linux\ndisplayName: CirrOS', 'inherits: linx\ndisplayName: CirrOS')],
    expect: 'IT2001',
  },
  { id: 'pref-cycle', what: 'inheritance cycle', edits: [ins(L, 'name: linux\n', 'inherits: ubuntu\n')], expect: 'IT2003' },
  { id: 'pref-drop-display-name', what: 'drop a required field (displayName)', edits: [r(L, 'displayName: Ubuntu\n', '')], expect: 'IT1204' },
  { id: 'pref-display-name-reused', what: 'display name used twice', edits: [r(L, 'displayName: CentOS Stream 9', 'displayName: Fedora')], expect: 'IT5003' },
  {
    id: 'pref-duplicate-object',
    what: 'preference name colliding with an architecture variant',
    edits: [r(L, 'name: cirros\n', 'name: fedora.arm64\n')],
    expect: 'IT2006',
  },
  { id: 'pref-cdrom-virtio', what: 'CD-ROM on the virtio bus', edits: [ins(L, '    preferredRng: {}\n', '    preferredCdromBus: virtio\n')], expect: 'IT4011' },
  {
    id: 'pref-negative-requirement',
    what: 'negative required vCPUs',
    edits: [r(L, 'guest: 1\n    memory:\n      guest: 256Mi', 'guest: -1\n    memory:\n      guest: 256Mi')],
    expect: 'IT1203',
  },
  { id: 'pref-requirement-quantity', what: 'bad quantity in requirements', edits: [r(L, 'guest: 256Mi', 'guest: 256 MB')], expect: 'IT1205' },
  {
    id: 'pref-topology',
    what: 'unknown preferredCPUTopology',
    edits: [ins(L, 'vm.kubevirt.io/os: linux\n', '  cpu:\n    preferredCPUTopology: socket\n')],
    expect: 'IT4003',
  },
  {
    id: 'pref-spread-ratio-zero',
    what: 'spread ratio 0',
    edits: [ins(L, 'vm.kubevirt.io/os: linux\n', '  cpu:\n    preferredCPUTopology: spread\n    spreadOptions:\n      ratio: 0\n')],
    expect: 'IT4010',
  },
  {
    id: 'pref-spread-cores-threads',
    what: 'CoresThreads spread with ratio 3',
    edits: [ins(L, 'vm.kubevirt.io/os: linux\n', '  cpu:\n    preferredCPUTopology: spread\n    spreadOptions:\n      across: CoresThreads\n      ratio: 3\n')],
    expect: 'IT4004',
  },
  {
    id: 'pref-architecture',
    what: 'unknown architecture',
    edits: [r(L, 'architectures: [amd64, arm64]', 'architectures: [amd64, aarch64]', 'name: ubuntu\n')],
    expect: 'IT1203',
  },
  {
    id: 'pref-arch-override-key',
    what: 'unknown architecture override key',
    edits: [r(L, 'architectureOverrides:\n  amd64:', 'architectureOverrides:\n  amd46:', 'name: fedora\n')],
    expect: 'IT1202',
  },
  {
    id: 'pref-arch-fragment',
    what: 'unknown fragment in an architecture override',
    edits: [r(L, 'include: [efi-secureboot]', 'include: [efi-secure-boot]', 'name: rhel.10\n')],
    expect: 'IT2002',
  },
  {
    id: 'pref-video-arm64',
    what: 'video type the architecture lacks',
    edits: [ins(L, 'spec:\n', '  devices:\n    preferredVideoType: bochs\n', 'name: fedora\n')],
    expect: 'IT4014',
  },
  // Windows preferences
  {
    id: 'win-unknown-fragment',
    what: 'misspelt fragment name',
    edits: [r(W, 'include: [sata, tpm, hyperv,', 'include: [sata, tpm, hypervv,')],
    expect: 'IT2002',
  },
  {
    id: 'win-quoted-number',
    what: 'number written as a string',
    edits: [r(W, 'preferredTerminationGracePeriodSeconds: 3600', 'preferredTerminationGracePeriodSeconds: "3600"')],
    expect: 'IT1203',
  },
  { id: 'win-not-abstract', what: 'base without displayName made concrete', edits: [r(W, 'abstract: true\n', '')], expect: 'IT1204' },
  {
    id: 'win-interface-model',
    what: 'misspelt interface model',
    edits: [r(W, 'preferredInterfaceModel: e1000e', 'preferredInterfaceModel: e1000ee')],
    expect: 'IT1203',
  },
  { id: 'win-keyboard', what: 'keyboard input device', edits: [r(W, 'preferredInputType: tablet', 'preferredInputType: keyboard')], expect: 'IT4014' },
  { id: 'win-name-slash', what: 'name with a slash', edits: [r(W, 'name: windows.10\n', 'name: windows/10\n')], expect: 'IT1206' },
  { id: 'win-name-dotdot', what: 'name with ..', edits: [r(W, 'name: windows.11\n', 'name: ../windows.11\n')], expect: 'IT1206' },
  // generator
  { id: 'gen-target', what: 'unknown target KubeVirt release', edits: [r(G, 'targetKubevirt: v1.9', 'targetKubevirt: v3.0')], expect: 'IT6002' },
  {
    id: 'gen-output-outside',
    what: 'output directory outside the project',
    edits: [r(G, 'output: ../output/default', 'output: ../../../elsewhere')],
    expect: 'IT1009',
  },
  { id: 'gen-vendor', what: 'vendor that is not a domain-like name', edits: [r(G, 'vendor: itgen.dev', 'vendor: Itgen Dev')], expect: 'IT1203' },
];

export interface MutationResult {
  readonly mutation: Mutation;
  /** Rejected with the expected code, as an error, at a line inside a mutated file. */
  readonly ok: boolean;
  readonly found: Diagnostic | undefined;
  readonly codes: readonly string[];
  /** How many diagnostics the one mistake produced (errors and warnings). */
  readonly count: number;
  readonly problem: string | undefined;
  readonly ms: number;
}

/** A scratch project: the default catalog under catalog/, the default generator pointing at it. */
export function defaultProject(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-mutation-'));
  cpSync(path.join(REPO, 'catalogs', 'default'), path.join(dir, 'catalog'), { recursive: true });
  mkdirSync(path.join(dir, 'generators'));
  const gen = readFileSync(path.join(REPO, 'generators', 'default.yaml'), 'utf8').replace('catalog: ../catalogs/default', 'catalog: ../catalog');
  writeFileSync(path.join(dir, 'generators', 'default.yaml'), gen);
  return dir;
}

export function applyEdits(dir: string, edits: readonly Edit[]): void {
  for (const e of edits) {
    const abs = path.join(dir, e.file);
    let text = readFileSync(abs, 'utf8');
    if (e.append !== undefined) {
      text += e.append;
    } else {
      const from = e.after !== undefined ? text.indexOf(e.after) : 0;
      if (from < 0) throw new Error(`mutation anchor not found in ${e.file}: ${JSON.stringify(e.after)}`);
      const at = text.indexOf(e.find!, from);
      if (at < 0) throw new Error(`mutation text not found in ${e.file}: ${JSON.stringify(e.find)}`);
      if (e.after === undefined && text.indexOf(e.find!, at + 1) >= 0) throw new Error(`mutation text occurs twice in ${e.file}: ${JSON.stringify(e.find)}`);
      text = text.slice(0, at) + e.replace! + text.slice(at + e.find!.length);
    }
    writeFileSync(abs, text);
  }
}

export function runMutation(m: Mutation): MutationResult {
  const dir = defaultProject();
  const start = process.hrtime.bigint();
  try {
    applyEdits(dir, m.edits);
    const result = compile(dir, 'generators/default.yaml');
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const files = new Set(m.edits.map((e) => e.file));
    const lineCount = (file: string): number => readFileSync(path.join(dir, file), 'utf8').split('\n').length;
    const codes = [...new Set(result.diagnostics.map((d) => d.code))].sort();
    const matching = result.diagnostics.filter((d) => d.code === m.expect && d.severity === 'error');
    const found = matching.find((d) => d.location && files.has(d.location.file) && d.location.line >= 1 && d.location.line <= lineCount(d.location.file));
    let problem: string | undefined;
    if (matching.length === 0) problem = `no ${m.expect} error (got ${codes.join(', ') || 'nothing'})`;
    else if (!found)
      problem = `${m.expect} is not located in ${[...files].join(', ')} (at ${matching.map((d) => (d.location ? `${d.location.file}:${d.location.line}` : 'no location')).join(', ')})`;
    else if (result.files.length > 0) problem = 'output files were produced despite the error';
    return { mutation: m, ok: problem === undefined, found, codes, count: result.diagnostics.length, problem, ms };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function runMutations(mutations: readonly Mutation[] = MUTATIONS): MutationResult[] {
  return mutations.map(runMutation);
}

/** A fixed-width table: one line per mutation, then a summary. */
export function formatReport(results: readonly MutationResult[]): string {
  const rows = results.map((r) => [
    r.ok ? 'ok' : 'FAIL',
    r.mutation.id,
    r.mutation.expect,
    r.found?.location ? `${r.found.location.file}:${r.found.location.line}:${r.found.location.col}` : '-',
    String(r.count),
    r.ok ? r.mutation.what : `${r.mutation.what}: ${r.problem}`,
  ]);
  const head = ['', 'mutation', 'code', 'reported at', 'n', 'what'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  const passed = results.filter((r) => r.ok).length;
  const codes = new Set(results.filter((r) => r.ok).map((r) => r.mutation.expect));
  return [
    line(head),
    ...rows.map(line),
    '',
    `${passed}/${results.length} mutations of catalogs/default rejected with the expected code inside the mutated file (${codes.size} distinct codes)`,
    `n = diagnostics reported for the one mistake: ${results.filter((r) => r.count === 1).length} mutations gave exactly one, at most ${Math.max(...results.map((r) => r.count))}`,
  ].join('\n');
}

/**
 * One diagnostic type for the whole pipeline. Codes are a closed union so that
 * tests, docs and `--format json` consumers can rely on them staying stable.
 */
import { isPlainObject } from './json';
import { compareText } from './order';
export const DIAGNOSTIC_CODES = {
  // IT1xxx: reading and parsing files
  IT1001: 'file cannot be read',
  IT1002: 'YAML syntax error',
  IT1003: 'duplicate key in a mapping',
  IT1004: 'document is not a mapping',
  IT1005: 'file holds no document',
  IT1006: 'file is not text',
  IT1007: 'YAML alias expansion too large',
  IT1008: 'no catalog files found',
  IT1009: 'generator file is invalid',
  IT1010: 'the project layout prevents writing the output',
  IT1011: 'the command line cannot be run (an unknown option, command, directory or object name)',
  // IT12xx: catalog schema
  IT1201: 'unknown document kind',
  IT1202: 'unknown key',
  IT1203: 'invalid value',
  IT1204: 'required key missing',
  IT1205: 'invalid quantity',
  IT1206: 'invalid name',
  IT1207: 'memory in decimal units',
  // IT2xxx: resolution
  IT2001: 'unknown base preference',
  IT2002: 'unknown fragment',
  IT2003: 'inheritance cycle',
  IT2004: 'conflicting values from sources at the same level',
  IT2005: 'size not offered',
  IT2006: 'duplicate object name',
  IT2007: 'duplicate declaration',
  IT2008: 'catalog declaration missing or repeated',
  IT2009: 'template error in free text',
  IT2010: 'unknown size ladder',
  IT2011: 'name pattern invalid',
  IT2020: 'catalog import cannot be read',
  IT2022: 'an architecture override of a base that inheritance would lose',
  IT2023: 'an import whose Catalog defaults its objects lose',
  IT2024: 'a package import pinned to another version than the one installed',
  IT2025: 'a patch on an imported document that patches nothing, or changes what it targets',
  IT2026: 'a display name that names its architecture already (the architecture pattern would add it again)',
  IT2021: 'catalog import leads outside the project',
  // IT3xxx: rendered manifests against the KubeVirt API model
  IT3001: 'manifest does not match the KubeVirt API',
  // IT4xxx: what KubeVirt rejects or what makes a VM fail
  IT4001: 'overcommitPercent out of range',
  IT4002: 'overcommitPercent together with hugepages',
  IT4003: 'unknown preferredCPUTopology',
  IT4004: 'spreadOptions not supported',
  IT4005: 'guest memory not a multiple of the hugepage size',
  IT4006: 'NUMA passthrough without dedicated CPUs and hugepages',
  IT4007: 'isolateEmulatorThread without dedicatedCPUPlacement',
  IT4008: 'too many threads with dedicated CPUs',
  IT4009: 'maxSockets below the sockets the topology needs',
  IT4010: 'spreadOptions.ratio is 0',
  IT4011: 'CD-ROM bus virtio',
  IT4012: 'vCPU count is 0',
  IT4013: 'memory hotplug constraint violated',
  IT4014: 'invalid device preference',
  IT4015: 'deprecated field or value',
  IT4016: 'hugepage size not valid for the architecture',
  IT4017: 'firmware setting not supported on the architecture',
  // IT5xxx: catalog policy
  IT5001: 'size ladder not monotonic',
  IT5002: 'memory does not match the family ratio',
  IT5003: 'display name reused',
  IT5004: 'preference requirements met by no instance type',
  IT5005: 'spread preference cannot pair with some sizes',
  IT5006: 'name collides with a common-instancetypes name',
  IT5007: 'vendor outside the KubeVirt metrics allow-list',
  IT5008: 'URL annotation is not a clean URL',
  IT5009: 'deprecation replacement names nothing the catalog ships',
  IT5011: 'a GitOps sync gives namespaced objects no namespace',
  IT5012: 'an output directory that nothing deploys',
  IT5013: 'a deployed path that no generator writes',
  IT5014: 'two sizes of a family with the same spec',
  IT5015: 'a generated base deployed twice (two GitOps objects apply it)',
  IT5016: 'a size deprecated in favour of a family without that size',
  IT5017: 'an admission policy profile names a class, family or instance type the catalog lacks',
  IT5018: 'a generated admission policy does not type-check',
  IT5019: 'a generated admission policy kube-apiserver would refuse for its size',
  IT5020: 'dedicated CPUs with overcommitted memory',
  IT5021: 'vendor kubevirt.io on a catalog built on upstream, labelling objects KubeVirt does not ship as its own',
  IT5022: "the generator's templates name a preference the catalog does not emit",
  IT5023: 'a preference no instance type of the catalog starts with: it gets no template',
  // IT6xxx: target KubeVirt version
  IT6001: 'field newer than the target KubeVirt release',
  IT6002: 'unknown target KubeVirt release',
  IT6003: 'a KubeVirt release itgen does not model is answered as a modelled one',
  // IT7xxx: release workflow
  IT7001: 'output differs from what the catalogs generate',
  IT7101: 'published object changed in place',
  IT7102: 'published object removed without a deprecation release',
  IT7103: 'removed name reused with a different spec',
  IT7104: 'release lock override does not apply',
  IT7105: 'release version not newer than the last release',
  IT7106: 'release lock belongs to another generator',
  IT7107: 'bundle is not the recorded release',
  IT7108: 'release lock contradicts itself',
  IT7109: 'a change rewrites the release history the base branch published',
  IT7201: 'vendor selection matches nothing',
  IT7202: 'a kind would be emitted empty',
  IT7301: 'comparison source cannot be read',
  IT7302: 'KRM function input invalid',
  IT7401: 'generating would remove objects the committed base has (no release lock yet)',
  // IT80xx: expanding and admitting VirtualMachines
  IT8001: 'a VM reference cannot be resolved',
  IT8002: 'VM fields conflict with the instance type',
  IT8003: 'VM admission would refuse the VM',
  IT8004: 'nothing to expand or validate in the input files',
  IT8005: 'a VM names its instance type or preference wrongly',
  IT8006: 'a VM apiVersion KubeVirt does not serve, or has deprecated',
  IT8007: 'a VM placed on nodes of another architecture than its guest',
  IT8008: 'a VM KubeVirt stores but cannot start: the VM controller, the VMI webhooks or the launcher pod render refuse it',
  IT8009: 'a --kubevirt file that holds no KubeVirt CR, or a configuration KubeVirt would not take',
  IT8010: "the catalog's admission policies would deny the VM",
  IT8012: 'a VM memory in decimal units (8G is 7.45Gi, not 8Gi)',
  IT8013: "a VM field changes its instance type's class (dedicated CPUs, an isolated emulator thread, hugepages)",
  IT8014: "a VM's root volume names another default instance type or preference than the VM",
  IT8015: "a stored VM's ControllerRevision is not among the files: judged with the object its matcher names",
  // IT81xx: the compatibility matrix
  IT8101: 'KubeVirt starts no VM with a preference and any instance type of the catalog',
  // IT83xx: what a catalog change does to the VMs that use it (--vms)
  IT8301: 'a change would leave a VM without its object, or no longer admitted',
  IT8302: 'a VM uses an object the change deprecates, or that is deprecated',
  IT8303: 'a VM changes at its next start',
  // IT82xx: migrating VirtualMachineInstancePresets
  IT8201: 'no VirtualMachineInstancePreset in the input',
  IT8202: 'a VirtualMachineInstancePreset or VirtualMachine KubeVirt would refuse',
  IT8203: 'a VM whose presets conflict is not migrated',
  IT8204: 'a VM that needs a person is not migrated',
  IT8205: 'a preset or VM field no instance type or preference can carry',
  IT8206: 'a migrated VM would start differently',
  IT8207: 'a VirtualMachineInstance selected by presets cannot be migrated',
  IT8208: 'an OpenShift Template that cannot become a VirtualMachineTemplate (not one VirtualMachine, or the engine refuses it)',
  IT8209: "no preference of the catalog for a template's OS",
  IT8210: "no instance type of the catalog holds a template's size and minimums",
  IT8211: "a migrated template's VM starts differently (each VMI field that differs), or not at all",
  IT8212: "a template's validation minimums are more than its preference requires",
  // IT84xx: VirtualMachineTemplates
  IT8401: 'virt-template-engine would refuse the VirtualMachineTemplate (decoding, parameters, references, processing)',
  IT8402: 'a template parameter is declared and never referenced',
  IT8403: "a template's VM field that is not KubeVirt's: the engine drops it in silence",
  IT8404: 'a VirtualMachineTemplate apiVersion a targeted KubeVirt release does not serve, deprecates, or serves only behind an Alpha gate',
  IT8405: "a template's required parameter has neither value nor generator: virt-template's webhook does not process it, nor is its VM judged",
  // IT9xxx: internal
  IT9001: 'internal error',
  IT9002: 'output cannot be written',
} as const;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/**
 * The codes that are (or can be) warnings: the only ones a generator's `suppressWarnings` may
 * name. test/validation-codes.test.ts checks that every warning the fixtures produce is listed.
 */
export const WARNING_CODES: ReadonlySet<DiagnosticCode> = new Set<DiagnosticCode>([
  'IT5021',
  'IT5023',
  'IT8015',
  'IT2026',
  'IT6003',
  'IT1207',
  'IT2023',
  'IT4004',
  'IT4013',
  'IT4014',
  'IT4015',
  'IT4016',
  'IT5003',
  'IT5004',
  'IT5005',
  'IT5006',
  'IT5007',
  'IT5008',
  'IT5011',
  'IT5012',
  'IT5014',
  'IT5015',
  'IT5016',
  'IT5020',
  'IT5017',
  'IT7104',
  'IT8006',
  'IT8012',
  'IT8013',
  'IT8014',
  'IT8203',
  'IT8204',
  'IT8302',
  'IT8303',
  'IT8402',
  'IT8403',
  'IT8205',
  'IT8206',
  'IT8207',
  'IT8211',
  'IT8212',
]);
export type Severity = 'error' | 'warning';

export interface SourceRange {
  /** Path relative to the project root, POSIX separators. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly col: number;
  readonly endLine?: number;
  readonly endCol?: number;
}

export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
  readonly location?: SourceRange;
  readonly hint?: string;
  /** Other places involved (the second source of a conflict, the earlier declaration). */
  readonly related?: readonly { readonly message: string; readonly location: SourceRange }[];
}

/** `v` when it is a source range as data (a cache's JSON), else undefined. */
function rangeOf(v: unknown): SourceRange | undefined {
  if (!isPlainObject(v) || typeof v['file'] !== 'string' || typeof v['line'] !== 'number' || typeof v['col'] !== 'number') return undefined;
  for (const k of ['endLine', 'endCol']) if (v[k] !== undefined && typeof v[k] !== 'number') return undefined;
  return v as unknown as SourceRange;
}

/** `v` when it is a diagnostic as data (a cache's JSON): a known code, every field of its type; else undefined. */
export function diagnosticOf(v: unknown): Diagnostic | undefined {
  if (!isPlainObject(v) || typeof v['code'] !== 'string' || !Object.hasOwn(DIAGNOSTIC_CODES, v['code']) || typeof v['message'] !== 'string') return undefined;
  if (v['severity'] !== 'error' && v['severity'] !== 'warning') return undefined;
  if (v['location'] !== undefined && !rangeOf(v['location'])) return undefined;
  if (v['hint'] !== undefined && typeof v['hint'] !== 'string') return undefined;
  const related = v['related'];
  if (
    related !== undefined &&
    (!Array.isArray(related) || !related.every((r) => isPlainObject(r) && typeof r['message'] === 'string' && rangeOf(r['location'])))
  )
    return undefined;
  return v as unknown as Diagnostic;
}

/**
 * `more` appended to `out`, one by one: a VM with a hundred thousand disks has as many findings, and
 * `out.push(...more)` passes each as an argument, past what a call takes (RangeError).
 */
export function appendDiagnostics(out: Diagnostic[], more: readonly Diagnostic[]): void {
  for (const d of more) out.push(d);
}

export function diag(
  code: DiagnosticCode,
  message: string,
  location?: SourceRange,
  extra: { hint?: string; severity?: Severity; related?: Diagnostic['related'] } = {},
): Diagnostic {
  return {
    code,
    severity: extra.severity ?? 'error',
    message,
    ...(location ? { location } : {}),
    ...(extra.hint !== undefined ? { hint: extra.hint } : {}),
    ...(extra.related && extra.related.length > 0 ? { related: extra.related } : {}),
  };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/**
 * Stable order: by file, line, column, then code; diagnostics without a location last. Repeats
 * of one finding (a template shared by every size or variant of a family fails once for each) are
 * reported once, with the hint of the first even where the hints differ in detail.
 */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const unique = diagnostics.filter((d) => {
    const key = JSON.stringify([d.code, d.severity, d.message, d.location, d.related]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.sort((a, b) => {
    const la = a.location;
    const lb = b.location;
    if (la && !lb) return -1;
    if (!la && lb) return 1;
    if (la && lb) {
      if (la.file !== lb.file) return la.file < lb.file ? -1 : 1;
      if (la.line !== lb.line) return la.line - lb.line;
      if (la.col !== lb.col) return la.col - lb.col;
    }
    if (a.code !== b.code) return a.code < b.code ? -1 : 1;
    return compareText(a.message, b.message);
  });
}

/** Levenshtein-based suggestion for "did you mean ...". */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  const lw = word.toLowerCase();
  // Names differ most often by their separators (`rhel9` for `rhel.9`, `centos-stream9`): a
  // candidate that is the word but for them is the one meant, before any edit distance (which
  // ties `rhel9` with `rhel` and `rhel.9`).
  const bare = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const list = [...candidates];
  const same = list.filter((c) => bare(c) === bare(word) && bare(c) !== '');
  if (same.length > 0) return same.sort()[0];
  for (const c of list) {
    const d = editDistance(lw, c.toLowerCase());
    if (d < bestScore) {
      bestScore = d;
      best = c;
    }
  }
  if (best === undefined) return undefined;
  const limit = Math.max(2, Math.floor(Math.max(word.length, best.length) / 3));
  return bestScore <= limit ? best : undefined;
}

function editDistance(a: string, b: string): number {
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diagPrev = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diagPrev + cost);
      diagPrev = tmp;
    }
  }
  return prev[b.length]!;
}

export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  const c = closest(word, candidates);
  return c !== undefined ? `did you mean \`${c}\`?` : undefined;
}

/** `--strict`: every warning becomes an error, saying so. */
/** Names as a message lists them: each in a code span, the first `max`, then how many more of `total` there are. */
export function shownNames(names: readonly string[], total = names.length, max = 6): string {
  const shown = names
    .slice(0, max)
    .map((n) => `\`${n}\``)
    .join(', ');
  return total > max ? `${shown} and ${total - max} more` : shown;
}

export function strictify(diagnostics: readonly Diagnostic[], strict: boolean): Diagnostic[] {
  return strict
    ? diagnostics.map((d) => (d.severity === 'warning' ? { ...d, severity: 'error' as const, message: `${d.message} (--strict)` } : d))
    : [...diagnostics];
}

/**
 * The one judge of a VirtualMachine (house style 43): for one VM, one KubeVirt release and cluster
 * configuration, and one set of objects, what KubeVirt does with it, stage by stage in KubeVirt's
 * order: the API server's decoding and the CRD's schema, the VM mutating webhook, the VM validating
 * webhook (the instancetype admitter, then `ValidateVirtualMachineSpec`), the lookups the VM
 * controller makes, expand-spec, the VM controller's start, the VMI webhooks and the launcher pod's
 * render. Every door (validate FILE and --vms, expand, the review, fit, matrix, select) asks this
 * function; none runs a part of it on its own. It never places a cause in a file: the documents'
 * walk (documents.ts) does that.
 */
import { isPlainObject, obj, type Json, type JsonObject } from '../json';
import type { ClusterDefaults } from '../kubevirt/config';
import type { Cause } from '../kubevirt/cause';
import { child } from '../kubevirt/go';
import { mutatorRoundTripCauses } from '../kubevirt/vm-spec';
import { admit, expand } from './expand';
import type { References } from './model';
import { mutateOnCreate, infersFromVolume, type Inference } from './mutate';
import { startStored, type PreviewResult, type RefusalStage } from './preview';
import { resolveReferences, type ObjectStore, type ReferenceError } from './references';
import { fieldPath, goDecodedVm, unknownVmFields, type UnknownField } from './unknown-fields';

/** Where KubeVirt stops with the VM; `runs` when it starts and its pod renders. */
export type JudgeStage = RefusalStage | 'runs';

export interface JudgeOptions {
  /** The release and configuration of the cluster (kubevirtConfig: KubeVirt's defaults of the release without a CR). */
  readonly config: ClusterDefaults;
  /** The request's namespace, for a VM that names none (kubectl's context; `default`). */
  readonly namespace?: string;
  /** `applied`: as `kubectl apply` creates it (the mutating webhook runs); `stored`: as the cluster holds it. */
  readonly mutate?: 'applied' | 'stored';
  /** ControllerRevisions the VM names that the objects lack are in the cluster (VMs kept in Git). */
  readonly revisionsInCluster?: boolean;
  /**
   * `strict` (kubectl apply's default field validation): a field KubeVirt's types lack refuses the
   * VM at the API server; `lenient`: Go's decoding drops it (what KubeVirt's webhooks see of a VM
   * sent without field validation). The CRD schema's refusals hold either way.
   */
  readonly decoding?: 'strict' | 'lenient';
  /** false: expand-spec alone (`expand --skip-admission`): no admission, no start. */
  readonly admission?: boolean;
}

export interface JudgeCause extends Cause {
  /** For a refusal at the API server: the path of the field, and what KubeVirt's types say of it. */
  readonly unknown?: UnknownField;
}

export interface Verdict {
  readonly stage: JudgeStage;
  /** KubeVirt's causes at `stage`, in its order and words; empty when it runs. */
  readonly causes: readonly JudgeCause[];
  /** Lookups that failed (the instance type or preference the VM names, absent). */
  readonly referenceErrors: readonly ReferenceError[];
  readonly references: References;
  /** Matchers the mutating webhook inferred from a volume. */
  readonly inferred: readonly Inference[];
  /** The VM as expand-spec returns it (after admission). */
  readonly vm?: JsonObject;
  /** The VM as the cluster stores it (the mutating webhooks' work done), when it starts. */
  readonly stored?: JsonObject;
  /** What it runs as: the VMI, the launcher pod, the pod's memory overhead, what was assumed. */
  readonly vmi?: JsonObject;
  readonly pod?: JsonObject;
  readonly memoryOverhead?: string;
  readonly notes: readonly string[];
}

const refused = (stage: JudgeStage, causes: readonly JudgeCause[], rest: Partial<Verdict> = {}): Verdict => ({
  stage,
  causes,
  referenceErrors: [],
  references: {},
  inferred: [],
  notes: [],
  ...rest,
});

/** A value with every null-valued key of its objects removed, at any depth (list items are kept): what the API server prunes of a VM (no field of it is nullable). */
export function withoutNulls(v: Json): Json {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (!isPlainObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = withoutNulls(x);
  return out;
}

/**
 * KubeVirt's verdict on `input` (not changed): what the API server does with the request (decoding,
 * the CRD's schema, KubeVirt's mutating webhook, pruning, the namespace), then KubeVirt's steps on
 * what it stores (admission, lookup, expansion, the start).
 */
export function judgeVm(input: JsonObject, store: ObjectStore, options: JudgeOptions): Verdict {
  const received = apiServerReceives(input, store, options);
  return 'verdict' in received ? received.verdict : kubevirtSteps(received, store, options);
}

/** What reaches KubeVirt's validating webhook: the VM as the API server and the mutating webhook made it. */
interface Received {
  readonly vm: JsonObject;
  readonly namespace: string;
  readonly inferred: Inference[];
  /** Fields outside an enum the CRD lacks, which the validating webhook's schema check refuses. */
  readonly outOfEnum: JudgeCause[];
  readonly applied: boolean;
}

/**
 * The API server's part, in its order: strict decoding (unknown fields, those of a later release)
 * and the CRD's schema, the nulls it prunes (no field of a VM is nullable; without strict field
 * validation, Go's decoding fills a field from a key equal to its name ignoring case), KubeVirt's
 * mutating webhook on CREATE (instance type and preference inferred from a volume), and the
 * request's namespace set on a VM that names none. A refusal is the verdict.
 */
function apiServerReceives(input: JsonObject, store: ObjectStore, options: JudgeOptions): Received | { verdict: Verdict } {
  const { config } = options;
  const namespace = options.namespace ?? 'default';
  const strictDecoding = (options.decoding ?? 'strict') === 'strict';
  const found = unknownVmFields(input, strictDecoding, strictDecoding ? config.release : undefined);
  const fields = found.filter((u) => u.outOfEnum === undefined && (strictDecoding || u.invalid !== undefined));
  if (fields.length > 0)
    return {
      verdict: refused(
        'schema',
        fields.map((u) => ({
          type: u.invalid !== undefined ? 'FieldValueInvalid' : 'FieldValueNotSupported',
          field: u.path.map(String).join('.'),
          message: u.invalid ?? `unknown field`,
          unknown: u,
        })),
      ),
    };
  let vm = strictDecoding ? (withoutNulls(input) as JsonObject) : goDecodedVm(withoutNulls(input) as JsonObject, config.release);
  let inferred: Inference[] = [];
  const applied = (options.mutate ?? 'applied') === 'applied';
  if (applied || infersFromVolume(vm)) {
    const mutated = mutateOnCreate(vm, store, namespace, config.release);
    if ('causes' in mutated)
      return {
        verdict: refused(
          'mutate',
          mutated.causes.map((c) => ({ type: 'FieldValueInvalid', ...c })),
        ),
      };
    vm = mutated.vm;
    inferred = mutated.inferred;
  }
  if (typeof obj(vm['metadata'])?.['namespace'] !== 'string') child(vm, 'metadata')['namespace'] = namespace;
  const outOfEnum = found.flatMap((u) =>
    u.outOfEnum !== undefined ? [{ type: 'FieldValueInvalid' as const, field: fieldPath(u.path), message: u.outOfEnum, unknown: u }] : [],
  );
  return { vm, namespace: String(obj(vm['metadata'])!['namespace']), inferred, outOfEnum, applied };
}

/**
 * KubeVirt's steps on the VM it received, each returning its refusal before the next runs: the
 * validating webhook (its schema check: an enum the CRD lacks, what the mutator's Go round trip
 * lost; then the instancetype admitter, which finds what it can and ignores lookup errors), the
 * lookup the VM controller needs (a VM whose objects are missing is stored and never started), the
 * expansion, and the start (the VMI, its webhooks and the launcher pod).
 */
function kubevirtSteps(received: Received, store: ObjectStore, options: JudgeOptions): Verdict {
  const { config } = options;
  const { vm, inferred } = received;
  if (options.admission !== false) {
    const schema: JudgeCause[] = [...received.outOfEnum, ...(received.applied ? mutatorRoundTripCauses(vm) : [])];
    if (schema.length > 0) return refused('admit', schema, { inferred });
  }
  const resolved = resolveReferences(vm, store, received.namespace, options.revisionsInCluster ?? false, config.release);
  const { references } = resolved;
  const base = { references, referenceErrors: resolved.errors, inferred };
  let admittedVm: JsonObject | undefined;
  if (options.admission !== false) {
    const admitted = admit(vm, references, { cluster: config });
    if (admitted.causes.length > 0) return refused('admit', admitted.causes, base);
    admittedVm = admitted.vm;
  }
  if (resolved.errors.length > 0) return refused('lookup', [], base);
  const expanded = expand(vm, references, { cluster: config });
  if ('error' in expanded)
    return refused(
      'expand',
      expanded.fields.map((field) => ({
        type: expanded.panic ? 'InternalError' : 'FieldValueInvalid',
        field,
        message: expanded.error,
        ...(expanded.panic ? { reason: 'panic' } : { reason: 'conflict' }),
      })),
      base,
    );
  if (options.admission === false) return { stage: 'runs', causes: [], ...base, vm: expanded.vm, notes: [] };
  // `vm` is this run's own: the start finishes it in place.
  const started = startStored(vm, references, config, store, admittedVm, true);
  if ('error' in started)
    return refused(
      started.stage,
      started.causes.map((c) => ({ type: 'FieldValueInvalid', ...c })),
      { ...base, vm: expanded.vm },
    );
  return {
    stage: 'runs',
    causes: [],
    ...base,
    vm: expanded.vm,
    stored: started.vm,
    vmi: started.vmi,
    pod: started.pod,
    memoryOverhead: started.memoryOverhead,
    notes: started.notes,
  };
}

/** The stages at which KubeVirt refuses the VM outright (it is never stored). */
export const REFUSED_AT_ADMISSION: ReadonlySet<JudgeStage> = new Set(['schema', 'mutate', 'admit']);

/**
 * A VM as a user submits it, started: the judge's verdict (judge.ts) in the form the start's callers
 * read (fit, facts, placing). Decoding is Go's (lenient), as KubeVirt's webhooks see a VM.
 */
export function previewVm(vm: JsonObject, store: ObjectStore, config: ClusterDefaults, namespace: string): PreviewResult {
  const v = judgeVm(vm, store, { config, namespace, decoding: 'lenient' });
  if (v.stage === 'runs') return { vm: v.stored!, vmi: v.vmi!, pod: v.pod!, memoryOverhead: v.memoryOverhead!, notes: v.notes };
  const causes =
    v.stage === 'lookup'
      ? v.referenceErrors.map((e) => ({ field: e.field, message: e.message }))
      : v.causes.map((c) => ({ field: c.field, message: c.message }));
  return { error: causes.map((c) => c.message).join(', '), stage: v.stage, causes };
}

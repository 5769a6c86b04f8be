/**
 * Resize: what KubeVirt does when a running VM's instance type or preference changes.
 * In KubeVirt's order (v1.9, pkg/virt-controller/watch/vm/vm.go and the VM webhooks on UPDATE):
 * admission of the edited VM (the matchers, then the instancetype admission: spread, conflicts,
 * requirements; then ValidateVirtualMachineSpec with its live-update limits), then the VM
 * controller: the new objects must be found (`FailedFindInstancetype`), `syncRestartRequired` expands the start
 * revision's spec and the new one, copies the live-updatable fields across (under the LiveUpdate
 * rollout strategy: CPU sockets, guest memory, node selector, affinity, tolerations) and sets
 * RestartRequired when anything else differs; otherwise `handleCPUChangeRequest` and
 * `handleMemoryHotplugRequest` patch the running VMI or set RestartRequired with their reason. A
 * hotplug completes through a live migration only where the KubeVirt CR lists LiveMigrate in its
 * workload update methods and the VMI is live-migratable; otherwise it stays pending.
 */
import { isPlainObject, list, obj, type Json, type JsonObject } from '../json';
import type { ClusterDefaults } from '../kubevirt/config';
import type { Cause } from '../kubevirt/cause';
import { copy } from '../kubevirt/go';
import { cmp, parseQ, parseQuantity, qString, type Quantity } from '../quantity';
import { memoryHotplugProblem } from '../kubevirt/vmi';
import { validateVmSpec } from '../kubevirt/vm-spec';
import { liveMigratableCondition, type LiveMigratable } from '../kubevirt/migratable';
import { admit } from './expand';
import { applyInstancetype } from './instancetype';
import type { References } from './model';
import { applyPreference } from './preference';
import { startStored } from './preview';
import { resolveReferences, type ObjectStore } from './references';

export type ResizeOutcome = 'live' | 'pending' | 'restart' | 'start' | 'rejected' | 'failed';

export interface ResizePlan {
  readonly outcome: ResizeOutcome;
  /** KubeVirt's admission causes, as its webhook lists them (empty when admitted). */
  readonly admission: { readonly causes: readonly (Omit<Cause, 'type'> & { readonly type?: Cause['type'] })[] };
  /**
   * KubeVirt's RestartRequired condition, the fields that set it and, for each, what set it: the
   * instance type, the preference, or the cluster (itgen's: KubeVirt names none).
   */
  readonly restartRequired?: {
    readonly message: string;
    readonly fields: readonly string[];
    readonly sources: readonly ('instancetype' | 'preference' | 'cluster')[];
  };
  /** What would make the change live, when it is not. */
  readonly toLive?: string;
  /**
   * `start`: why the VM does not run now (its current instance type or preference is gone, or
   * KubeVirt would not start it), so that the change applies when KubeVirt starts it.
   */
  readonly notRunning?: { readonly reason: string; readonly message: string };
  /** The VM controller's error when it cannot apply the change (FailedFindInstancetype, FailedFindPreference). */
  readonly syncError?: { readonly reason: string; readonly message: string };
  /** The CPU and memory hotplug the change asks of the running VMI. */
  readonly hotplug: {
    readonly sockets?: { readonly from: number; readonly to: number; readonly max?: number; readonly maxFrom?: LimitSource };
    readonly memory?: { readonly from: string; readonly to: string; readonly max?: string; readonly maxFrom?: LimitSource };
  };
  /** The hotplug is carried out by a live migration (the CR lists LiveMigrate and the VMI can migrate). */
  readonly migrates: boolean;
  /** Whether the running VMI can live-migrate, and from what that is known (when the plan got that far). */
  readonly migration?: MigrationCondition;
}

/** The VMI's LiveMigratable condition: the caller's word (`given`), the VMI's own (`condition`), or virt-handler's computation (`derived`). */
export type MigrationCondition = LiveMigratable & { readonly from: 'given' | 'condition' | 'derived' };

/** Where a hotplug limit of the running VMI came from: the instance type, the cluster's live update configuration, or KubeVirt's default ratio. */
export type LimitSource = 'instancetype' | 'cluster' | 'default-ratio';

export interface ResizeTarget {
  readonly instancetype?: JsonObject | undefined;
  readonly preference?: JsonObject | undefined;
}

export interface ResizeContext {
  readonly store: ObjectStore;
  readonly config: ClusterDefaults;
  /** Whether the running VMI is live-migratable (default: yes). */
  readonly liveMigratable?: boolean;
  /** The objects the VM runs with, when they are not `store`'s (a review: the base's objects, then the change's). */
  readonly startStore?: ObjectStore;
  /** The running VMI (`kubectl get vmi -o yaml`); without it, the one the VM starts as. Its LiveMigratable condition counts unless `liveMigratable` says. */
  readonly vmi?: JsonObject;
}

/** The template spec with the instance type and preference applied, as ApplyToVM does (no defaults). */
function applied(vm: JsonObject, refs: References, release: string | undefined): JsonObject | undefined {
  const t = copy(obj(obj(vm['spec'])?.['template']) ?? {});
  const spec = obj(t['spec']) ?? {};
  const meta = obj(t['metadata']) ?? {};
  if (refs.instancetype && applyInstancetype(spec, meta, refs.instancetype.spec, refs.preference?.spec, release).length > 0) return undefined;
  if (refs.preference) applyPreference(spec, meta, refs.preference.spec, release);
  return spec;
}

const QUANTITY_KEYS = new Set(['guest', 'maxGuest', 'memory', 'cpu', 'capacity', 'addedOverhead']);

/**
 * equality.Semantic.DeepEqual's differences, as paths: quantities by value, nil and empty lists
 * alike. `loose`: an empty value and an absent one alike too, as the paths are listed for people
 * (`preferredSmm: {}` enables SMM, so the decision keeps them apart).
 */
function differences(a: Json | undefined, b: Json | undefined, path: string, out: string[], loose = false): void {
  const empty = (v: Json | undefined): boolean =>
    v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (loose && isPlainObject(v) && Object.keys(v).length === 0);
  if (empty(a) && empty(b)) return;
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) differences(a[k], b[k], `${path}.${k}`, out, loose);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => differences(x, b[i], `${path}[${i}]`, out, loose));
    return;
  }
  const key = path.slice(path.lastIndexOf('.') + 1);
  if ((typeof a === 'string' || typeof a === 'number') && (typeof b === 'string' || typeof b === 'number') && QUANTITY_KEYS.has(key)) {
    const qa = parseQ(a);
    const qb = parseQ(b);
    if (qa && qb && cmp(qa, qb) === 0) return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push(path);
}

/**
 * Whether a template spec differs from the start's after the live-updatable fields are copied
 * across, and the fields that do (empty and absent alike in the list, never in the decision).
 */
function restartFields(start: JsonObject, current: JsonObject, config: ClusterDefaults): { differs: boolean; fields: string[] } {
  const last = copy(start);
  if ((config.vmRolloutStrategy ?? 'LiveUpdate') === 'LiveUpdate') {
    const lastCpu = obj(obj(last['domain'])?.['cpu']);
    const curCpu = obj(obj(current['domain'])?.['cpu']);
    if (lastCpu && curCpu) {
      if (curCpu['sockets'] === undefined) delete lastCpu['sockets'];
      else lastCpu['sockets'] = curCpu['sockets']!;
    }
    const curGuest = obj(obj(current['domain'])?.['memory'])?.['guest'];
    if (curGuest !== undefined && curGuest !== null) {
      const domain = obj(last['domain']) ?? (last['domain'] = {});
      const memory = obj(domain['memory']) ?? (domain['memory'] = {});
      memory['guest'] = curGuest;
    }
    for (const k of ['nodeSelector', 'affinity', 'tolerations']) {
      if (current[k] === undefined) delete last[k];
      else last[k] = copy(current[k]!);
    }
  }
  const strict: string[] = [];
  differences(last, current, 'spec.template.spec', strict);
  const listed: string[] = [];
  differences(last, current, 'spec.template.spec', listed, true);
  return { differs: strict.length > 0, fields: listed.length > 0 ? listed : strict };
}

/**
 * What changing a running VM's instance type or preference does. `stored`: the VM as the cluster
 * stores it (its matchers name the objects it runs with); `to`: the new matchers, each replacing
 * the stored one whole.
 *
 * Over 80 lines: follows KubeVirt's VM controller through one update (webhook, revision, restart-required, hotplug), step for step as vm.go does.
 */
export function resizePlan(stored: JsonObject, to: ResizeTarget, ctx: ResizeContext): ResizePlan {
  const { store, config } = ctx;
  const noHotplug = { hotplug: {}, migrates: false };
  const ns = String(obj(stored['metadata'])?.['namespace'] ?? 'default');
  const edited = copy(stored);
  const spec = obj(edited['spec']) ?? (edited['spec'] = {});
  for (const which of ['instancetype', 'preference'] as const) {
    const m = to[which];
    if (m === undefined) continue;
    spec[which] = copy(m);
  }
  // The mutating webhook on UPDATE: a changed name with a revision pinned to the old object.
  for (const which of ['instancetype', 'preference'] as const) {
    const before = obj(obj(stored['spec'])?.[which]);
    const after = obj(spec[which]);
    if (before && after && typeof after['revisionName'] === 'string' && after['revisionName'] !== '' && after['name'] !== before['name'])
      return {
        outcome: 'rejected',
        admission: { causes: [{ field: `spec.${which}.revisionName`, message: `the Matcher Name has been updated without updating the RevisionName` }] },
        ...noHotplug,
      };
  }
  // The validating webhook: the instancetype admission, then the spec rules on the expanded template.
  const newRefs = resolveReferences(edited, store, ns, true, config.release);
  const admitted = admit(edited, newRefs.references, { cluster: config });
  if (admitted.causes.length > 0) return { outcome: 'rejected', admission: { causes: admitted.causes }, ...noHotplug };
  const specCauses = validateVmSpec(admitted.vm ?? edited, config);
  if (specCauses.length > 0) return { outcome: 'rejected', admission: { causes: specCauses }, ...noHotplug };
  // The VM controller: the objects the new matchers name must exist.
  const missing = newRefs.errors.find((e) => e.notFound);
  if (missing) {
    const reason = missing.field.startsWith('spec.preference') ? 'FailedFindPreference' : 'FailedFindInstancetype';
    return { outcome: 'failed', admission: { causes: [] }, syncError: { reason, message: missing.message }, ...noHotplug };
  }
  // The running VMI, as the VM started with its current objects.
  const startStore = ctx.startStore ?? store;
  const oldResolved = resolveReferences(stored, startStore, ns, true, config.release);
  const oldRefs = oldResolved.references;
  // A VM whose current objects are gone never started (its controller reports it): there is no
  // running VMI to change, and the new objects are what it starts with.
  const gone = oldResolved.errors.find((e) => e.notFound);
  if (!ctx.vmi && gone)
    return {
      outcome: 'start',
      admission: { causes: [] },
      notRunning: { reason: gone.field.startsWith('spec.preference') ? 'FailedFindPreference' : 'FailedFindInstancetype', message: gone.message },
      ...noHotplug,
    };
  const started = startStored(stored, oldRefs, config, startStore);
  if (!ctx.vmi && 'error' in started)
    return { outcome: 'start', admission: { causes: [] }, notRunning: { reason: started.stage, message: started.error }, ...noHotplug };
  const startSpec = applied(stored, oldRefs, config.release);
  const currentSpec = applied(edited, newRefs.references, config.release);
  if ((!ctx.vmi && 'error' in started) || !startSpec || !currentSpec) return { outcome: 'live', admission: { causes: [] }, ...noHotplug };
  const vmi = ctx.vmi ?? (started as { vmi: JsonObject }).vmi;
  // Whether the VMI can migrate: the caller's word; else a given VMI's LiveMigratable condition
  // (vmi.IsMigratable() reads the condition alone); else the condition as virt-handler computes it
  // for the VMI (given without one, or the one the VM starts as), from the PVCs given.
  const condition = Array.isArray(obj(ctx.vmi?.['status'])?.['conditions'])
    ? (obj(ctx.vmi!['status'])!['conditions'] as Json[]).map((c) => obj(c)).find((c) => c?.['type'] === 'LiveMigratable')
    : undefined;
  const migration: MigrationCondition =
    ctx.liveMigratable !== undefined
      ? { migratable: ctx.liveMigratable, assumed: [], from: 'given' }
      : condition
        ? {
            migratable: condition['status'] === 'True',
            ...(typeof condition['reason'] === 'string' ? { reason: condition['reason'] } : {}),
            ...(typeof condition['message'] === 'string' ? { message: condition['message'] } : {}),
            assumed: [],
            from: 'condition',
          }
        : {
            ...liveMigratableCondition(
              vmi,
              config,
              store.volumes.filter((v) => v['kind'] === 'PersistentVolumeClaim' && String(obj(v['metadata'])?.['namespace'] ?? ns) === ns),
            ),
            from: 'derived',
          };
  const liveMigratable = migration.migratable;
  // What would let the VMI migrate, in toLive's words: why it cannot now, when that is known.
  const migratableVm = `a live-migratable VM${migration.message !== undefined ? ` (now: ${migration.message})` : ' (shared storage: ReadWriteMany volumes)'}`;
  const { differs, fields } = restartFields(startSpec, currentSpec, config);
  // Which object set each field: the one whose change alone changes it.
  const sourceOf = (field: string): 'instancetype' | 'preference' | 'cluster' => {
    const alone = (which: 'instancetype' | 'preference'): boolean => {
      // The change of this object alone, the other one as it is after the change.
      const before = applied(edited, { ...newRefs.references, [which]: oldRefs[which] }, config.release);
      const after = applied(edited, newRefs.references, config.release);
      if (!before || !after) return false;
      const out: string[] = [];
      differences(before, after, 'spec.template.spec', out, true);
      return out.some((f) => f === field || f.startsWith(`${field}.`) || field.startsWith(`${f}.`));
    };
    return alone('instancetype') ? 'instancetype' : alone('preference') ? 'preference' : 'cluster';
  };
  if (differs)
    return {
      outcome: 'restart',
      admission: { causes: [] },
      restartRequired: { message: 'a non-live-updatable field was changed in the template spec', fields, sources: fields.map(sourceOf) },
      toLive:
        (config.vmRolloutStrategy ?? 'LiveUpdate') !== 'LiveUpdate'
          ? 'nothing under the Stage rollout strategy: set spec.configuration.vmRolloutStrategy: LiveUpdate in the KubeVirt CR'
          : 'a target that differs from the current objects only in vCPUs (as sockets) and guest memory, such as another size of the same series',
      ...noHotplug,
    };
  if ((config.vmRolloutStrategy ?? 'LiveUpdate') !== 'LiveUpdate') return { outcome: 'live', admission: { causes: [] }, ...noHotplug };
  const restart = (message: string, field: string, toLive?: string): ResizePlan => ({
    outcome: 'restart',
    admission: { causes: [] },
    restartRequired: { message, fields: [field], sources: [sourceOf(field)] },
    ...(toLive !== undefined ? { toLive } : {}),
    ...noHotplug,
    migration,
  });
  // Where the running VMI's hotplug limits came from (setupHotplug): the instance type, the cluster, or the ratio.
  const socketsFrom: LimitSource =
    obj(oldRefs.instancetype?.spec['cpu'])?.['maxSockets'] !== undefined ? 'instancetype' : config.maxCpuSockets !== undefined ? 'cluster' : 'default-ratio';
  const guestFrom: LimitSource =
    obj(oldRefs.instancetype?.spec['memory'])?.['maxGuest'] !== undefined ? 'instancetype' : config.maxGuest !== undefined ? 'cluster' : 'default-ratio';
  // The VM controller's sync fails and retries (a SyncError on the VM) while another hotplug or a
  // migration is in progress: the change waits.
  const conditionTrue = (type: string): boolean => list(obj(vmi['status'])?.['conditions']).some((c) => c['type'] === type && c['status'] === 'True');
  const migrationState = obj(obj(vmi['status'])?.['migrationState']);
  // migrations.IsMigrating: started (a start timestamp) and not ended.
  const migrating = migrationState !== undefined && typeof migrationState['startTimestamp'] === 'string' && typeof migrationState['endTimestamp'] !== 'string';
  const waits = (reason: 'HotPlugCPUError' | 'HotPlugMemoryError', message: string): ResizePlan => ({
    outcome: 'pending',
    admission: { causes: [] },
    syncError: {
      reason,
      message:
        reason === 'HotPlugCPUError'
          ? `Error encountered while handling CPU change request: ${message}`
          : `error encountered while handling memory hotplug requests: ${message}`,
    },
    toLive: message.includes('migrating') ? 'the migration in progress ends: the VM controller retries the hotplug then' : 'the hotplug in progress completes',
    ...noHotplug,
    migration,
  });
  // handleCPUChangeRequest
  const vmiCpu = obj(obj(obj(vmi['spec'])?.['domain'])?.['cpu']) ?? {};
  const newCpu = obj(obj(currentSpec['domain'])?.['cpu']);
  const hotplug: {
    sockets?: { from: number; to: number; max?: number; maxFrom?: LimitSource };
    memory?: { from: string; to: string; max?: string; maxFrom?: LimitSource };
  } = {};
  const vmiSockets = typeof vmiCpu['sockets'] === 'number' ? vmiCpu['sockets'] : 0;
  const maxSockets = typeof vmiCpu['maxSockets'] === 'number' ? vmiCpu['maxSockets'] : 0;
  if (newCpu && typeof newCpu['sockets'] === 'number' && newCpu['sockets'] !== vmiSockets) {
    if (conditionTrue('HotVCPUChange')) return waits('HotPlugCPUError', 'another CPU hotplug is in progress');
    if (migrating) return waits('HotPlugCPUError', 'CPU hotplug is not allowed while VMI is migrating');
    const target = newCpu['sockets'];
    if (target > maxSockets)
      return restart(
        "CPU sockets updated in template spec to a value higher than what's available",
        'spec.template.spec.domain.cpu.sockets',
        `at most ${maxSockets} sockets (the running VM's maxSockets, from ${socketsFrom === 'instancetype' ? "the instance type's spec.cpu.maxSockets" : socketsFrom === 'cluster' ? "the KubeVirt CR's liveUpdateConfiguration.maxCpuSockets" : `${config.maxHotplugRatio ?? 4}x the sockets it started with`}); a higher limit takes effect at the next start`,
      );
    if (target < vmiSockets)
      return restart(
        'Reduction of CPU socket count requires a restart',
        'spec.template.spec.domain.cpu.sockets',
        'nothing: KubeVirt only adds CPU sockets live',
      );
    if (stored && obj(obj(obj(stored['spec'])?.['template'])?.['spec'])?.['architecture'] === 'arm64')
      return restart("ARM doesn't support CPU hotplug", 'spec.template.spec.domain.cpu.sockets');
    hotplug.sockets = { from: vmiSockets, to: target, max: maxSockets, maxFrom: socketsFrom };
  }
  // handleMemoryHotplugRequest
  const vmiMemory = obj(obj(obj(vmi['spec'])?.['domain'])?.['memory']) ?? {};
  const status = obj(obj(vmi['status'])?.['memory']) ?? {};
  const newGuest = obj(obj(currentSpec['domain'])?.['memory'])?.['guest'];
  const q = (v: Json | undefined): Quantity | undefined => (typeof v === 'string' || typeof v === 'number' ? parseQ(v) : undefined);
  const ng = q(newGuest);
  const vg = q(vmiMemory['guest']);
  if (ng && vg && status['guestCurrent'] !== undefined && cmp(ng, vg) !== 0) {
    const migratable = liveMigratable;
    const field = 'spec.template.spec.domain.memory.guest';
    if (!migratable) return restart('memory updated in template spec. Memory-hotplug is only available for migratable VMs', field, migratableVm);
    const maxGuest = q(vmiMemory['maxGuest']);
    if (!maxGuest) return restart('memory updated in template spec. Memory-hotplug is not available for this VM configuration', field);
    if (conditionTrue('HotMemoryChange')) return waits('HotPlugMemoryError', 'another memory hotplug is in progress');
    if (migrating) return waits('HotPlugMemoryError', 'memory hotplug is not allowed while VMI is migrating');
    const problem = memoryHotplugProblem(
      currentSpec.architecture === undefined ? { ...currentSpec, architecture: String(obj(vmi['spec'])?.['architecture'] ?? 'amd64') } : currentSpec,
      parseQuantity(qString(maxGuest)),
    );
    if (problem) return restart(`memory hotplug not supported, ${problem}`, field);
    const atBoot = q(status['guestAtBoot']);
    if (atBoot && cmp(ng, atBoot) < 0) return restart('memory updated in template spec to a value lower than what the VM started with', field);
    if (cmp(ng, maxGuest) > 0)
      return restart(
        "memory updated in template spec to a value higher than what's available",
        field,
        `at most ${qString(maxGuest)} of guest memory (the running VM's maxGuest, from ${guestFrom === 'instancetype' ? "the instance type's spec.memory.maxGuest" : guestFrom === 'cluster' ? "the KubeVirt CR's liveUpdateConfiguration.maxGuest" : `${config.maxHotplugRatio ?? 4}x the memory it started with`})`,
      );
    hotplug.memory = { from: qString(vg), to: qString(ng), max: qString(maxGuest), maxFrom: guestFrom };
  }
  const changes = hotplug.sockets !== undefined || hotplug.memory !== undefined;
  const migrates = changes && liveMigratable && (config.workloadUpdateMethods ?? []).includes('LiveMigrate');
  const outcome = !changes || migrates ? 'live' : 'pending';
  return {
    outcome,
    admission: { causes: [] },
    hotplug,
    migrates,
    migration,
    ...(outcome === 'pending'
      ? {
          toLive: liveMigratable
            ? "LiveMigrate listed in the KubeVirt CR's spec.workloadUpdateStrategy.workloadUpdateMethods"
            : `${migratableVm}, and LiveMigrate among the workload update methods`,
        }
      : {}),
  };
}

/**
 * Replays the resize corpus (test/fixtures/resize-corpus/, made by tools/resize-corpus.mjs and
 * answered by the oracle's `resize` mode: KubeVirt's webhooks on UPDATE and its VM controller)
 * through `resizePlan`.
 */
import { objectStore } from '../src/expand';
import { resizePlan, type ResizePlan } from '../src/expand/resize';
import type { JsonObject } from '../src/json';
import { kubevirtConfig } from '../src/kubevirt/config';
import { readJsonLines } from './preview-corpus';

interface ResizeCase {
  readonly id: string;
  readonly mode: string;
  readonly category: string;
  readonly vm: JsonObject;
  readonly to: { instancetype?: JsonObject; preference?: JsonObject };
  readonly objects?: JsonObject[];
  readonly kubevirt: JsonObject | null;
  readonly liveMigratable?: boolean;
  readonly vmi?: JsonObject;
}
interface ResizeAnswer {
  readonly id: string;
  readonly admit: { admitted: boolean; message?: string };
  readonly restartRequired: { set: boolean; message: string };
  readonly syncError: { reason: string; message: string } | null;
  readonly oracleDiff: string[];
  readonly pendingMigration: boolean;
  readonly hotplug: { cpu: boolean; memory: boolean };
  readonly workloadUpdaterMigrates: boolean;
  readonly error?: { stage: string; message: string };
}

/** KubeVirt's outcome, in resizePlan's terms. */
/** Whether a VMI's condition of `type` is True. */
function conditionTrue(vmi: JsonObject, type: string): boolean {
  const conditions = (vmi['status'] as JsonObject | undefined)?.['conditions'];
  return Array.isArray(conditions) && conditions.some((x) => (x as JsonObject)['type'] === type && (x as JsonObject)['status'] === 'True');
}

export function kubevirtOutcome(a: ResizeAnswer): ResizePlan['outcome'] {
  if (!a.admit.admitted) return 'rejected';
  // A hotplug the VM controller cannot do yet (a migration or another hotplug in progress) is
  // retried: the change waits.
  if (a.syncError) return a.syncError.reason.startsWith('HotPlug') ? 'pending' : 'failed';
  if (a.restartRequired.set) return 'restart';
  if (a.pendingMigration) return a.workloadUpdaterMigrates ? 'live' : 'pending';
  return 'live';
}

/** Every change of the corpus in `dir` planned as KubeVirt `release` would (absent: the newest), against `answersFile`. */
export function replayResize(
  dir: string,
  release?: string,
  answersFile = 'answers.jsonl.gz',
): { id: string; category: string; outcome: string; why: string[] }[] {
  const cases = readJsonLines(`${dir}/cases.jsonl.gz`) as ResizeCase[];
  const answers = new Map((readJsonLines(`${dir}/${answersFile}`) as ResizeAnswer[]).map((a) => [a.id, a]));
  const bundle = objectStore((cases[0] as unknown as { objects: JsonObject[] }).objects);
  const out: { id: string; category: string; outcome: string; why: string[] }[] = [];
  for (const c of cases) {
    if (c.mode !== 'resize') continue;
    const a = answers.get(c.id)!;
    if (a.error) continue;
    const own = objectStore(c.objects ?? []);
    const store = { specObjects: [...own.specObjects, ...bundle.specObjects], volumes: [...own.volumes, ...bundle.volumes], revisions: [] };
    const plan = resizePlan(c.vm, c.to, {
      store,
      config: release !== undefined ? { ...kubevirtConfig(c.kubevirt).config, release } : kubevirtConfig(c.kubevirt).config,
      // The oracle's running VMI has the LiveMigratable condition the case says (True by default), or
      // the given VMI's own (none: not migratable); it does not compute it as virt-handler would.
      liveMigratable: c.liveMigratable ?? (c.vmi ? conditionTrue(c.vmi, 'LiveMigratable') : true),
      ...(c.vmi ? { vmi: c.vmi } : {}),
    });
    const expected = kubevirtOutcome(a);
    const why: string[] = [];
    if (plan.outcome !== expected) why.push(`outcome: itgen ${plan.outcome}, KubeVirt ${expected}`);
    if (expected === 'rejected' && plan.outcome === 'rejected' && plan.admission.causes.map((x) => x.message).join(', ') !== a.admit.message)
      why.push(`admission: itgen ${plan.admission.causes.map((x) => x.message).join(', ')} | KubeVirt ${a.admit.message}`);
    if (
      (expected === 'failed' || a.syncError) &&
      plan.syncError &&
      (plan.syncError.reason !== a.syncError!.reason || plan.syncError.message !== a.syncError!.message)
    )
      why.push(`syncError: itgen ${JSON.stringify(plan.syncError)} | KubeVirt ${JSON.stringify(a.syncError)}`);
    if (expected === 'restart' && plan.outcome === 'restart') {
      if (plan.restartRequired!.message !== a.restartRequired.message)
        why.push(`restart message: itgen ${plan.restartRequired!.message} | KubeVirt ${a.restartRequired.message}`);
      if (a.oracleDiff.length > 0 && JSON.stringify([...plan.restartRequired!.fields].sort()) !== JSON.stringify([...a.oracleDiff].sort()))
        why.push(
          `restart fields: itgen only ${plan.restartRequired!.fields.filter((f) => !a.oracleDiff.includes(f)).join(' ')} | KubeVirt's only ${a.oracleDiff.filter((f) => !plan.restartRequired!.fields.includes(f)).join(' ')}`,
        );
    }
    if (expected === 'live' || expected === 'pending') {
      if ((plan.hotplug.sockets !== undefined) !== a.hotplug.cpu)
        why.push(`cpu hotplug: itgen ${plan.hotplug.sockets !== undefined}, KubeVirt ${a.hotplug.cpu}`);
      if ((plan.hotplug.memory !== undefined) !== a.hotplug.memory)
        why.push(`memory hotplug: itgen ${plan.hotplug.memory !== undefined}, KubeVirt ${a.hotplug.memory}`);
    }
    out.push({ id: c.id, category: c.category, outcome: expected, why });
  }
  return out;
}

/**
 * Replays the fit corpus (test/fixtures/fit-corpus/, made by tools/fit-corpus.mjs and answered by
 * kube-oracle's `fit` mode: Kubernetes v1.36's PodRequests and kube-scheduler's filters) through
 * `fitPod`.
 */
import type { JsonObject } from '../src/json';
import { fitPod } from '../src/kubevirt/scheduler-filters';
import { parseQ, value } from '../src/quantity';
import { readJsonLines } from './preview-corpus';

interface FitCase {
  readonly id: string;
  readonly pod: JsonObject;
  readonly nodes: JsonObject[];
  readonly pods?: JsonObject[];
}
interface FitAnswer {
  readonly id: string;
  readonly schedulable: boolean;
  readonly podRequests: Record<string, string>;
  readonly nodes: { name: string; fits: boolean; plugin?: string; reasons: string[] }[];
  readonly message?: string;
  readonly error?: string;
}

export function replayFit(dir: string): { id: string; schedulable: boolean; plugins: string[]; why: string[] }[] {
  const cases = readJsonLines(`${dir}/cases.jsonl.gz`) as FitCase[];
  const answers = new Map((readJsonLines(`${dir}/answers.jsonl.gz`) as FitAnswer[]).map((a) => [a.id, a]));
  return cases.map((c) => {
    const a = answers.get(c.id)!;
    const r = fitPod(c.pod, c.nodes, c.pods ?? []);
    const why: string[] = [];
    if (a.error) why.push(`oracle error ${a.error}`);
    if (r.schedulable !== a.schedulable) why.push(`schedulable: itgen ${r.schedulable}, Kubernetes ${a.schedulable}`);
    for (const [k, v] of Object.entries(a.podRequests)) {
      const q = parseQ(v)!;
      const want = k === 'cpu' ? (q.nano + 999_999n) / 1_000_000n : value(q);
      if ((r.requests.get(k) ?? 0n) !== want) why.push(`request ${k}: itgen ${String(r.requests.get(k))}, Kubernetes ${v}`);
    }
    a.nodes.forEach((n, i) => {
      const mine = r.nodes[i]!;
      if (mine.fits !== n.fits || (mine.plugin ?? '') !== (n.plugin ?? '') || JSON.stringify(mine.reasons) !== JSON.stringify(n.reasons))
        why.push(
          `node ${n.name}: itgen ${mine.fits} ${mine.plugin ?? ''} ${mine.reasons.join('; ')} | Kubernetes ${n.fits} ${n.plugin ?? ''} ${n.reasons.join('; ')}`,
        );
    });
    if ((r.message ?? '') !== (a.message ?? '')) why.push(`message: itgen ${r.message ?? ''} | Kubernetes ${a.message ?? ''}`);
    return { id: c.id, schedulable: a.schedulable, plugins: a.nodes.flatMap((n) => (n.plugin ? [n.plugin] : [])), why };
  });
}

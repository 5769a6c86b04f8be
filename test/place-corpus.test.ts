/**
 * kubevirt/placement-score.ts against kube-oracle's `place` mode (kube-scheduler v1.36's filters and
 * default score plugins on Kubernetes v1.36.4's libraries): 1,000 sets of launcher pods placed
 * together (test/fixtures/place-corpus/README.md says how they were made and answered).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { JsonObject } from '../src/json';
import { placeInOrder } from '../src/kubevirt/placement-score';
import { nodeStates } from '../src/kubevirt/scheduler';

const DIR = path.join(__dirname, 'fixtures', 'place-corpus');
const lines = (file: string): JsonObject[] =>
  gunzipSync(readFileSync(path.join(DIR, file)))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as JsonObject);

interface Answer {
  placements: { name: string; node: string | null; score?: number; message?: string; nodes?: { name: string; plugin: string; reasons: string[] }[] }[];
}

describe('placing sets of launcher pods, against Kubernetes', () => {
  const cases = lines('cases.jsonl.gz');
  const answers = lines('answers.jsonl.gz') as unknown as Answer[];
  it('holds 1,000 sets, placed and unplaced pods, choices between nodes and ties', () => {
    expect(cases.length).toBe(1000);
    const all = answers.flatMap((a) => a.placements);
    expect(all.length).toBeGreaterThan(5000);
    expect(all.some((p) => p.node === null)).toBe(true);
    expect(all.filter((p) => p.score !== undefined).length).toBeGreaterThan(1000);
  });
  it('places every pod of every set where kube-scheduler does, with its score, and names the same reasons for the rest', () => {
    const differ: string[] = [];
    cases.forEach((c, i) => {
      const nodes = c['nodes'] as JsonObject[];
      const states = nodeStates(nodes, (c['pods'] as JsonObject[] | undefined) ?? []);
      const mine = placeInOrder(c['queue'] as JsonObject[], states, nodes);
      mine.forEach((m, j) => {
        const o = answers[i]!.placements[j]!;
        const got = { node: m.node, score: m.score, message: m.message, nodes: m.nodes?.map((n) => ({ name: n.name, plugin: n.plugin, reasons: n.reasons })) };
        const want = { node: o.node, score: o.score, message: o.message, nodes: o.nodes };
        if (JSON.stringify(got) !== JSON.stringify(want)) differ.push(`${String(c['id'])}[${j}]: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
      });
    });
    expect(differ.slice(0, 5)).toEqual([]);
  });
  it('never gives a node more than it had free, of any resource or pod slot', () => {
    const over: string[] = [];
    for (const c of cases) {
      const nodes = c['nodes'] as JsonObject[];
      const before = nodeStates(nodes, (c['pods'] as JsonObject[] | undefined) ?? []);
      const after = nodeStates(nodes, (c['pods'] as JsonObject[] | undefined) ?? []);
      placeInOrder(c['queue'] as JsonObject[], after, nodes);
      after.forEach((n, i) => {
        const b = before[i]!;
        if (n.pods > b.pods && BigInt(n.pods) > (n.allocatable.get('pods') ?? 0n)) over.push(`${String(c['id'])} ${n.name}: pods`);
        for (const [k, v] of n.requested) {
          const added = v - (b.requested.get(k) ?? 0n);
          const free = (n.allocatable.get(k) ?? 0n) - (b.requested.get(k) ?? 0n);
          if (added > 0n && added > (free < 0n ? 0n : free)) over.push(`${String(c['id'])} ${n.name}: ${k}`);
        }
      });
    }
    expect(over).toEqual([]);
  });
});

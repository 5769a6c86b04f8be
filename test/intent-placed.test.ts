/**
 * `itgen select` with the cluster's nodes (test/fixtures/intent-corpus/placed/): every answer's
 * launcher pod fits a node, and the nodes itgen names are those kube-scheduler's filters pass
 * (kube-oracle, Kubernetes v1.36.4).
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openProject } from '../src/project';
import { choose, type ChooseAsk } from '../src/workflows/choose';
import { removeDir } from './helpers';
import { readJsonLines } from './preview-corpus';

const dir = path.join(__dirname, 'fixtures', 'intent-corpus', 'placed');

describe('select with nodes: the answer fits, where kube-scheduler says', () => {
  const asks = readJsonLines(path.join(dir, 'asks.jsonl.gz')) as {
    id: string;
    ask: ChooseAsk;
    answer?: { instancetype: string; preference: string; fits: string[] };
  }[];
  const kube = new Map((readJsonLines(path.join(dir, 'answers.jsonl.gz')) as { id: string; nodes: { name: string; fits: boolean }[] }[]).map((a) => [a.id, a]));
  const work = mkdtempSync(path.join(os.tmpdir(), 'itgen-placed-'));
  const files: readonly (readonly [string, string])[] = [
    ['reference/common-instancetypes/common-instancetypes-all-bundle.yaml', 'bundle.yaml'],
    ['fixtures/fit/nodes.yaml', 'nodes.yaml'],
    ['fixtures/fit/pods.yaml', 'pods.yaml'],
  ];
  for (const [from, to] of files) copyFileSync(path.join(__dirname, from), path.join(work, to));
  const project = openProject({ root: work, cwd: work, with: ['bundle.yaml'] });
  afterAll(() => removeDir(work));

  it('covers at least 100 placed answers', () => {
    expect(asks.filter((a) => a.answer).length).toBeGreaterThanOrEqual(100);
  });

  it("names the nodes kube-scheduler's filters pass for each answer", () => {
    const wrong = asks
      .filter((a) => a.answer)
      .filter((a) => {
        const k = kube
          .get(a.id)!
          .nodes.filter((n) => n.fits)
          .map((n) => n.name)
          .sort();
        return k.length === 0 || JSON.stringify(k) !== JSON.stringify([...a.answer!.fits].sort());
      });
    expect(wrong.map((a) => a.id)).toEqual([]);
  });

  it('answers each ask as recorded (a sample of 30)', () => {
    for (const a of asks.slice(0, 30)) {
      const r = choose(project, a.ask);
      expect([a.id, r.answer?.instancetype.name, r.answer?.fits]).toEqual([a.id, a.answer?.instancetype, a.answer?.fits]);
    }
  });
});

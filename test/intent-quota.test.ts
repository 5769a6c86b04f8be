/**
 * `itgen select` in a namespace with a ResourceQuota (test/fixtures/intent-corpus/quota/): the answer's
 * launcher pod is one kube-apiserver's quota admission admits, and a candidate itgen passes over for
 * the quota is refused in the API server's own words (kube-oracle).
 */
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openProject } from '../src/project';
import { choose, type ChooseAsk } from '../src/workflows/choose';
import { removeDir, UPSTREAM_BUNDLE } from './helpers';
import { readJsonLines } from './preview-corpus';

const dir = path.join(__dirname, 'fixtures', 'intent-corpus', 'quota');

describe("select with a namespace's quota: what kube-apiserver's ResourceQuota admission says", () => {
  const asks = new Map(
    (
      readJsonLines(path.join(dir, 'asks.jsonl.gz')) as {
        id: string;
        ask: ChooseAsk;
        quota: object;
        answer?: string;
        passedForQuota: { instancetype: string; reason: string }[];
      }[]
    ).map((a) => [a.id, a]),
  );
  const answers = readJsonLines(path.join(dir, 'answers.jsonl.gz')) as { id: string; allowed: boolean; message?: string }[];

  it('covers answers admitted and candidates refused', () => {
    expect(answers.filter((a) => a.id.endsWith('/answer')).length).toBeGreaterThanOrEqual(50);
    expect(answers.filter((a) => !a.id.endsWith('/answer')).length).toBeGreaterThanOrEqual(20);
  });

  it('every answer is admitted, every candidate passed over is refused in the same words', () => {
    const wrong = answers.filter((a) => {
      const [id, what] = a.id.split('/') as [string, string];
      if (what === 'answer') return !a.allowed;
      const p = asks.get(id)!.passedForQuota.find((x) => x.instancetype === what)!;
      return a.allowed || `the namespace's quota refuses its launcher pod: ${a.message}` !== p.reason;
    });
    expect(wrong.map((a) => a.id)).toEqual([]);
  });

  it('answers as recorded (a sample of 12 asks, each in its own namespace quota)', () => {
    for (const a of [...asks.values()].slice(0, 12)) {
      const work = mkdtempSync(path.join(os.tmpdir(), 'itgen-quota-'));
      try {
        copyFileSync(UPSTREAM_BUNDLE, path.join(work, 'bundle.yaml'));
        writeFileSync(path.join(work, 'quota.yaml'), JSON.stringify(a.quota));
        const r = choose(openProject({ root: work, cwd: work, with: ['bundle.yaml', 'quota.yaml'] }), a.ask);
        expect([a.id, r.answer?.instancetype.name, r.passedOver.filter((p) => p.reason.startsWith("the namespace's quota"))]).toEqual([
          a.id,
          a.answer,
          a.passedForQuota,
        ]);
      } finally {
        removeDir(work);
      }
    }
  });
});

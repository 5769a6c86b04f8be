/**
 * `itgen select` deciding by intent (test/fixtures/intent-corpus/README.md): 600 asks replayed; every
 * answer and every alternative a refusal offers is a pair KubeVirt admits (itgen-oracle), and every
 * refusal names what to ask instead.
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openProject } from '../src/project';
import { chooseData, chooseIn, type ChooseAsk, type ChooseData } from '../src/workflows/choose';
import { removeDir, UPSTREAM_BUNDLE } from './helpers';
import { readJsonLines } from './preview-corpus';

const dir = path.join(__dirname, 'fixtures', 'intent-corpus');

interface Ask {
  id: string;
  ask: ChooseAsk;
  answer?: { instancetype: string; preference: string; pair: string };
  alternatives?: { instancetype: string; preference: string; pair: string }[];
  refused?: string;
}

describe('the intent corpus: select decides, KubeVirt admits', () => {
  const asks = readJsonLines(path.join(dir, 'asks.jsonl.gz')) as Ask[];
  const admitted = new Map(
    (readJsonLines(path.join(dir, 'answers.jsonl.gz')) as { id: string; admit?: { admitted: boolean } }[]).map((a) => [a.id, a.admit?.admitted === true]),
  );
  const work = mkdtempSync(path.join(os.tmpdir(), 'itgen-intents-'));
  copyFileSync(UPSTREAM_BUNDLE, path.join(work, 'bundle.yaml'));
  const read = chooseData(openProject({ root: work, cwd: work, with: ['bundle.yaml'] }));
  afterAll(() => removeDir(work));
  const decide = (ask: ChooseAsk): ReturnType<typeof chooseIn> => chooseIn(read as ChooseData, ask);

  it('has at least 500 asks: answered, refused with alternatives, and refused words', () => {
    expect(asks.length).toBeGreaterThanOrEqual(500);
    expect(asks.filter((a) => a.answer).length).toBeGreaterThan(200);
    expect(asks.filter((a) => a.alternatives).length).toBeGreaterThan(100);
  });

  it('answers every ask as recorded', () => {
    const differ: string[] = [];
    for (const a of asks) {
      const r = decide(a.ask);
      const now = r.answer ? `${r.answer.instancetype.name}/${r.answer.preference}` : `refused: ${r.diagnostics.find((d) => d.severity === 'error')?.message}`;
      const then = a.answer ? `${a.answer.instancetype}/${a.answer.preference}` : `refused: ${a.refused}`;
      if (now !== then) differ.push(`${a.id} ${JSON.stringify(a.ask)}: ${then} -> ${now}`);
    }
    expect(differ.slice(0, 10)).toEqual([]);
  });

  it('every answer and every alternative is a pair KubeVirt admits', () => {
    const refused = asks.flatMap((a) => [...(a.answer ? [a.answer] : []), ...(a.alternatives ?? [])]).filter((p) => admitted.get(p.pair) !== true);
    expect(refused.map((p) => `${p.instancetype}/${p.preference}`)).toEqual([]);
  });

  it('every refusal names alternatives: admitted pairs, or the words the catalog knows', () => {
    for (const a of asks.filter((x) => !x.answer)) {
      const r = decide(a.ask);
      const d = r.diagnostics.find((x) => x.severity === 'error')!;
      expect((r.refusal?.alternatives.length ?? 0) > 0 || /known: |preferences: |its preferences: /.test(d.hint ?? '')).toBe(true);
    }
  });

  it("the evaluation's asks: large is u1.large, compute a dedicated-CPU family, a 1-vCPU Windows 11 refused with u1.2xmedium first", () => {
    expect(decide({ os: 'fedora', size: 'large' }).answer?.instancetype.name).toBe('u1.large');
    expect(['compute.exclusive', 'dedicated.vcpu']).toContain(decide({ os: 'rhel', intent: 'compute' }).answer?.instancetype.class);
    const w = decide({ os: 'windows 11', cpu: '1' });
    expect(w.answer).toBeUndefined();
    expect(w.refusal?.alternatives[0]?.instancetype.name).toBe('u1.2xmedium');
    expect(w.refusal?.message).toContain('preference requires 2 vCPU');
  });
});

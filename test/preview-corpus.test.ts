/**
 * What a VM runs as, against KubeVirt's own answers (test/fixtures/preview-corpus/README.md): the
 * refusal at the same stage with the same words, else the VMI equal to KubeVirt's and the launcher
 * pod, reduced to what itgen renders, equal too.
 */
import path from 'node:path';
import { objectStore } from '../src/expand';
import type { JsonObject } from '../src/json';
import { jsonDiff, previewCase, projectPod, readJsonLines, replayPreview, replayVerdicts, type PreviewAnswer, type PreviewCase } from './preview-corpus';

const DIR = path.join(__dirname, 'fixtures', 'preview-corpus');

describe('the preview corpus (KubeVirt d923fdb815: start path, VMI webhooks, RenderLaunchManifest)', () => {
  const cases = readJsonLines(path.join(DIR, 'cases.jsonl.gz')) as (PreviewCase & { mode: string })[];
  const answers = new Map((readJsonLines(path.join(DIR, 'answers.jsonl.gz')) as PreviewAnswer[]).map((a) => [a.id, a]));
  const bundle = objectStore(cases[0]!.objects as JsonObject[]);
  const results = cases
    .filter((c) => c.mode === 'preview')
    .map((c) => {
      const a = answers.get(c.id)!;
      const r = previewCase(c, bundle);
      const why: string[] = [];
      if (a.error) {
        if (!('error' in r)) why.push(`KubeVirt refuses at ${a.error.stage} (${a.error.message}), itgen starts it`);
        else if (r.stage !== a.error.stage || r.error !== a.error.message)
          why.push(`KubeVirt: ${a.error.stage} ${a.error.message}; itgen: ${r.stage} ${r.error}`);
      } else if ('error' in r) why.push(`itgen refuses at ${r.stage}: ${r.error}`);
      else {
        why.push(...jsonDiff(r.vmi, a.vmi).map((d) => `vmi ${d}`));
        why.push(...jsonDiff(r.pod, projectPod(a.pod!, r.pod)).map((d) => `pod ${d}`));
        if (r.memoryOverhead !== a.memoryOverhead) why.push(`memoryOverhead: itgen ${r.memoryOverhead}, KubeVirt ${a.memoryOverhead}`);
      }
      return { id: c.id, refused: a.error !== undefined, why };
    });

  it('covers at least 2,000 cases, of them hundreds started and hundreds refused', () => {
    expect(results.length).toBeGreaterThanOrEqual(2000);
    expect(results.filter((r) => !r.refused).length).toBeGreaterThan(1000);
    expect(results.filter((r) => r.refused).length).toBeGreaterThan(300);
  });

  it('agrees with KubeVirt on every case: the refusal and its words, or the VMI, the pod and the memory overhead', () => {
    const disagreements = results.filter((r) => r.why.length > 0).map((r) => `${r.id}: ${r.why.slice(0, 3).join(' | ')}`);
    expect(disagreements.slice(0, 10)).toEqual([]);
  });
});

describe('the preview corpus answered by KubeVirt v1.8.4, v1.8.0, v1.7.4 and v1.6.6 (the VMI and the launcher pod of each started VM)', () => {
  it.each([
    ['v1.8.4', 'vmi'],
    ['v1.8.4', 'pod'],
    ['v1.8.0', 'vmi'],
    ['v1.8.0', 'pod'],
    ['v1.7.4', 'vmi'],
    ['v1.7.4', 'pod'],
    ['v1.6.6', 'vmi'],
    ['v1.6.6', 'pod'],
  ] as const)('answers as KubeVirt %s: the %s equal to the one that release creates', (release, which) => {
    const replayed = replayPreview(DIR, which, release, `answers-${release}.jsonl.gz`);
    if (which === 'vmi') {
      // And every case's verdict: started, or refused at the same stage in the same words.
      const verdicts = replayVerdicts(DIR, release, `answers-${release}.jsonl.gz`);
      expect(verdicts.cases).toBeGreaterThanOrEqual(4000);
      expect(verdicts.disagreements.slice(0, 5)).toEqual([]);
    }
    expect(replayed.length).toBeGreaterThan(2500);
    expect(
      replayed
        .filter((r) => !r.agree)
        .slice(0, 5)
        .map((r) => `${r.id}: ${r.why.slice(0, 3).join(' | ')}`),
    ).toEqual([]);
  });
});

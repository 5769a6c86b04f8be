/**
 * The same VMs answered by KubeVirt's own code at several releases (test/fixtures/release-answers/:
 * the oracle built at v1.6.6, v1.7.4, v1.8.0, v1.8.4 and the v1.9 line), replayed through itgen answering as each
 * release: the refusal at the same stage in the same words, or the start.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { objectStore } from '../src/expand';
import { previewVm } from '../src/expand/judge';
import { kubevirtConfig } from '../src/kubevirt/config';
import { readJsonLines, type PreviewCase } from './preview-corpus';

const DIR = path.join(__dirname, 'fixtures', 'release-answers');
const RELEASES: readonly [string, string][] = [
  ['v1.6.6', 'answers-v1.6.6.jsonl.gz'],
  ['v1.7.4', 'answers-v1.7.4.jsonl.gz'],
  ['v1.8.0', 'answers-v1.8.0.jsonl.gz'],
  ['v1.8.4', 'answers-v1.8.4.jsonl.gz'],
  ['v1.9.0', 'answers-v1.9.jsonl.gz'],
];

describe.each(RELEASES.filter(([, f]) => existsSync(path.join(DIR, f))))('answering as KubeVirt %s', (release, file) => {
  const cases = readJsonLines(path.join(DIR, 'cases.jsonl.gz')) as PreviewCase[];
  const answers = new Map((readJsonLines(path.join(DIR, file)) as { id: string; error?: { stage: string; message: string } }[]).map((a) => [a.id, a]));

  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const a = answers.get(c.id)!;
    const config = { ...kubevirtConfig(c.kubevirt).config, release };
    const r = previewVm(c.vm, objectStore([]), config, 'default');
    expect('error' in r ? { stage: r.stage, message: r.error } : null).toEqual(a.error ?? null);
  });
});

it('holds the answers of at least two releases', () => {
  expect(RELEASES.filter(([, f]) => existsSync(path.join(DIR, f))).length).toBeGreaterThanOrEqual(2);
});

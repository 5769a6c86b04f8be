/**
 * `itgen validate FILE` on instancetype objects with hand-made mistakes says what the Kubernetes API
 * server says, in its words, and then what KubeVirt's object webhook says: 1,000 cases made by
 * tools/apiserver-corpus.mjs (seed 7) from the upstream common-instancetypes bundle, answered by
 * itgen-apiserver (the API server's own CRD validation code) and itgen-oracle (KubeVirt's webhook),
 * both built from KubeVirt d923fdb815 (test/fixtures/apiserver-corpus/README.md).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { validateManifests } from '../src/admission';
import { objectStore } from '../src/expand';
import { parseSource } from '../src/load/source';
import { REPO } from './helpers';

interface Case {
  readonly id: string;
  readonly object: unknown;
}
interface Answer {
  readonly id: string;
  readonly strictErrors?: string[];
  readonly fieldErrors?: string[];
  readonly webhook?: { admitted: boolean; message?: string };
}

const DIR = path.join(REPO, 'test', 'fixtures', 'apiserver-corpus');
const lines = <T>(file: string): T[] =>
  gunzipSync(readFileSync(path.join(DIR, file)))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T);

/** Differences known and explained; the test fails on any other. */
const KNOWN: Readonly<Record<string, string>> = JSON.parse(readFileSync(path.join(DIR, 'known-differences.json'), 'utf8')) as Record<string, string>;

describe('the API server corpus', () => {
  const cases = lines<Case>('cases.jsonl.gz');
  const answers = new Map(lines<Answer>('answers.jsonl.gz').map((a) => [a.id, a]));

  it('gives the API server’s verdict and words on every case, then the webhook’s', () => {
    const report = { cases: 0, verdict: 0, words: 0, byStage: { strict: 0, field: 0, webhook: 0, admitted: 0 } };
    const differences: Record<string, string> = {};
    for (const c of cases) {
      const a = answers.get(c.id)!;
      const src = parseSource(`${c.id}.yaml`, Buffer.from(JSON.stringify(c.object)));
      const errors = validateManifests(src.docs, objectStore([]))
        .filter((d) => d.severity === 'error')
        .map((d) => d.message);
      const expected = a.strictErrors
        ? a.strictErrors.map((e) => `strict decoding error: ${e}`)
        : (a.fieldErrors ?? (a.webhook && !a.webhook.admitted ? [a.webhook.message ?? ''] : []));
      const stage = a.strictErrors ? 'strict' : a.fieldErrors ? 'field' : a.webhook && !a.webhook.admitted ? 'webhook' : 'admitted';
      report.cases++;
      report.byStage[stage]++;
      const verdict = expected.length > 0 === errors.length > 0;
      // The webhook stage gives one message among its causes; the API server's stages every error.
      const words =
        stage === 'webhook' ? expected.every((m) => errors.some((e) => e.includes(m))) : [...expected].sort().join('\n') === [...errors].sort().join('\n');
      if (verdict) report.verdict++;
      if (verdict && words) report.words++;
      else if (!Object.hasOwn(KNOWN, c.id)) differences[c.id] = `${stage}: expected ${JSON.stringify(expected)}, itgen ${JSON.stringify(errors)}`;
    }
    if (process.env['ITGEN_CORPUS_REPORT']) console.log(JSON.stringify(report, null, 2));
    expect(differences).toEqual({});
    expect(report.cases).toBe(1000);
  });
});

describe('the CRD schemas', () => {
  it("src/kubevirt/crd-schemas.ts is what tools/crd-schemas.mjs makes of KubeVirt's CRDs", () => {
    expect(spawnSync(process.execPath, [path.join(REPO, 'tools', 'crd-schemas.mjs'), '--check'], { encoding: 'utf8' }).status).toBe(0);
  });
});

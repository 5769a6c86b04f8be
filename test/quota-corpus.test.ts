/**
 * kubevirt/quota.ts against kube-apiserver's ResourceQuota admission (kube-oracle's `quota` mode,
 * CheckRequest from Kubernetes v1.36.4's libraries): 600 launcher pods and quotas
 * (test/fixtures/quota-corpus/README.md says how they were made and answered).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { JsonObject } from '../src/json';
import { admitToQuotas, quotaRoom, quotaState, resourceListText } from '../src/kubevirt/quota';

const DIR = path.join(__dirname, 'fixtures', 'quota-corpus');
const lines = (file: string): JsonObject[] =>
  gunzipSync(readFileSync(path.join(DIR, file)))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as JsonObject);

describe('launcher pods against namespace quotas, as kube-apiserver admits them', () => {
  const cases = lines('cases.jsonl.gz');
  const answers = lines('answers.jsonl.gz');
  it('holds admitted pods and every kind of refusal', () => {
    expect(cases.length).toBe(600);
    const kinds = new Set(answers.map((a) => (a['allowed'] ? 'allowed' : String(a['message']).replace(/^pods "[^"]*" is forbidden: ([a-z ]+).*$/s, '$1'))));
    expect([...kinds].sort()).toEqual(['allowed', 'exceeded quota', 'failed quota', 'status unknown for quota']);
  });
  it('gives the same verdict, the same words and the same usage after it', () => {
    const differ: string[] = [];
    cases.forEach((c, i) => {
      const a = answers[i]!;
      const v = admitToQuotas(c['pod'] as JsonObject, (c['quotas'] as JsonObject[]).map(quotaState));
      const got = v.allowed
        ? { allowed: true, used: Object.fromEntries([...(v.used ?? new Map())].map(([k, m]) => [k, resourceListText(m)])) }
        : { allowed: false, message: v.message };
      const want = a['allowed'] ? { allowed: true, used: a['used'] } : { allowed: false, message: a['message'] };
      if (JSON.stringify(got) !== JSON.stringify(want)) differ.push(`${String(c['id'])}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
    });
    expect(differ.slice(0, 5)).toEqual([]);
  });
  it('counts how many more the quotas admit as admitting them one by one does', () => {
    const differ: string[] = [];
    for (const c of cases.slice(0, 300)) {
      const pod = c['pod'] as JsonObject;
      const room = quotaRoom(pod, (c['quotas'] as JsonObject[]).map(quotaState));
      const states = (c['quotas'] as JsonObject[]).map(quotaState);
      let n = 0;
      let last: string | undefined;
      for (; n < 2000; n++) {
        const v = admitToQuotas(pod, states);
        if (!v.allowed) {
          last = v.message;
          break;
        }
      }
      const brute = n === 2000 ? {} : { more: n, ...(last !== undefined ? { message: last } : {}) };
      if (room.more !== undefined && room.more >= 2000) continue;
      if (JSON.stringify(room) !== JSON.stringify(brute)) differ.push(`${String(c['id'])}: ${JSON.stringify(room)} != ${JSON.stringify(brute)}`);
    }
    expect(differ.slice(0, 5)).toEqual([]);
  });
});

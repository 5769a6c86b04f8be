/**
 * The admission policies of a 10,000-type catalog against kube-apiserver's own limits and plugin
 * (test/fixtures/policy-scale/README.md): every policy accepted, every expression within CEL's
 * parser limit, every object within what etcd stores, and every denial carrying its message (the
 * suggestion within the per-call cost limit); and IT5019 where a catalog is past them.
 */
import path from 'node:path';
import type { JsonObject } from '../src/json';
import { policyBase } from '../src/policy/base';
import { CEL_EXPRESSION_LIMIT, OBJECT_LIMIT_BYTES } from '../src/policy/cel';
import { DEFAULT_POLICY_OPTIONS } from '../src/policy';
import { readJsonLines } from './preview-corpus';
import { policyDisagreements, replayPolicies } from './policy-corpus';

const DIR = path.join(__dirname, 'fixtures', 'policy-scale');

interface Limits {
  readonly expressions: { field: string; codePoints: number; error?: string }[];
  readonly objectBytes: number;
}

describe('the policies of a 10,000-type catalog (kube-apiserver v1.36.4)', () => {
  const { sets, cases } = replayPolicies(DIR);
  const answers = readJsonLines(`${DIR}/answers.jsonl.gz`) as { id: string; mode: string; limits?: Limits; causes?: string[] }[];
  const checks = answers.filter((a) => a.mode === 'vap-typecheck');

  it('are the ones generated today, accepted and type-checked without a warning', () => {
    expect(sets.map((s) => s.set)).toEqual(['scale-10000']);
    expect(sets.filter((s) => s.why.length > 0)).toEqual([]);
    expect(checks.length).toBe(4);
  });

  it("keep every expression under CEL's parser limit and every object under what etcd stores", () => {
    for (const a of checks) {
      expect(a.limits!.expressions.filter((e) => e.error !== undefined)).toEqual([]);
      expect(Math.max(...a.limits!.expressions.map((e) => e.codePoints))).toBeLessThan(CEL_EXPRESSION_LIMIT);
      expect(a.limits!.objectBytes).toBeLessThan(OBJECT_LIMIT_BYTES);
    }
    // What grows with the catalog is split: the catalog policy holds several name maps.
    const catalog = checks.find((a) => a.id.endsWith('.catalog'))!;
    expect(catalog.limits!.expressions.filter((e) => e.codePoints > 50_000).length).toBeGreaterThanOrEqual(2);
  });

  it('decides every request as the catalog means it, each denial with its message', () => {
    expect(cases.length).toBeGreaterThanOrEqual(300);
    expect(policyDisagreements(cases)).toEqual([]);
    const causes = answers.flatMap((a) => a.causes ?? []);
    // The suggestion, computed in kube-apiserver for the longest names it is given, survives.
    expect(causes.filter((c) => c.includes('; did you mean ')).length).toBeGreaterThan(50);
    // No denial fell back to the static message (what kube-apiserver says when a messageExpression fails).
    expect(causes.filter((c) => c.includes('this cluster does not have') || c.includes('the VM names a deprecated'))).toEqual([]);
  });
});

describe('IT5019: a catalog past what one policy object can hold', () => {
  it('is reported with the size and the limit, before anything is written', () => {
    const names = Array.from({ length: 70_000 }, (_, i) => `family-${Math.floor(i / 20)}.size-${i % 20}`);
    const base = policyBase('huge', { instancetypes: names.map((name) => ({ name })), preferences: [] }, { ...DEFAULT_POLICY_OPTIONS, prefix: 'itgen.huge' });
    expect(base.sizeProblems).toEqual([
      {
        policy: 'itgen.huge.catalog',
        field: 'metadata.name',
        message: expect.stringMatching(/^\d+ bytes as JSON; the API server stores at most 1572864 \(1\.5 MiB\) per object$/),
      },
    ]);
    const catalog = base.objects.find((o) => (o['metadata'] as JsonObject)['name'] === 'itgen.huge.catalog')!;
    // Every expression stays within CEL's limit even so: only the object is too large.
    for (const v of (catalog['spec'] as { variables: { expression: string }[] }).variables) expect([...v.expression].length).toBeLessThan(CEL_EXPRESSION_LIMIT);
  });
});

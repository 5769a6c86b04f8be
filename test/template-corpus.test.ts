/**
 * VirtualMachineTemplates processed as virt-template-engine processes them: the corpus
 * (test/fixtures/template-corpus/README.md) replayed against the engine's answers, and the
 * engine's own unit tests' inputs with their expectations.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Json } from '../src/json';
import { generateValue, GeneratorError, processTemplateDocument } from '../src/kubevirt/template';
import { replayTemplates } from './template-corpus';

const dir = path.join(__dirname, 'fixtures', 'template-corpus');

describe('the template corpus (virt-template-engine v0.2.0 as KubeVirt d923fdb815 vendors it)', () => {
  const results = replayTemplates(dir);

  it("src/kubevirt/template/vm-go-types.ts is what tools/vm-go-types.mjs makes of the oracle's Go types", () => {
    expect(spawnSync(process.execPath, [path.join(__dirname, '..', 'tools', 'vm-go-types.mjs'), '--check'], { encoding: 'utf8' }).status).toBe(0);
  });

  it('covers at least 1,000 cases and every stage', () => {
    expect(results.length).toBeGreaterThanOrEqual(1000);
    expect(new Set(results.map((r) => r.stage))).toEqual(new Set(['processed', 'decode', 'params-file', 'merge', 'references', 'process', 'generate']));
  });

  it('agrees with the engine on at least 99.5% of the cases, and differs only where the README says why', () => {
    const differ = results.filter((r) => !r.agree);
    // The one known difference: a plain YAML scalar holding U+2028 (go-yaml's YAML 1.1 breaks the line there; YAML 1.2 keeps the character).
    expect(differ.filter((r) => !r.yaml11Break).map((r) => `${r.id} ${r.category}: ${r.why}`.slice(0, 400))).toEqual([]);
    expect(1 - differ.length / results.length).toBeGreaterThanOrEqual(0.995);
  });
});

interface EngineTests {
  generator: { from: string; match?: string; error?: string }[];
  templates: {
    test: string;
    template: Json;
    params?: Record<string, string>;
    expect: { error?: string; warnings?: string[]; path?: string[]; value?: Json; values?: [string[], Json][] };
  }[];
}
const tests = JSON.parse(readFileSync(path.join(dir, 'engine-tests.json'), 'utf8')) as EngineTests;

describe("virt-template-engine's own tests, as itgen answers them", () => {
  it.each(tests.generator.map((t) => [t.from, t] as const))('generator: %s', (_from, t) => {
    if (t.error !== undefined) {
      expect(() => generateValue(t.from)).toThrow(new GeneratorError(t.error));
      return;
    }
    for (let i = 0; i < 20; i++) expect(generateValue(t.from).value).toMatch(new RegExp(t.match!));
  });

  it.each(tests.templates.map((t) => [t.test, t] as const))('%s', (_name, t) => {
    const r = processTemplateDocument(t.template, { params: new Map(Object.entries(t.params ?? {})), json: true });
    if (t.expect.warnings !== undefined) {
      const warned = r.warnings.filter((w) => w.kind === 'unused').map((w) => w.message);
      expect(warned).toHaveLength(t.expect.warnings.length);
      for (const w of t.expect.warnings) expect(warned.some((x) => x.includes(w))).toBe(true);
    }
    if (t.expect.error !== undefined) {
      expect(r.error?.message).toContain(t.expect.error);
      return;
    }
    expect(r.error).toBeUndefined();
    if (t.expect.values === undefined && t.expect.path === undefined) return;
    const at = (p: readonly string[]): Json | undefined =>
      p.reduce<Json | undefined>((o, k) => (o && typeof o === 'object' && !Array.isArray(o) ? o[k] : undefined), r.vm);
    const pairs: [string[], Json][] = t.expect.values ?? [[t.expect.path!, t.expect.value!]];
    for (const [p, v] of pairs) expect(at(p) ?? null).toEqual(v);
  });

  it('draws fresh values each time (the engine test draws 100 values of [a-z]{20}, all different)', () => {
    expect(new Set(Array.from({ length: 100 }, () => generateValue('[a-z]{20}').value)).size).toBe(100);
  });
});

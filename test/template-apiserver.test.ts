/**
 * A VirtualMachineTemplate as applied meets the API server before virt-template's webhook: strict
 * decoding and the template CRD's schema (the virt-template bundle KubeVirt d923fdb815 installs).
 * 400 templates with mistakes (tools/template-apiserver-corpus.mjs, seed 23), each held to
 * itgen-apiserver's verdict and words (test/fixtures/template-apiserver-corpus/README.md).
 */
import path from 'node:path';
import { templatesAsVms } from '../src/expand/templates';
import { parseSource } from '../src/load/source';
import { itgen } from './e2e-helpers';
import { REPO, removeDir, scratchProject } from './helpers';
import { readJsonLines } from './preview-corpus';
import { templateYaml } from './vm-samples';

const DIR = path.join(REPO, 'test', 'fixtures', 'template-apiserver-corpus');
const lines = <T>(file: string): T[] => readJsonLines(path.join(DIR, file)) as T[];

describe('a template as applied: the API server', () => {
  it("gives the API server's verdict and words on every template of the corpus", () => {
    const cases = lines<{ id: string; object: unknown }>('cases.jsonl.gz');
    const answers = new Map(lines<{ id: string; strictErrors?: string[]; fieldErrors?: string[]; error?: string }>('answers.jsonl.gz').map((a) => [a.id, a]));
    const stages = { strict: 0, field: 0, metadata: 0, stored: 0 };
    const differ: string[] = [];
    for (const c of cases) {
      const a = answers.get(c.id)!;
      const expected = a.strictErrors ? a.strictErrors.map((e) => `strict decoding error: ${e}`) : (a.fieldErrors ?? (a.error ? [a.error] : []));
      stages[a.strictErrors ? 'strict' : a.fieldErrors ? 'field' : a.error ? 'metadata' : 'stored']++;
      const src = parseSource(`${c.id}.yaml`, Buffer.from(JSON.stringify(c.object)));
      const mine = templatesAsVms(src.docs, ['v1.9.0'], 'webhook')
        .diagnostics.filter((d) => d.code === 'IT3001')
        .map((d) => d.message);
      if ([...mine].sort().join('\n') !== [...expected].sort().join('\n'))
        differ.push(`${c.id}: itgen ${JSON.stringify(mine)}, API server ${JSON.stringify(expected)}`);
    }
    expect(differ).toEqual([]);
    expect(cases.length).toBe(400);
    expect(Math.min(...Object.values(stages))).toBeGreaterThan(10);
  });

  it('validate: the refusal at the field, and the template not processed further', () => {
    const dir = scratchProject({
      'tpl.yaml': templateYaml('    - name: NAME\n      generate: Expression\n      from: vm-[a-z]{5}'),
    });
    try {
      const r = itgen(dir, 'validate', 'tpl.yaml');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('tpl.yaml:8:17 error IT3001 spec.parameters[0].generate: Unsupported value: "Expression": supported values: "expression"');
      expect(r.stderr).not.toContain('IT8401');
    } finally {
      removeDir(dir);
    }
  });
});

/**
 * A VirtualMachineTemplate as applied: `validate` says what virt-template's validating webhook says
 * (references refused in its words, a required parameter without value or generator a warning that
 * skips processing, a processing error as `processing validation failed`), held to the webhook's
 * answers on every template of the corpus (test/fixtures/template-corpus/webhook-answers.jsonl.gz).
 */
import path from 'node:path';
import { itgen } from './e2e-helpers';
import { removeDir, scratchProject, UPSTREAM_BUNDLE } from './helpers';
import { replayWebhook } from './template-corpus';
import { templateYaml } from './vm-samples';
import { copyFileSync } from 'node:fs';

const TEMPLATE = (parameters: string): string => templateYaml(parameters, { instancetype: 'u1.medium', preference: 'fedora' });

describe("a template as applied: virt-template's validating webhook", () => {
  it('answers every template of the corpus as the webhook does (stage, words, warnings)', () => {
    const results = replayWebhook(path.join(__dirname, 'fixtures', 'template-corpus'));
    expect(results.length).toBeGreaterThan(1300);
    expect(new Set(results.map((r) => r.stage))).toEqual(new Set(['processed', 'references', 'skipped', 'process']));
    const differ = results.filter((r) => !r.agree);
    // As with virtctl's corpus: only a plain YAML scalar holding U+2028 (YAML 1.1 against 1.2) may differ.
    expect(differ.filter((r) => !r.yaml11Break).map((r) => `${r.id} ${r.category}: ${r.why}`.slice(0, 400))).toEqual([]);
  });

  it('validate: a required parameter without a value is a warning and its VM is not judged; a failing default is refused in the webhook words', () => {
    const dir = scratchProject({
      'required.yaml': TEMPLATE('    - name: NAME\n      required: true'),
      'bad.yaml': TEMPLATE('    - name: NAME\n      generate: expression\n      from: vm-[a-z]{x}'),
    });
    copyFileSync(UPSTREAM_BUNDLE, path.join(dir, 'bundle.yaml'));
    try {
      const ok = itgen(dir, 'validate', 'required.yaml', '--with', 'bundle.yaml');
      expect(ok.code).toBe(0);
      expect(ok.stderr).toContain('required.yaml:7:13 warning IT8405 processing validation skipped: required parameter "NAME" has neither value nor generator');
      // template process is virtctl: there the parameter must be given.
      expect(itgen(dir, 'template', 'process', 'required.yaml').stderr).toContain('error processing VirtualMachineTemplate locally:');
      expect(itgen(dir, 'template', 'process', 'required.yaml', '-p', 'NAME=db').code).toBe(0);
      const bad = itgen(dir, 'validate', 'bad.yaml', '--with', 'bundle.yaml');
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain(
        `bad.yaml:9:7 error IT8401 processing validation failed: spec.parameters[0].from: Invalid value: "vm-[a-z]{x}": malformed length syntax: strconv.Atoi: parsing "x": invalid syntax`,
      );
    } finally {
      removeDir(dir);
    }
  });
});

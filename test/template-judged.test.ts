/**
 * A template's VM judged as the one judge judges VM files (test/fixtures/template-corpus/judged/):
 * templates over the upstream catalog, processed by itgen's engine with the judge's fixed draw, the
 * VM each makes sent to KubeVirt's start path (itgen-oracle `preview`: VM webhooks, start, VMI
 * webhooks, render) with the upstream bundle. itgen's verdict on the VM and on the template file
 * (`validate`: processed, then judged, findings at the template's lines) are both KubeVirt's.
 */
import path from 'node:path';
import { validateManifests } from '../src/admission';
import { objectStore } from '../src/expand';
import { templatesAsVms } from '../src/expand/templates';
import type { JsonObject } from '../src/json';
import { parseSource } from '../src/load/source';
import { replayAdmission } from './admission-corpus';
import { readJsonLines } from './preview-corpus';

const dir = path.join(__dirname, 'fixtures', 'template-corpus', 'judged');

describe("templates' VMs judged as VM files (KubeVirt d923fdb815's start path)", () => {
  const cases = readJsonLines(`${dir}/cases.jsonl.gz`) as { id: string; mode: string; vm?: JsonObject; objects?: JsonObject[] }[];
  const answers = new Map((readJsonLines(`${dir}/answers.jsonl.gz`) as { id: string; error?: { stage: string; message: string } }[]).map((a) => [a.id, a]));
  const templates = readJsonLines(`${dir}/templates.jsonl.gz`) as { id: string; template: string }[];
  const store = { ...objectStore(cases[0]!.objects!), storageClassesGiven: true, networkAttachmentDefinitionsGiven: true };

  it('covers at least 500 templates, admitted and refused', () => {
    expect(templates.length).toBeGreaterThanOrEqual(500);
    const stages = new Set(templates.map((t) => answers.get(t.id)?.error?.stage ?? 'started'));
    expect(stages.has('started') && stages.has('admit')).toBe(true);
  });

  it("KubeVirt's verdict on each VM is itgen's (the one judge's path for a VM)", () => {
    const results = replayAdmission(dir);
    expect(results.filter((r) => !r.agree).map((r) => `${r.id}: ${r.why}`.slice(0, 300))).toEqual([]);
  });

  it('validate of the template file processes it to the same VM and refuses it exactly where KubeVirt does, at the template', () => {
    const vms = new Map(cases.filter((c) => c.mode === 'preview').map((c) => [c.id, c.vm!]));
    const wrong: string[] = [];
    for (const t of templates) {
      const src = parseSource(`${t.id}.yaml`, Buffer.from(t.template));
      const templated = templatesAsVms(src.docs);
      const vm = templated.docs[0]?.value;
      if (JSON.stringify(vm) !== JSON.stringify(vms.get(t.id))) wrong.push(`${t.id}: another VM`);
      const errors = validateManifests(templated.docs, store).filter((d) => d.severity === 'error');
      const refused = answers.get(t.id)?.error !== undefined;
      if (refused !== errors.length > 0)
        wrong.push(`${t.id}: KubeVirt ${refused ? `refuses (${answers.get(t.id)!.error!.message})` : 'starts it'}; itgen ${errors[0]?.message ?? 'admits'}`);
      else if (refused && !errors.some((d) => d.message.includes(answers.get(t.id)!.error!.message.slice(0, 60))))
        wrong.push(`${t.id}: KubeVirt's words ${answers.get(t.id)!.error!.message} not in ${errors[0]!.message}`);
      if (errors.some((d) => d.location?.file !== `${t.id}.yaml`)) wrong.push(`${t.id}: a finding outside the template`);
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });
});

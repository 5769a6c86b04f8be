/**
 * `migrate templates`: common-templates' Windows templates (test/fixtures/common-templates/) as
 * VirtualMachineTemplates naming the upstream catalog's instance types and preferences, and the
 * proof: the VMI fields itgen says differ between the old template's VM and the new one's are the
 * fields where KubeVirt's own VMIs for the two differ (itgen-oracle `preview`, in a cluster with the
 * DataVolumes' claims and a default StorageClass).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { objectStore } from '../src/expand';
import type { JsonObject } from '../src/json';
import { KUBEVIRT_DEFAULTS } from '../src/kubevirt/config';
import { parseSource } from '../src/load/source';
import { compareSpecs } from '../src/migrate/compare';
import { convertTemplate, migrateTemplates, preferenceFor, validationMinimums } from '../src/migrate/templates';
import { processTemplateDocument } from '../src/kubevirt/template';
import { itgen } from './e2e-helpers';
import { removeDir, scratchProject, UPSTREAM_BUNDLE } from './helpers';
import { readJsonLines } from './preview-corpus';
import YAML from 'yaml';

const FIXTURES = path.join(__dirname, 'fixtures', 'common-templates');
const RENDERED = path.join(FIXTURES, 'rendered');
const cases = readJsonLines(path.join(FIXTURES, 'migration', 'cases.jsonl.gz')) as { id: string; objects?: JsonObject[] }[];
const answers = new Map((readJsonLines(path.join(FIXTURES, 'migration', 'answers.jsonl.gz')) as { id: string; vmi?: JsonObject }[]).map((a) => [a.id, a]));
const bundle = cases[0]!.objects!;

describe('migrate templates (common-templates, rendered at 9e21fc2)', () => {
  const files = readdirSync(RENDERED).sort();

  it('maps each OS to its preference, and reads the validations', () => {
    const names = new Set(['windows.11', 'windows.10', 'windows.2k22', 'rhel.9', 'centos.stream9', 'fedora', 'windows.11.arm64']);
    expect(preferenceFor('win11', 'amd64', names)).toBe('windows.11');
    expect(preferenceFor('win2k22', 'amd64', names)).toBe('windows.2k22');
    expect(preferenceFor('rhel9.4', 'amd64', names)).toBe('rhel.9');
    expect(preferenceFor('centos-stream9', 'amd64', names)).toBe('centos.stream9');
    expect(preferenceFor('fedora', 'amd64', names)).toBe('fedora');
    expect(preferenceFor('win11', 'arm64', names)).toBe('windows.11.arm64');
    expect(preferenceFor('plan9', 'amd64', names)).toBeUndefined();
    const t = YAML.parse(readFileSync(path.join(RENDERED, 'windows11-desktop-medium.yaml'), 'utf8')) as JsonObject;
    const converted = convertTemplate(t);
    expect('template' in converted).toBe(true);
    const vm = processTemplateDocument((converted as { template: JsonObject }).template, { pick: () => 0 }).vm!;
    expect(validationMinimums(vm)).toEqual({ memory: 4294967296, cores: 2 });
  });

  it('migrates every template, and the VMI differences it reports are the ones KubeVirt shows', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const id = file.replace(/\.yaml$/, '');
      const before = answers.get(`${id}/before`)?.vmi;
      const after = answers.get(`${id}/after`)?.vmi;
      const claims = cases.filter((c) => c.id.startsWith(`${id}/`)).flatMap((c) => c.objects ?? []);
      const store = { ...objectStore([...bundle, ...claims]), storageClassesGiven: true };
      const docs = parseSource(file, readFileSync(path.join(RENDERED, file))).docs;
      const r = migrateTemplates(docs, { store, judging: { configs: [KUBEVIRT_DEFAULTS], defaultsOnly: true }, config: KUBEVIRT_DEFAULTS });
      const m = r.migrated[0];
      if (!m?.template || !before || !after) {
        wrong.push(`${id}: not migrated or not started (${r.diagnostics.map((d) => d.message).join('; ')})`);
        continue;
      }
      const kubevirt = compareSpecs(before['spec'] as JsonObject, after['spec'] as JsonObject).map(
        (d) => `${d.field}=${JSON.stringify(d.before)}->${JSON.stringify(d.after)}`,
      );
      const mine = m.differences.map((d) => `${d.field}=${JSON.stringify(d.before)}->${JSON.stringify(d.after)}`);
      if (JSON.stringify(kubevirt) !== JSON.stringify(mine)) wrong.push(`${id}: KubeVirt ${kubevirt.join(', ')} | itgen ${mine.join(', ')}`);
    }
    expect(wrong).toEqual([]);
  });

  it('the medium Windows 11 desktop becomes windows.11 with u1.2xmedium (4Gi, 2 vCPUs: the validations), its VM without a size of its own', () => {
    const dir = scratchProject({});
    try {
      const r = itgen(dir, 'migrate', 'templates', path.join(RENDERED, 'windows11-desktop-medium.yaml'), '--with', UPSTREAM_BUNDLE, '-o', 'json');
      expect(r.code).toBe(0);
      const [m] = JSON.parse(r.stdout) as { preference: string; instancetype: string; template: JsonObject }[];
      expect(m!.preference).toBe('windows.11');
      expect(m!.instancetype).toBe('u1.2xmedium');
      const text = JSON.stringify(m!.template);
      expect(text).toContain('"name":"${INSTANCETYPE}"');
      expect(text).not.toContain('"sockets"');
      expect(text).not.toContain('vm.kubevirt.io/validations');
      expect(r.stderr).toContain('warning IT8211');
    } finally {
      removeDir(dir);
    }
  });
});

describe('migrate templates: what cannot be migrated as is', () => {
  const BUNDLE = UPSTREAM_BUNDLE;
  const template = (os: string, cpu: string, extra = ''): string => `apiVersion: template.openshift.io/v1
kind: Template
metadata:
  name: t-${os}
  labels:
    os.template.kubevirt.io/${os}: "true"
objects:
- apiVersion: kubevirt.io/v1
  kind: VirtualMachine
  metadata:
    name: \${NAME}
    annotations:
      vm.kubevirt.io/validations: |
        [{"name": "minimal-required-memory", "path": "jsonpath::.spec.domain.memory.guest", "rule": "integer", "message": "more memory", "min": 17179869184}]
  spec:
    runStrategy: Halted
    template:
      spec:
        domain:
          cpu: {${cpu}}
          memory:
            guest: 2Gi
          devices: {}
${extra}parameters:
- name: NAME
  generate: expression
  from: "vm-[a-z0-9]{5}"
`;

  it('IT8208 two objects, IT8209 an OS without a preference, IT8210 a size no instance type has, IT8212 minimums above the preference', () => {
    const dir = scratchProject({
      'two.yaml': template('fedora', 'cores: 1', '- apiVersion: v1\n  kind: Service\n  metadata:\n    name: x\n'),
      'plan9.yaml': template('plan9', 'cores: 1'),
      'huge.yaml': template('fedora', 'cores: 1000'),
      'fedora.yaml': template('fedora', 'cores: 1'),
    });
    try {
      const run = (file: string): string => itgen(dir, 'migrate', 'templates', file, '--with', BUNDLE).stderr;
      expect(run('two.yaml')).toContain('error IT8208 Template `t-fedora`: template must contain exactly one object, found 2');
      expect(run('plan9.yaml')).toContain('error IT8209 Template `t-plan9`: no preference of the catalog for `plan9` on amd64');
      expect(run('huge.yaml')).toContain('error IT8210 Template `t-fedora`: no instance type of the catalog has 1000 vCPUs');
      const fedora = run('fedora.yaml');
      expect(fedora).toContain(
        'warning IT8212 Template `t-fedora`: its validations ask for 17179869184 bytes of memory, more than the preference `fedora` requires',
      );
      expect(fedora).not.toContain(' error ');
    } finally {
      removeDir(dir);
    }
  });
});

#!/usr/bin/env node
// The VirtualMachineTemplate corpus: templates and parameters that exercise every step of
// `virtctl template process --local` (decode, merge, references, generate, substitute, namespace,
// convert, message), near-misses of each, templates made from the upstream catalog's names, and
// virt-template-engine's own unit tests' inputs (staging/src/kubevirt.io/virt-template-engine at
// v0.2.0), answered by itgen-oracle's `template` and `generate` modes.
//   node tools/template-corpus.mjs gen DIR [--seed 21] [--count 1200]
//   ORACLE=.../itgen-oracle node tools/template-corpus.mjs answer DIR
//   ORACLE=.../itgen-oracle node tools/template-corpus.mjs webhook DIR   (each case's template as
//     applied: virt-template's validating webhook, DIR/webhook-answers.jsonl.gz)
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { createRequire } from 'node:module';
import { gunzipSync, gzipSync } from 'node:zlib';
import { answerWithKubevirtOracle, corpusCommandLine, runOracle, seeded } from './corpus-kit.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { mode, dir, opt } = corpusCommandLine();
if (!dir || !['gen', 'answer', 'webhook', 'judged', 'migrated'].includes(mode)) {
  console.error('usage: template-corpus.mjs gen|answer|webhook|judged|migrated DIR [--seed N] [--count N] [--templates FILE] [--rendered DIR]');
  process.exit(1);
}
if (mode === 'answer') {
  answerWithKubevirtOracle(dir);
  process.exit(0);
}
if (mode === 'webhook') {
  const cases = gunzipSync(readFileSync(path.join(dir, 'cases.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((c) => c.mode === 'template');
  const input = cases.map((c) => JSON.stringify({ id: c.id, mode: 'template', door: 'webhook', template: c.template })).join('\n');
  const answers = runOracle(process.env.ORACLE, `${input}\n`, 'ORACLE (itgen-oracle)');
  writeFileSync(path.join(dir, 'webhook-answers.jsonl.gz'), gzipSync(answers));
  console.log(`${cases.length} answers`);
  process.exit(0);
}

const { rnd, pick, chance } = seeded(Number(opt('--seed', '21')));
const count = Number(opt('--count', '1200'));
const bundle = YAML.parseAllDocuments(readFileSync(path.join(repo, 'test/reference/common-instancetypes/common-instancetypes-all-bundle.yaml'), 'utf8')).map(
  (d) => d.toJS(),
);
const instancetypes = bundle.filter((o) => o?.kind === 'VirtualMachineClusterInstancetype').map((o) => o.metadata.name);
const preferences = bundle.filter((o) => o?.kind === 'VirtualMachineClusterPreference').map((o) => o.metadata.name);

/** A sound template: a VM named by a generated NAME, with the instance type and preference as parameters. */
function baseTemplate(apiVersion = pick(['template.kubevirt.io/v1beta1', 'template.kubevirt.io/v1alpha1'])) {
  const it = pick(instancetypes);
  const pref = pick(preferences);
  return {
    apiVersion,
    kind: 'VirtualMachineTemplate',
    metadata: { name: `tpl-${Math.floor(rnd() * 1e6)}`, ...(chance(0.3) ? { namespace: 'templates' } : {}) },
    spec: {
      ...(chance(0.6) ? { message: pick(['VM ${NAME} is ready', 'Log in to ${NAME} with virtctl console', 'Created from ${INSTANCETYPE}']) } : {}),
      parameters: [
        { name: 'NAME', description: 'VM name', generate: 'expression', from: pick(['vm-[a-z0-9]{5}', 'app-[a-z]{8}', '[a-z]{3}-[0-9]{4}']) },
        { name: 'INSTANCETYPE', value: it },
        { name: 'PREFERENCE', value: pref },
        ...(chance(0.4) ? [{ name: 'DISK_IMAGE', value: 'quay.io/containerdisks/fedora:latest', required: true }] : []),
      ],
      virtualMachine: {
        apiVersion: 'kubevirt.io/v1',
        kind: 'VirtualMachine',
        metadata: {
          name: '${NAME}',
          ...(chance(0.3) ? { namespace: pick(['default', 'hardcoded', '${NAMESPACE}']) } : {}),
          ...(chance(0.3) ? { labels: { app: '${NAME}' } } : {}),
        },
        spec: {
          runStrategy: pick(['Always', 'Halted', 'Manual', 'RerunOnFailure']),
          instancetype: { kind: 'VirtualMachineClusterInstancetype', name: '${INSTANCETYPE}' },
          preference: { kind: 'VirtualMachineClusterPreference', name: '${PREFERENCE}' },
          template: {
            metadata: chance(0.3) ? { labels: { 'kubevirt.io/domain': '${NAME}' } } : {},
            spec: {
              domain: { devices: chance(0.5) ? { disks: [{ name: 'rootdisk' }] } : {} },
              volumes: [{ name: 'rootdisk', containerDisk: { image: '${DISK_IMAGE}' } }],
            },
          },
        },
      },
    },
  };
}

/** The template with its parameters fixed up: DISK_IMAGE and NAMESPACE declared when used. */
function declareUsed(t) {
  if (!Array.isArray(t.spec?.parameters) || !t.spec.virtualMachine || typeof t.spec.virtualMachine !== 'object') return t;
  const text = JSON.stringify(t.spec.virtualMachine) + (t.spec.message ?? '');
  const names = new Set(t.spec.parameters.map((p) => p.name));
  if (text.includes('${DISK_IMAGE}') && !names.has('DISK_IMAGE'))
    t.spec.parameters.push({ name: 'DISK_IMAGE', value: 'quay.io/containerdisks/centos-stream:9' });
  if (text.includes('${NAMESPACE}') && !names.has('NAMESPACE')) t.spec.parameters.push({ name: 'NAMESPACE', value: pick(['default', 'apps', '']) });
  return t;
}

const vmSpec = (t) => t.spec.virtualMachine.spec.template.spec;
const param = (t, name) => t.spec.parameters.find((p) => p.name === name);

// Each mutation: [category, function(template) -> { template, params?, paramsFile?, json? } | template].
const MUTATIONS = [
  ['sound', (t) => t],
  ['sound-given-params', (t) => ({ template: t, params: { INSTANCETYPE: pick(instancetypes), PREFERENCE: pick(preferences) } })],
  ['sound-given-name', (t) => ({ template: t, params: { NAME: pick(['my-vm', 'db-0', 'x']) } })],
  ['merge-undeclared', (t) => ({ template: t, params: { [pick(['INSTANCE_TYPE', 'instancetype', 'NAMES', 'CPU'])]: 'u1.small' } })],
  ['params-file', (t) => ({ template: t, paramsFile: `INSTANCETYPE: ${pick(instancetypes)}\nPREFERENCE: ${pick(preferences)}\n` })],
  ['params-file-json', (t) => ({ template: t, paramsFile: JSON.stringify({ INSTANCETYPE: pick(instancetypes) }) })],
  [
    'params-file-number',
    (t) => ({
      template: t,
      paramsFile: chance(0.5) ? `INSTANCETYPE: ${pick(['5', '1.5', 'true', '1e6', '0.1'])}\n` : `{"INSTANCETYPE": ${pick(['5', 'true', '["a"]', 'null'])}}`,
    }),
  ],
  ['params-file-undeclared', (t) => ({ template: t, paramsFile: 'NOT_THERE: x\n' })],
  [
    'reference-undeclared-vm',
    (t) => {
      t.spec.virtualMachine.spec.instancetype.name = pick(['${INSTANCE_TYPE}', '${it}', '${SIZE}']);
      return t;
    },
  ],
  [
    'reference-undeclared-message',
    (t) => {
      t.spec.message = 'Connect to ${HOSTNAME}';
      return t;
    },
  ],
  [
    'reference-undeclared-key',
    (t) => {
      t.spec.virtualMachine.metadata.annotations = { '${KEY}': 'v' };
      return t;
    },
  ],
  [
    'reference-undeclared-two',
    (t) => {
      t.spec.virtualMachine.spec.instancetype.name = '${A_SIZE}';
      t.spec.virtualMachine.spec.preference.name = '${B_OS}';
      return t;
    },
  ],
  [
    'unused-parameter',
    (t) => {
      t.spec.parameters.push({ name: pick(['UNUSED', 'CPU_COUNT', 'Z']), value: 'x' });
      return t;
    },
  ],
  [
    'duplicate-parameter',
    (t) => {
      t.spec.parameters.push({ name: 'INSTANCETYPE', value: pick(instancetypes) });
      return t;
    },
  ],
  [
    'empty-parameter-name',
    (t) => {
      t.spec.parameters.push({ name: '', value: 'x' });
      return t;
    },
  ],
  [
    'missing-parameter-name',
    (t) => {
      t.spec.parameters.push({ value: 'x' });
      return t;
    },
  ],
  [
    'required-missing',
    (t) => {
      t.spec.parameters.push({ name: 'DISK_IMAGE', required: true });
      t.spec.parameters = t.spec.parameters.filter((p, i, all) => all.findIndex((q) => q.name === p.name) === i || p.value === undefined);
      const first = t.spec.parameters.findIndex((p) => p.name === 'DISK_IMAGE');
      t.spec.parameters[first] = { name: 'DISK_IMAGE', required: true };
      t.spec.parameters = t.spec.parameters.filter((p, i) => p.name !== 'DISK_IMAGE' || i === first);
      return t;
    },
  ],
  [
    'required-given',
    (t) => {
      t.spec.parameters = t.spec.parameters.filter((p) => p.name !== 'DISK_IMAGE');
      t.spec.parameters.push({ name: 'DISK_IMAGE', required: true });
      return { template: t, params: { DISK_IMAGE: 'quay.io/containerdisks/ubuntu:24.04' } };
    },
  ],
  [
    'required-generated',
    (t) => {
      param(t, 'NAME').required = true;
      return t;
    },
  ],
  [
    'generator-unknown',
    (t) => {
      param(t, 'NAME').generate = pick(['random', 'Expression', 'regex']);
      return t;
    },
  ],
  [
    'generator-no-from',
    (t) => {
      delete param(t, 'NAME').from;
      return t;
    },
  ],
  [
    'generator-value-wins',
    (t) => {
      param(t, 'NAME').value = 'fixed-name';
      return t;
    },
  ],
  [
    'generator-expression',
    (t) => {
      param(t, 'NAME').from = pick([
        'vm-[a-z]{0}',
        'vm-[a-z]{256}',
        'vm-[a-z]{255}',
        'vm-[a-z]{abc}',
        'vm-[a-z]{99999999999999999999}',
        'vm-[z-a]{3}',
        'vm-[a-]{3}',
        'vm-[--a]{3}',
        'vm-[\\w]{6}',
        'vm-[\\d]{6}',
        'vm-[\\a]{6}',
        'vm-[\\A]{6}',
        'vm-[\\x]{6}',
        'vm-[a-zA-Z0-9]{8}',
        'vm-[0-1]{8}',
        '[a]{10}',
        'vm-[a-z]{2}-[0-9]{3}',
        'vm-[invalid',
        'plain-name',
        'vm-[]{3}',
        'vm-[a-z]{08}',
        'vm-[a-z]{1_0}',
      ]);
      return t;
    },
  ],
  [
    'non-string-cores',
    (t) => {
      t.spec.parameters.push({ name: 'CORES', value: pick(['2', '4', '2.5', '"2"', 'two', '', 'null', '-1', '1e3', ' 3 ']) });
      vmSpec(t).domain.cpu = { cores: '${{CORES}}' };
      return t;
    },
  ],
  [
    'non-string-running',
    (t) => {
      t.spec.parameters.push({ name: 'RUNNING', value: pick(['true', 'false', 'yes', '1', '{}']) });
      delete t.spec.virtualMachine.spec.runStrategy;
      t.spec.virtualMachine.spec.running = '${{RUNNING}}';
      return t;
    },
  ],
  [
    'non-string-object',
    (t) => {
      t.spec.parameters.push({
        name: 'RESOURCES',
        value: pick(['{"requests":{"memory":"2Gi"}}', '{"requests":{"memory":"x"}}', '[1,2]', '{"bogus":1}', '"2Gi"', '{"limits":{"cpu":2}}']),
      });
      vmSpec(t).domain.resources = '${{RESOURCES}}';
      return t;
    },
  ],
  [
    'non-string-key',
    (t) => {
      t.spec.parameters.push({ name: 'KEY', value: pick(['"team"', '5', 'null', 'plain', 'true', '{"a":1}']) });
      t.spec.virtualMachine.metadata.labels = { '${{KEY}}': 'x' };
      return t;
    },
  ],
  [
    'non-string-label-value',
    (t) => {
      t.spec.parameters.push({ name: 'TIER', value: pick(['1', '"gold"', 'gold', 'null', 'false']) });
      t.spec.virtualMachine.metadata.labels = { tier: '${{TIER}}' };
      return t;
    },
  ],
  [
    'mixed-substitution',
    (t) => {
      t.spec.parameters.push({ name: 'PREFIX', value: pick(['web', '${NAME}', '${{NAME}}', '']) });
      t.spec.virtualMachine.metadata.labels = { app: '${PREFIX}-${NAME}-${PREFIX}', literal: 'a${{PREFIX}}b', whole: pick(['${{PREFIX}}', '${PREFIX}']) };
      return t;
    },
  ],
  [
    'namespace',
    (t) => {
      t.spec.virtualMachine.metadata.namespace = pick(['hardcoded', '${NAMESPACE}', 'ns-${NAMESPACE}', '', 'prod']);
      if (t.spec.virtualMachine.metadata.namespace.includes('NAMESPACE')) t.spec.parameters.push({ name: 'NAMESPACE', value: pick(['team-a', '']) });
      return t;
    },
  ],
  [
    'unknown-field-strict',
    (t) => {
      const vm = t.spec.virtualMachine;
      const where = pick(['top', 'metadata', 'spec', 'instancetype', 'template', 'status', 'two']);
      if (where === 'top') vm.bogus = 1;
      if (where === 'metadata') vm.metadata.lables = { a: 'b' };
      if (where === 'spec') vm.spec.runstrategy = 'Always';
      if (where === 'instancetype') vm.spec.instancetype.nmae = 'x';
      if (where === 'template') vm.spec.template.specc = {};
      if (where === 'status') vm.status = { bogus: true };
      if (where === 'two') Object.assign(vm.spec, { zeta: 1, alpha: 2 });
      return t;
    },
  ],
  [
    'unknown-field-dropped',
    (t) => {
      const where = pick(['domain', 'cpu', 'disk', 'spec']);
      if (where === 'domain') vmSpec(t).domain.bogus = 1;
      if (where === 'cpu') vmSpec(t).domain.cpu = { cores: 2, dedicatedCPUPlacement: true };
      if (where === 'disk') vmSpec(t).domain.devices.disks = [{ name: 'rootdisk', bootorder: 1 }];
      if (where === 'spec') vmSpec(t).evictionstrategy = 'LiveMigrate';
      return t;
    },
  ],
  [
    'case-insensitive-vmi',
    (t) => {
      vmSpec(t).domain.CPU = { Cores: 2 };
      return t;
    },
  ],
  [
    'type-error-reflective',
    (t) => {
      const vm = t.spec.virtualMachine;
      const where = pick(['labels', 'runStrategy', 'spec', 'template', 'instancetype', 'dvt', 'generation', 'running']);
      if (where === 'labels') vm.metadata.labels = { tier: 1 };
      if (where === 'runStrategy') vm.spec.runStrategy = 5;
      if (where === 'spec') vm.spec = 'x';
      if (where === 'template') vm.spec.template = ['x'];
      if (where === 'instancetype') vm.spec.instancetype = 'u1.small';
      if (where === 'dvt') vm.spec.dataVolumeTemplates = { a: 1 };
      if (where === 'generation') vm.metadata.generation = 1.5;
      if (where === 'running') vm.spec.running = 'true';
      return t;
    },
  ],
  [
    'type-error-vmi',
    (t) => {
      const where = pick(['cores', 'coresFrac', 'disks', 'diskName', 'guest', 'nodeSelector', 'domain', 'spec', 'hostname', 'big']);
      const s = vmSpec(t);
      if (where === 'cores') s.domain.cpu = { cores: 'two' };
      if (where === 'coresFrac') s.domain.cpu = { cores: 2.5 };
      if (where === 'disks') s.domain.devices.disks = { name: 'x' };
      if (where === 'diskName') s.domain.devices.disks = [{ name: 7 }];
      if (where === 'guest') s.domain.memory = { guest: pick(['2Gb', 'lots', true]) };
      if (where === 'nodeSelector') s.nodeSelector = { zone: 1 };
      if (where === 'domain') s.domain = 'big';
      if (where === 'spec') t.spec.virtualMachine.spec.template.spec = 'x';
      if (where === 'hostname') s.hostname = false;
      if (where === 'big') s.domain.cpu = { cores: 5000000000 };
      return t;
    },
  ],
  [
    'virtual-machine-shape',
    (t) => {
      t.spec.virtualMachine = pick([undefined, null, 'vm', ['vm'], {}, 5]);
      if (t.spec.virtualMachine === undefined) delete t.spec.virtualMachine;
      t.spec.parameters = [];
      delete t.spec.message;
      return t;
    },
  ],
  [
    'decode-error',
    (t) => {
      const where = pick(['value', 'required', 'parameters', 'spec', 'name', 'message', 'metaName', 'labels', 'param', 'kind']);
      if (where === 'value') param(t, 'INSTANCETYPE').value = 5;
      if (where === 'required') param(t, 'NAME').required = 'true';
      if (where === 'parameters') t.spec.parameters = { NAME: 'x' };
      if (where === 'spec') return { template: { apiVersion: t.apiVersion, kind: t.kind, metadata: t.metadata, spec: 'x' } };
      if (where === 'name') param(t, 'NAME').name = 1;
      if (where === 'message') t.spec.message = ['a'];
      if (where === 'metaName') t.metadata.name = 7;
      if (where === 'labels') t.metadata.labels = { a: 1 };
      if (where === 'param') t.spec.parameters.push('NAME2');
      if (where === 'kind') t.kind = 3;
      return t;
    },
  ],
  [
    'case-insensitive-template',
    (t) => {
      const p = param(t, 'INSTANCETYPE');
      delete p.value;
      p.Value = pick(instancetypes);
      return t;
    },
  ],
  [
    'message',
    (t) => {
      t.spec.message = pick(['', 'no refs', '${NAME} and ${NAME}', '${{NAME}}', 'size ${INSTANCETYPE}/${PREFERENCE}', '$NAME {NAME}']);
      return t;
    },
  ],
  ['json-document', (t) => ({ template: t, json: true })],
  [
    'hostile-values',
    (t) => {
      const v = pick(['<script>', 'a&b', 'line\nbreak', 'tab\there', 'quote"d', 'back\\slash', 'ü-ñ', '\u2028']);
      t.spec.parameters.push({ name: 'NOTE', value: v });
      t.spec.virtualMachine.metadata.annotations = { note: '${NOTE}' };
      if (chance(0.5)) t.spec.virtualMachine.spec.bogus = '${NOTE}';
      return t;
    },
  ],
];

if (mode === 'judged') {
  judgedCorpus();
  process.exit(0);
}
if (mode === 'migrated') {
  migratedCorpus();
  process.exit(0);
}
const cases = [];
const weights = MUTATIONS.map(([cat]) => (cat.startsWith('sound') ? 3 : 1));
const total = weights.reduce((a, b) => a + b, 0);
function drawMutation() {
  let r = rnd() * total;
  for (let i = 0; i < MUTATIONS.length; i++) {
    r -= weights[i];
    if (r < 0) return MUTATIONS[i];
  }
  return MUTATIONS[MUTATIONS.length - 1];
}

function toText(template, json) {
  if (json) return JSON.stringify(template, null, 2);
  // YAML 1.1 quoting: sigs.k8s.io/yaml reads `yes`, `on`, `y` as booleans.
  return YAML.stringify(template, { version: '1.1', lineWidth: 0 });
}

let n = 0;
for (let i = 0; i < count; i++) {
  const [category, f] = drawMutation();
  const r = f(declareUsed(baseTemplate()));
  const c = r && r.template ? r : { template: r };
  const template = c.template.spec?.virtualMachine && typeof c.template.spec === 'object' ? declareUsed(c.template) : c.template;
  cases.push({
    id: `t${String(++n).padStart(5, '0')}`,
    mode: 'template',
    category,
    template: toText(template, c.json === true),
    ...(c.params ? { params: c.params } : {}),
    ...(c.paramsFile !== undefined ? { paramsFile: c.paramsFile } : {}),
  });
}

// virt-template-engine's own generator tests (template/generator/expressionvalue_test.go at v0.2.0):
// each input, with the test's expectation (a pattern the value matches, or words of the error).
const ENGINE_TESTS = JSON.parse(readFileSync(path.join(repo, 'test/fixtures/template-corpus/engine-tests.json'), 'utf8'));
for (const t of ENGINE_TESTS.generator)
  cases.push({ id: `g${String(++n).padStart(5, '0')}`, mode: 'generate', category: 'engine-test-generator', from: t.from });
for (const t of ENGINE_TESTS.templates)
  cases.push({
    id: `e${String(++n).padStart(5, '0')}`,
    mode: 'template',
    category: 'engine-test-template',
    template: JSON.stringify(t.template),
    ...(t.params ? { params: t.params } : {}),
  });

// common-templates' VM templates (test/fixtures/common-templates/rendered/), as `virtctl template
// convert` makes VirtualMachineTemplates of them (dist/: `npm run build` first).
{
  const require = createRequire(import.meta.url);
  const { convertTemplate } = require(path.join(repo, 'dist', 'migrate', 'templates.js'));
  const rendered = path.join(repo, 'test', 'fixtures', 'common-templates', 'rendered');
  for (const file of readdirSync(rendered).sort()) {
    const converted = convertTemplate(YAML.parse(readFileSync(path.join(rendered, file), 'utf8')));
    if (converted.template)
      cases.push({ id: `c${String(++n).padStart(5, '0')}`, mode: 'template', category: 'common-templates', template: toText(converted.template, false) });
  }
}

mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'cases.jsonl'), cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
console.log(`${cases.length} cases`);

// `judged DIR`: templates over the upstream catalog (a preference, a default instance type and a
// few VM fields), each processed by itgen's engine with the fixed draw the judge uses, and its VM
// sent to the oracle's `preview` mode (KubeVirt's VM webhooks, start path, VMI webhooks and render)
// with the upstream bundle: DIR/judged-cases.jsonl; `ORACLE=... node tools/template-corpus.mjs answer`
// style answering is done here too when ORACLE is set (DIR/judged-answers.jsonl).
function judgedCorpus() {
  const require = createRequire(import.meta.url);
  const { processTemplateDocument } = require(path.join(repo, 'dist', 'kubevirt', 'template', 'index.js'));
  const bundleLine = gunzipSync(readFileSync(path.join(repo, 'test/fixtures/admission-corpus/cases.jsonl.gz')))
    .toString('utf8')
    .split('\n')[0];
  const lines = [bundleLine];
  const cases = [];
  for (let i = 0; i < count; i++) {
    const t = baseTemplate();
    // Half the templates take the preference as a parameter, half name it.
    if (chance(0.5)) {
      t.spec.virtualMachine.spec.preference.name = pick(preferences);
      t.spec.parameters = t.spec.parameters.filter((p) => p.name !== 'PREFERENCE');
    }
    if (t.spec.message?.includes('PREFERENCE') && !t.spec.parameters.some((p) => p.name === 'PREFERENCE')) delete t.spec.message;
    const spec = t.spec.virtualMachine.spec.template.spec;
    if (chance(0.2)) spec.domain.cpu = { sockets: pick([1, 2]) };
    if (chance(0.15)) spec.domain.resources = { requests: { memory: pick(['1Gi', '8Gi']) } };
    if (chance(0.1)) spec.domain.devices.disks = [{ name: 'rootdisk', disk: { bus: pick(['virtio', 'sata', 'scsi']) } }];
    delete t.spec.virtualMachine.metadata.namespace;
    declareUsed(t);
    const text = toText(t, false);
    const r = processTemplateDocument(YAML.parse(text), { pick: () => 0 });
    if (!r.vm) continue;
    const id = `j${String(i).padStart(5, '0')}`;
    cases.push({ id, template: text });
    lines.push(JSON.stringify({ id, mode: 'preview', vm: r.vm, objectSets: ['bundle'] }));
  }
  // Templates a generator's `templates:` emitted (--templates FILE): each as itgen ships it.
  const shipped = opt('--templates');
  if (shipped)
    YAML.parseAllDocuments(readFileSync(shipped, 'utf8'))
      .map((d) => d.toJS())
      .filter((t) => t?.kind === 'VirtualMachineTemplate')
      .forEach((t, i) => {
        const text = toText(t, false);
        const r = processTemplateDocument(YAML.parse(text), { pick: () => 0 });
        if (!r.vm) return;
        const id = `s${String(i).padStart(5, '0')}`;
        cases.push({ id, template: text });
        // The DataVolume's claim, as CDI makes it (KubeVirt's render reads the claim of each volume).
        const claims = (r.vm.spec.dataVolumeTemplates ?? []).map((dv) => ({
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: { name: dv.metadata.name, namespace: 'default' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: dv.spec.storage.resources.requests } },
          status: { phase: 'Bound' },
        }));
        lines.push(JSON.stringify({ id, mode: 'preview', vm: r.vm, objectSets: ['bundle'], objects: claims }));
      });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'judged-cases.jsonl'), lines.join('\n') + '\n');
  writeFileSync(path.join(dir, 'judged-templates.jsonl'), cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
  if (process.env.ORACLE) writeFileSync(path.join(dir, 'judged-answers.jsonl'), runOracle(process.env.ORACLE, lines.join('\n') + '\n'));
  console.log(`${cases.length} judged cases`);
}

/** The cluster the migration proof runs in: each DataVolume's claim, bound, and a default StorageClass (persistent TPM and EFI state need one). */
export function migrationCluster(vm) {
  return [
    ...(vm.spec?.dataVolumeTemplates ?? []).map((dv) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: dv.metadata.name, namespace: 'default' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: dv.spec.storage?.resources?.requests ?? { storage: '30Gi' } } },
      status: { phase: 'Bound' },
    })),
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'example.com/csi',
    },
  ];
}

// `migrated DIR --rendered RENDERED`: each rendered OpenShift Template migrated by itgen against the
// upstream bundle; the old template's VM and the new one's sent to the oracle's `preview` mode in a
// cluster with their claims and a default StorageClass: DIR/cases.jsonl and, with ORACLE, DIR/answers.jsonl.
function migratedCorpus() {
  const require = createRequire(import.meta.url);
  const { processTemplateDocument } = require(path.join(repo, 'dist', 'kubevirt', 'template', 'index.js'));
  const { convertTemplate, migrateTemplates } = require(path.join(repo, 'dist', 'migrate', 'templates.js'));
  const { objectStore } = require(path.join(repo, 'dist', 'expand', 'index.js'));
  const { parseSource } = require(path.join(repo, 'dist', 'load', 'source.js'));
  const { KUBEVIRT_DEFAULTS } = require(path.join(repo, 'dist', 'kubevirt', 'config.js'));
  const bundleLine = gunzipSync(readFileSync(path.join(repo, 'test/fixtures/admission-corpus/cases.jsonl.gz')))
    .toString('utf8')
    .split('\n')[0];
  const store = objectStore(JSON.parse(bundleLine).objects);
  const rendered = opt('--rendered');
  const lines = [bundleLine];
  for (const file of readdirSync(rendered).sort()) {
    const text = readFileSync(path.join(rendered, file), 'utf8');
    const t = YAML.parse(text);
    const old = processTemplateDocument(convertTemplate(t).template, { pick: () => 0 });
    const docs = parseSource(file, Buffer.from(text)).docs;
    const m = migrateTemplates(docs, { store, judging: { configs: [KUBEVIRT_DEFAULTS], defaultsOnly: true }, config: KUBEVIRT_DEFAULTS }).migrated[0];
    if (!old.vm || !m?.template) continue;
    const made = processTemplateDocument(m.template, { pick: () => 0 });
    const id = file.replace(/\.yaml$/, '');
    lines.push(JSON.stringify({ id: `${id}/before`, mode: 'preview', vm: old.vm, objectSets: ['bundle'], objects: migrationCluster(old.vm) }));
    lines.push(JSON.stringify({ id: `${id}/after`, mode: 'preview', vm: made.vm, objectSets: ['bundle'], objects: migrationCluster(made.vm) }));
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'cases.jsonl'), lines.join('\n') + '\n');
  if (process.env.ORACLE) writeFileSync(path.join(dir, 'answers.jsonl'), runOracle(process.env.ORACLE, lines.join('\n') + '\n'));
  console.log(`${lines.length - 1} migration cases`);
}

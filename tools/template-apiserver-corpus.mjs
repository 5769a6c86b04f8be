#!/usr/bin/env node
// The corpus of VirtualMachineTemplates as applied (test/fixtures/template-apiserver-corpus/): sound
// templates over the upstream catalog's names with one or two mistakes each that the API server's
// strict decoding or the template CRD's schema decides (types, required fields, the generate enum,
// the from pattern, unknown fields at every level and inside the VM where the schema keeps them,
// nulls, metadata), at both served versions; answered by itgen-apiserver with the template CRD
// (tools/kubevirt-oracle-template/apiserver/).
//
//   node tools/template-apiserver-corpus.mjs gen DIR [--seed N] [--count N]
//   APISERVER=<itgen-apiserver> node tools/template-apiserver-corpus.mjs answer DIR
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { corpusCommandLine, runOracle, seeded } from './corpus-kit.mjs';

const { mode, dir, opt } = corpusCommandLine();
if (!dir || !['gen', 'answer'].includes(mode)) {
  console.error('usage: template-apiserver-corpus.mjs gen|answer DIR [--seed N] [--count N]');
  process.exit(1);
}

if (mode === 'answer') {
  const cases = gunzipSync(readFileSync(path.join(dir, 'cases.jsonl.gz'))).toString('utf8');
  const input = cases
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.stringify({ ...JSON.parse(l), mode: 'validate-object' }))
    .join('\n');
  writeFileSync(path.join(dir, 'answers.jsonl.gz'), gzipSync(runOracle(process.env.APISERVER, `${input}\n`, 'APISERVER (itgen-apiserver)')));
  process.exit(0);
}

const { pick, chance } = seeded(Number(opt('--seed', '23')));
const count = Number(opt('--count', '400'));

const base = () => ({
  apiVersion: pick(['template.kubevirt.io/v1beta1', 'template.kubevirt.io/v1alpha1']),
  kind: 'VirtualMachineTemplate',
  metadata: { name: pick(['fedora', 'windows11', 'db-small']), labels: { app: 'vm' } },
  spec: {
    message: 'VM ${NAME} created',
    parameters: [
      { name: 'NAME', description: 'the VM name', generate: 'expression', from: 'vm-[a-z0-9]{5}' },
      { name: 'INSTANCETYPE', displayName: 'Instance type', value: 'u1.medium', required: true },
    ],
    virtualMachine: {
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachine',
      metadata: { name: '${NAME}' },
      spec: { runStrategy: 'Halted', instancetype: { name: '${INSTANCETYPE}' }, template: { spec: { domain: { devices: {} } } } },
    },
  },
});

const WRONG = [1, 2.5, true, 'text', [], {}, null, ['a']];
// Each mistake: what it does to a template (t), by path.
const MISTAKES = [
  (t) => delete t.metadata.name,
  (t) => (t.metadata.name = pick([7, '', 'Not_A_Name'])),
  (t) => (t.metadata.labels = { app: pick([1, true]) }),
  (t) => (t.metadata.unknown = 'x'),
  (t) => delete t.spec,
  (t) => (t.spec = pick(WRONG)),
  (t) => delete t.spec.virtualMachine,
  (t) => (t.spec.virtualMachine = pick(WRONG)),
  (t) => (t.spec.virtualMachine.spec.unknownInVm = 'kept'),
  (t) => (t.spec.virtualMachine.bogus = { deep: [1] }),
  (t) => (t.spec.message = pick(WRONG)),
  (t) => (t.spec.parameters = pick(WRONG)),
  (t) => (t.spec.parameters[0] = pick(WRONG)),
  (t) => delete t.spec.parameters[pick([0, 1])].name,
  (t) => (t.spec.parameters[pick([0, 1])].name = pick(WRONG)),
  (t) => (t.spec.parameters[1].value = pick(WRONG)),
  (t) => (t.spec.parameters[0].generate = pick(['nosuch', 'Expression', '', 3, null])),
  (t) => (t.spec.parameters[0].from = pick(['abc', 'vm-[a-z]', '[a-z]{x}', '[]{5}', '[a-z]{5}', 'x[A-Z\\-]{2}y', 7, null])),
  (t) => (t.spec.parameters[1].required = pick(['yes', 1, null, false])),
  (t) => (t.spec.parameters[0].displayName = pick(WRONG)),
  (t) => (t.spec.parameters[0].description = pick(WRONG)),
  (t) => (t.spec.parameters[pick([0, 1])].unknown = 'x'),
  (t) => (t.spec.unknown = 'x'),
  (t) => (t.unknownTop = 'x'),
  (t) => (t.spec.parameters.push({ name: 'EXTRA', value: pick(['1', 1]) }), undefined),
];

const cases = [];
for (let i = 0; i < count; i++) {
  const t = base();
  const n = chance(0.1) ? 0 : chance(0.7) ? 1 : 2;
  for (let k = 0; k < n; k++) {
    try {
      pick(MISTAKES)(t);
    } catch {
      /* a mistake that needs what an earlier one removed: the template as it is */
    }
  }
  cases.push(JSON.stringify({ id: `a${String(i + 1).padStart(5, '0')}`, object: t }));
}
writeFileSync(path.join(dir, 'cases.jsonl.gz'), gzipSync(`${cases.join('\n')}\n`));
console.log(`${cases.length} cases`);

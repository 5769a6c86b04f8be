#!/usr/bin/env node
// The intent corpus: what people and agents ask `itgen select` for (an OS as they say it, an intent,
// a size, vCPUs, memory, an architecture, and impossible asks), answered by itgen over the upstream
// common-instancetypes bundle, and every pair itgen answers or offers as an alternative sent to
// KubeVirt's admission (itgen-oracle `admit`, VMs naming both, with the bundle).
//   npm run build && node tools/intent-corpus.mjs gen DIR [--seed 31] [--count 600]
//   ORACLE=.../itgen-oracle node tools/intent-corpus.mjs answer DIR
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { answerWithKubeOracle, answerWithKubevirtOracle, corpusCommandLine, launcherKit, seeded } from './corpus-kit.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { mode, dir, opt } = corpusCommandLine();
if (!dir || !['gen', 'answer', 'placed', 'quota'].includes(mode)) {
  console.error('usage: intent-corpus.mjs gen|answer|placed|quota DIR [--seed N] [--count N]');
  process.exit(1);
}
if (mode === 'answer') {
  answerWithKubevirtOracle(dir);
  process.exit(0);
}

const require = createRequire(import.meta.url);
const { openProject } = require(path.join(repo, 'dist', 'itgen.cjs'));
const { choose } = require(path.join(repo, 'dist', 'workflows', 'choose.js'));
const { pick, chance } = seeded(Number(opt('--seed', '31')));
const count = Number(opt('--count', '600'));

if (mode === 'placed') {
  placed();
  process.exit(0);
}
if (mode === 'quota') {
  quota();
  process.exit(0);
}

const work = mkdtempSync(path.join(os.tmpdir(), 'itgen-intents-'));
copyFileSync(path.join(repo, 'test/reference/common-instancetypes/common-instancetypes-all-bundle.yaml'), path.join(work, 'bundle.yaml'));
const project = openProject({ root: work, cwd: work, with: ['bundle.yaml'] });

const OS_WORDS = [
  'windows 11',
  'win11',
  'windows.11',
  'windows 10',
  'windows 2k22',
  'windows.2k25',
  'rhel',
  'rhel 9',
  'rhel 10',
  'rhel8',
  'fedora',
  'centos stream 9',
  'centos.stream10',
  'ubuntu',
  'debian',
  'alpine',
  'opensuse.leap',
  'oraclelinux',
  'sles',
  'windows 2k3',
  'freebsd',
  'plan9',
];
const INTENTS = [
  undefined,
  undefined,
  'general',
  'compute',
  'dedicated-compute',
  'memory',
  'network',
  'realtime',
  'overcommitted',
  'gpu',
  'c1',
  'general.purpose',
];
const SIZES = [undefined, undefined, 'nano', 'micro', 'small', 'medium', '2xmedium', 'large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', 'huge'];
const CPUS = [undefined, undefined, undefined, '1', '2', '4', '8', '2..4', '16..', '..2', '1000'];
const MEMORY = [undefined, undefined, undefined, '4Gi', '8Gi..', '..2Gi', '16Gi..64Gi', '1Ti..'];
const ARCHES = [undefined, undefined, undefined, 'amd64', 'arm64', 's390x'];

const cases = [];
const pairs = new Map();
const bundleLine = gunzipSync(readFileSync(path.join(repo, 'test/fixtures/admission-corpus/cases.jsonl.gz')))
  .toString('utf8')
  .split('\n')[0];
const lines = [bundleLine];
const vmFor = (it, pref) => ({
  apiVersion: 'kubevirt.io/v1',
  kind: 'VirtualMachine',
  metadata: { name: 'vm', namespace: 'default' },
  spec: {
    runStrategy: 'Halted',
    instancetype: { kind: it.kind, name: it.name },
    preference: { kind: 'VirtualMachineClusterPreference', name: pref },
    template: { spec: { domain: { devices: {} } } },
  },
});
const note = (it, pref) => {
  const key = `${it.name}/${pref}`;
  if (!pairs.has(key)) {
    const id = `p${String(pairs.size).padStart(5, '0')}`;
    pairs.set(key, id);
    lines.push(JSON.stringify({ id, mode: 'admit', vm: vmFor(it, pref), objectSets: ['bundle'] }));
  }
  return pairs.get(key);
};

for (let i = 0; i < count; i++) {
  const ask = {};
  const osWord = pick(OS_WORDS);
  if (chance(0.1)) ask.preference = osWord.replace(/ /g, '.');
  else ask.os = osWord;
  // Most asks name one or two things; some name many (and nothing meets them).
  for (const [k, list, p] of [
    ['intent', INTENTS, 0.4],
    ['size', SIZES, 0.5],
    ['cpu', CPUS, 0.25],
    ['memory', MEMORY, 0.2],
    ['arch', ARCHES, 0.3],
  ]) {
    const v = chance(p) ? pick(list.filter((x) => x !== undefined)) : undefined;
    if (v !== undefined) ask[k] = v;
  }
  // The impossible ask of the evaluation: a small Windows 11.
  if (i % 25 === 0) Object.assign(ask, { os: 'windows 11', cpu: '1' });
  const r = choose(project, ask);
  const answer = r.answer
    ? { instancetype: r.answer.instancetype.name, preference: r.answer.preference, pair: note(r.answer.instancetype, r.answer.preference) }
    : undefined;
  const alternatives = (r.refusal?.alternatives ?? []).map((a) => ({
    instancetype: a.instancetype.name,
    preference: a.preference,
    pair: note(a.instancetype, a.preference),
  }));
  const refused = r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)[0];
  cases.push({
    id: `i${String(i).padStart(5, '0')}`,
    ask,
    ...(answer ? { answer } : {}),
    ...(alternatives.length > 0 ? { alternatives } : {}),
    ...(refused ? { refused } : {}),
  });
}
rmSync(work, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'asks.jsonl'), cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
writeFileSync(path.join(dir, 'cases.jsonl'), lines.join('\n') + '\n');
console.log(`${cases.length} asks, ${cases.filter((c) => c.answer).length} answered, ${pairs.size} pairs to judge`);

// `placed DIR`: asks with the cluster's nodes and running pods (test/fixtures/fit/), answered by
// itgen (the answer's launcher pod must fit a node), and each answer's launcher pod sent to
// kube-oracle's `fit` mode (KUBE_ORACLE): DIR/asks.jsonl, DIR/cases.jsonl, DIR/answers.jsonl.
function placed() {
  const YAMLmod = require(path.join(repo, 'node_modules', 'yaml'));
  const { previewVm, objectStore, kubevirtConfig } = launcherKit();
  const work = mkdtempSync(path.join(os.tmpdir(), 'itgen-placed-'));
  for (const [from, to] of [
    ['test/reference/common-instancetypes/common-instancetypes-all-bundle.yaml', 'bundle.yaml'],
    ['test/fixtures/fit/nodes.yaml', 'nodes.yaml'],
    ['test/fixtures/fit/pods.yaml', 'pods.yaml'],
  ])
    copyFileSync(path.join(repo, from), path.join(work, to));
  const project = openProject({ root: work, cwd: work, with: ['bundle.yaml'] });
  const list = (file) => {
    const v = YAMLmod.parse(readFileSync(path.join(work, file), 'utf8'));
    return v.items ?? [v];
  };
  const nodes = list('nodes.yaml');
  const pods = list('pods.yaml');
  const bundleObjects = YAMLmod.parseAllDocuments(readFileSync(path.join(work, 'bundle.yaml'), 'utf8'))
    .map((d) => d.toJS())
    .filter(Boolean);
  const store = objectStore(bundleObjects);
  const config = kubevirtConfig(undefined).config;
  const asks = [];
  const cases = [];
  for (let i = 0; i < count; i++) {
    const ask = {
      os: pick(['fedora', 'rhel 9', 'windows 11', 'ubuntu', 'centos stream 9', 'debian']),
      nodes: 'nodes.yaml',
      ...(chance(0.6) ? { pods: 'pods.yaml' } : {}),
    };
    if (chance(0.5)) ask.intent = pick(['general', 'compute', 'memory', 'network', 'realtime', 'overcommitted']);
    if (chance(0.4)) ask.size = pick(['small', 'medium', 'large', 'xlarge', '2xlarge', '4xlarge', '8xlarge']);
    if (chance(0.2)) ask.cpu = pick(['2', '4..8', '16..']);
    const r = choose(project, ask);
    const id = `n${String(i).padStart(5, '0')}`;
    asks.push({
      id,
      ask,
      ...(r.answer ? { answer: { instancetype: r.answer.instancetype.name, preference: r.answer.preference, fits: r.answer.fits } } : {}),
      ...(r.refusal ? { refused: r.refusal.message } : {}),
    });
    if (!r.answer) continue;
    const vm = { ...r.answer.vm, metadata: { name: 'my-vm', namespace: 'default' } };
    const p = previewVm(vm, { ...store, cluster: nodes }, config, 'default');
    if ('error' in p) continue;
    cases.push({ id, mode: 'fit', pod: p.pod, nodes, pods: ask.pods ? pods : [] });
  }
  rmSync(work, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'asks.jsonl'), asks.map((a) => JSON.stringify(a)).join('\n') + '\n');
  answerWithKubeOracle(dir, cases);
  console.log(`${asks.length} asks, ${cases.length} answers placed`);
}

// `quota DIR`: asks in a namespace with a ResourceQuota (as `kubectl get resourcequota -o yaml` shows
// it, with its status): itgen's answer must be admitted by it, and a candidate it passes over for the
// quota must be refused in the API server's words. Each such launcher pod sent to kube-oracle's `quota`
// mode (KUBE_ORACLE): DIR/asks.jsonl, DIR/cases.jsonl, DIR/answers.jsonl.
function quota() {
  const YAMLmod = require(path.join(repo, 'node_modules', 'yaml'));
  const { previewVm, objectStore, kubevirtConfig } = launcherKit();
  const bundleText = readFileSync(path.join(repo, 'test/reference/common-instancetypes/common-instancetypes-all-bundle.yaml'), 'utf8');
  const bundleObjects = YAMLmod.parseAllDocuments(bundleText)
    .map((d) => d.toJS())
    .filter(Boolean);
  const config = kubevirtConfig(undefined).config;
  const asks = [];
  const cases = [];
  for (let i = 0; i < count; i++) {
    const hard = {};
    if (chance(0.8)) hard['requests.memory'] = pick(['3Gi', '5Gi', '9Gi', '17Gi', '40Gi']);
    if (chance(0.4)) hard['requests.cpu'] = pick(['1', '2', '4', '8']);
    if (chance(0.3)) hard['limits.memory'] = pick(['4Gi', '10Gi', '64Gi']);
    const usedMem = pick(['0', '0', '1Gi', '2Gi']);
    const used = Object.fromEntries(Object.keys(hard).map((k) => [k, k.includes('memory') ? usedMem : '0']));
    const q = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'team', namespace: 'default' }, spec: { hard }, status: { hard, used } };
    const work = mkdtempSync(path.join(os.tmpdir(), 'itgen-quota-'));
    writeFileSync(path.join(work, 'bundle.yaml'), bundleText);
    writeFileSync(path.join(work, 'quota.yaml'), JSON.stringify(q));
    const project = openProject({ root: work, cwd: work, with: ['bundle.yaml', 'quota.yaml'] });
    const ask = { os: pick(['fedora', 'rhel 9', 'windows 11', 'ubuntu', 'debian']) };
    if (chance(0.4)) ask.size = pick(['small', 'medium', 'large', 'xlarge', '2xlarge']);
    if (chance(0.3)) ask.intent = pick(['general', 'memory', 'overcommitted']);
    const r = choose(project, ask);
    rmSync(work, { recursive: true, force: true });
    const id = `q${String(i).padStart(5, '0')}`;
    // The namespace's quota is among what KubeVirt reads when it renders the pod (its automatic limits).
    const store = objectStore([...bundleObjects, q]);
    const podOf = (vm) => {
      const p = previewVm({ ...vm, metadata: { name: 'my-vm', namespace: 'default' } }, store, config, 'default');
      return 'error' in p ? undefined : { ...p.pod, metadata: { ...p.pod.metadata, name: 'virt-launcher-my-vm', namespace: 'default' } };
    };
    const refusedForQuota = r.passedOver.filter((p) => p.reason.startsWith("the namespace's quota"));
    asks.push({ id, ask, quota: q, ...(r.answer ? { answer: r.answer.instancetype.name } : {}), passedForQuota: refusedForQuota });
    if (r.answer) {
      const pod = podOf(r.answer.vm);
      if (pod) cases.push({ id: `${id}/answer`, mode: 'quota', pod, quotas: [q] });
    }
    for (const p of refusedForQuota.slice(0, 2)) {
      const pod = podOf({
        apiVersion: 'kubevirt.io/v1',
        kind: 'VirtualMachine',
        metadata: { name: 'my-vm' },
        spec: {
          runStrategy: 'Halted',
          instancetype: { kind: 'VirtualMachineClusterInstancetype', name: p.instancetype },
          preference: { kind: 'VirtualMachineClusterPreference', name: r.understood?.preference },
          template: { spec: { domain: { devices: {} } } },
        },
      });
      if (pod) cases.push({ id: `${id}/${p.instancetype}`, mode: 'quota', pod, quotas: [q] });
    }
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'asks.jsonl'), asks.map((a) => JSON.stringify(a)).join('\n') + '\n');
  answerWithKubeOracle(dir, cases);
  console.log(`${asks.length} asks, ${asks.filter((a) => a.answer).length} answered, ${cases.length} pods judged`);
}

#!/usr/bin/env node
// The quota corpus: launcher pods of common-instancetypes VMs (rendered by this repository's build
// with the namespace's ResourceQuotas in the cluster, so KubeVirt's automatic limits apply where a
// quota sets limits.cpu or limits.memory) against one or two ResourceQuotas of the namespace: hard
// limits on requests and limits of cpu and memory, the bare cpu/memory names, pods and count/pods,
// hugepages, ephemeral storage and a GPU, some with scopes, some already nearly used up, some with
// no recorded usage. Answered by the `quota` mode of kube-oracle (tools/kube-oracle: kube-apiserver's
// ResourceQuota admission, CheckRequest, from Kubernetes v1.36.4's libraries), built outside this
// repository and named by KUBE_ORACLE.
//
//   KUBE_ORACLE=... node tools/quota-corpus.mjs gen DIR --bundle FILE [--seed N] [--count N]
//
// test/quota-corpus.test.ts replays DIR (committed gzipped under test/fixtures/quota-corpus/).
import { readFileSync } from 'node:fs';
import { answerWithKubeOracle, corpusCommandLine, launcherKit, seeded } from './corpus-kit.mjs';

const { previewVm, objectStore, kubevirtConfig } = launcherKit();

const { mode, dir, opt } = corpusCommandLine();

function gen() {
  if (!process.env.KUBE_ORACLE) throw new Error('KUBE_ORACLE names kube-oracle');
  const seed = Number(opt('--seed', '1'));
  const count = Number(opt('--count', '600'));
  const bundle = JSON.parse(readFileSync(opt('--bundle'), 'utf8').split('\n')[0]);
  const { rnd, pick, chance } = seeded(seed);
  const its = bundle.objects.filter((o) => o.kind === 'VirtualMachineClusterInstancetype').map((o) => o.metadata.name);
  const config = kubevirtConfig({
    spec: { configuration: { permittedHostDevices: { pciHostDevices: [{ pciVendorSelector: '10DE:2236', resourceName: 'nvidia.com/GA102GL_A10' }] } } },
  }).config;
  const cases = [];
  let n = 0;
  while (cases.length < count) {
    n++;
    const quotas = [];
    const quotaCount = 1 + (chance(0.3) ? 1 : 0);
    for (let i = 0; i < quotaCount; i++) {
      const hard = {};
      const used = {};
      const names = [
        ['requests.cpu', ['2', '8', '16', '64', '7500m']],
        ['limits.cpu', ['4', '16', '64']],
        ['requests.memory', ['8Gi', '32Gi', '128Gi', '20000Mi']],
        ['limits.memory', ['16Gi', '64Gi', '256Gi']],
        ['cpu', ['8', '32']],
        ['memory', ['32Gi', '64G']],
        ['pods', ['3', '10', '100']],
        ['count/pods', ['2', '10', '50']],
        ['requests.hugepages-2Mi', ['8Gi', '64Gi']],
        ['requests.ephemeral-storage', ['1Gi', '100Gi']],
        ['requests.nvidia.com/GA102GL_A10', ['1', '4']],
      ];
      for (const [name, values] of names) if (chance(0.3)) hard[name] = pick(values);
      if (Object.keys(hard).length === 0) hard['requests.cpu'] = '16';
      for (const [name, v] of Object.entries(hard)) {
        if (chance(0.02)) continue; // usage not recorded yet for this resource
        const full = chance(0.3);
        const m = /^(\d+)(.*)$/.exec(v);
        used[name] = full ? v : chance(0.5) ? '0' : `${Math.floor(Number(m[1]) * rnd())}${m[2]}`;
      }
      const spec = { hard };
      if (chance(0.15)) spec.scopes = [pick(['NotTerminating', 'NotBestEffort', 'Terminating', 'BestEffort'])];
      quotas.push({
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: `q${i}`, namespace: 'apps' },
        spec,
        ...(chance(0.03) ? {} : { status: { hard, used } }),
      });
    }
    const gpu = chance(0.1);
    const vm = {
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachine',
      metadata: { name: `vm${n}`, namespace: 'apps' },
      spec: {
        runStrategy: 'Always',
        instancetype: { name: pick(its) },
        template: {
          spec: {
            domain: { devices: gpu ? { gpus: [{ name: 'gpu1', deviceName: 'nvidia.com/GA102GL_A10' }] } : {} },
            volumes: [{ name: 'rootdisk', containerDisk: { image: 'quay.io/containerdisks/fedora:41' } }],
          },
        },
      },
    };
    // Mostly rendered with the quotas in the cluster (KubeVirt's automatic limits); some without, as
    // when the quota came after KubeVirt read the namespace's (cozystack #3681).
    const store = objectStore([...bundle.objects, ...(chance(0.8) ? quotas : [])]);
    const r = previewVm(vm, store, config, 'apps');
    if (!r.pod) continue;
    const pod = { ...r.pod, metadata: { ...r.pod.metadata, name: `virt-launcher-vm${n}-abcde`, namespace: 'apps' } };
    cases.push({ id: `q${String(cases.length + 1).padStart(5, '0')}`, mode: 'quota', pod, quotas });
  }
  answerWithKubeOracle(dir, cases);
  console.log(`${cases.length} cases`);
}

if (mode === 'gen') gen();
else {
  console.error('usage: KUBE_ORACLE=... quota-corpus.mjs gen DIR --bundle FILE [--seed N] [--count N]');
  process.exit(1);
}

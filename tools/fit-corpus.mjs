#!/usr/bin/env node
// The fit corpus: the launcher pods of common-instancetypes VMs (rendered by this repository's
// build, whose pods the preview corpus holds to KubeVirt's), under varied KubeVirt configurations,
// against node sets with and without hugepages, the CPU manager label, GPUs, taints and cordons,
// and pods already running, made with a fixed seed and answered by kube-oracle's `fit` mode
// (Kubernetes v1.36's own libraries and kube-scheduler's filters), built outside this repository and
// named by the KUBE_ORACLE variable (never part of the product or its tests).
//
//   KUBE_ORACLE=... node tools/fit-corpus.mjs gen DIR --bundle FILE [--seed N] [--count N]
//     writes DIR/cases.jsonl and DIR/answers.jsonl (needs `npm run build` first)
//
// test/fit-corpus.test.ts replays DIR (committed gzipped under test/fixtures/fit-corpus/).
import { readFileSync } from 'node:fs';
import { answerWithKubeOracle, corpusCommandLine, launcherKit, seeded } from './corpus-kit.mjs';

const { previewVm, objectStore, kubevirtConfig } = launcherKit();

const { mode, dir, opt } = corpusCommandLine();

function gen() {
  if (!process.env.KUBE_ORACLE) throw new Error('KUBE_ORACLE names kube-oracle');
  const seed = Number(opt('--seed', '1'));
  const count = Number(opt('--count', '1200'));
  const bundle = JSON.parse(readFileSync(opt('--bundle'), 'utf8').split('\n')[0]);
  const store = objectStore(bundle.objects);
  const { rnd, pick, chance } = seeded(seed);
  const its = bundle.objects.filter((o) => o.kind === 'VirtualMachineClusterInstancetype').map((o) => o.metadata.name);
  const prefs = bundle.objects
    .filter((o) => o.kind === 'VirtualMachineClusterPreference' && (o.spec?.preferredArchitecture ?? 'amd64') === 'amd64')
    .map((o) => o.metadata.name);
  const cases = [];
  let n = 0;
  while (cases.length < count) {
    n++;
    const it = pick(its);
    const pref = chance(0.5) ? pick(prefs) : undefined;
    const cfg = {};
    if (chance(0.3)) cfg.developerConfiguration = { cpuAllocationRatio: pick([1, 2, 4, 10]) };
    if (chance(0.2)) cfg.developerConfiguration = { ...(cfg.developerConfiguration ?? {}), memoryOvercommit: pick([100, 150, 200]) };
    const gpu = chance(0.08);
    if (gpu && chance(0.85)) cfg.permittedHostDevices = { pciHostDevices: [{ pciVendorSelector: '10DE:2236', resourceName: 'nvidia.com/GA102GL_A10' }] };
    const vm = {
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachine',
      metadata: { name: `vm${n}`, namespace: 'default' },
      spec: {
        runStrategy: 'Always',
        instancetype: { name: it },
        ...(pref ? { preference: { name: pref } } : {}),
        template: {
          spec: {
            domain: { devices: gpu ? { gpus: [{ name: 'gpu1', deviceName: 'nvidia.com/GA102GL_A10' }] } : {} },
            volumes: [{ name: 'rootdisk', containerDisk: { image: 'quay.io/containerdisks/fedora:41' } }],
            ...(chance(0.2) ? { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'vms', effect: 'NoSchedule' }] } : {}),
            ...(chance(0.1) ? { nodeSelector: { 'topology.kubernetes.io/zone': pick(['a', 'b']) } } : {}),
          },
        },
      },
    };
    const r = previewVm(vm, store, kubevirtConfig({ spec: { configuration: cfg } }).config, 'default');
    if (!r.pod) continue;
    const nodes = [];
    const nodeCount = 1 + Math.floor(rnd() * 6);
    for (let i = 0; i < nodeCount; i++) {
      const labels = {
        'kubernetes.io/hostname': `n${i}`,
        'kubernetes.io/arch': chance(0.9) ? 'amd64' : 'arm64',
        ...(chance(0.9) ? { 'kubevirt.io/schedulable': 'true' } : {}),
        ...(chance(0.5) ? { 'kubevirt.io/cpumanager': 'true' } : {}),
        ...(chance(0.85) ? { 'machine-type.node.kubevirt.io/q35': 'true' } : {}),
        ...(chance(0.3) ? { 'kubevirt.io/realtime': 'true' } : {}),
        ...(chance(0.5) ? { 'topology.kubernetes.io/zone': pick(['a', 'b']) } : {}),
      };
      const allocatable = {
        cpu: pick(['4', '8', '16', '32', '64', '7500m']),
        memory: pick(['8Gi', '16Gi', '32Gi', '64Gi', '128Gi', '256Gi', '16235904Ki']),
        pods: pick(['110', '110', '3', '250']),
        'ephemeral-storage': pick(['100Gi', '20Gi', '40M']),
        ...(chance(0.9) ? { 'devices.kubevirt.io/kvm': '1k', 'devices.kubevirt.io/tun': '1k', 'devices.kubevirt.io/vhost-net': '1k' } : {}),
        ...(chance(0.35) ? { 'hugepages-2Mi': pick(['4Gi', '16Gi', '64Gi']) } : {}),
        ...(chance(0.25) ? { 'hugepages-1Gi': pick(['8Gi', '32Gi', '128Gi']) } : {}),
        ...(chance(0.1) ? { 'nvidia.com/GA102GL_A10': pick(['1', '4']) } : {}),
      };
      const spec = {};
      if (chance(0.1)) spec.unschedulable = true;
      if (chance(0.2))
        spec.taints = [
          pick([
            { key: 'dedicated', value: 'vms', effect: 'NoSchedule' },
            { key: 'gpu', effect: 'NoExecute' },
            { key: 'soft', effect: 'PreferNoSchedule' },
          ]),
        ];
      nodes.push({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: `n${i}`, labels },
        spec,
        status: chance(0.1) ? { capacity: allocatable } : { allocatable },
      });
    }
    const pods = [];
    const podCount = Math.floor(rnd() * 8);
    for (let i = 0; i < podCount; i++)
      pods.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `p${i}`, namespace: 'default' },
        spec: {
          nodeName: `n${Math.floor(rnd() * nodeCount)}`,
          containers: [
            {
              name: 'c',
              image: 'x',
              resources: {
                requests: { cpu: pick(['500m', '2', '6']), memory: pick(['1Gi', '8Gi', '30Gi']) },
                ...(chance(0.3) ? { limits: { 'hugepages-2Mi': '2Gi', memory: '1Gi' } } : {}),
              },
            },
          ],
          ...(chance(0.25)
            ? {
                initContainers: [
                  { name: 'init', image: 'x', resources: { requests: { cpu: pick(['1', '12']), memory: pick(['512Mi', '40Gi']) } } },
                  ...(chance(0.5)
                    ? [
                        {
                          name: 'sidecar',
                          image: 'x',
                          restartPolicy: 'Always',
                          resources: { limits: { cpu: '250m', memory: '256Mi', 'nvidia.com/GA102GL_A10': '1' } },
                        },
                      ]
                    : []),
                ],
              }
            : {}),
          ...(chance(0.1) ? { overhead: { cpu: '250m', memory: '160Mi' } } : {}),
        },
        status: { phase: chance(0.1) ? 'Succeeded' : 'Running' },
      });
    cases.push({ id: `f${String(cases.length + 1).padStart(5, '0')}`, mode: 'fit', pod: r.pod, nodes, pods });
  }
  answerWithKubeOracle(dir, cases);
  console.log(`${cases.length} cases`);
}

if (mode === 'gen') gen();
else {
  console.error('usage: KUBE_ORACLE=... fit-corpus.mjs gen DIR --bundle FILE [--seed N] [--count N]');
  process.exit(1);
}

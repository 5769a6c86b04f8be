#!/usr/bin/env node
// The placement corpus: sets of common-instancetypes VMs whose launcher pods (rendered by this
// repository's build, whose pods the preview corpus holds to KubeVirt's) are placed together, one
// after another, on node sets with taints of each effect (PreferNoSchedule too), zones, cordons,
// hugepages, GPUs, images already pulled (status.images) and pods already running; some VMs prefer
// zones (preferred node affinity). Made with a fixed seed and answered by the `place` mode of
// kube-oracle (tools/kube-oracle: kube-scheduler v1.36's filters and default score plugins),
// built outside this repository and named by the KUBE_ORACLE variable.
//
//   KUBE_ORACLE=... node tools/place-corpus.mjs gen DIR --bundle FILE [--seed N] [--count N]
//     writes DIR/cases.jsonl and DIR/answers.jsonl (needs `npm run build` first)
//
// test/place-corpus.test.ts replays DIR (committed gzipped under test/fixtures/place-corpus/).
import { readFileSync } from 'node:fs';
import { answerWithKubeOracle, corpusCommandLine, launcherKit, seeded } from './corpus-kit.mjs';

const { previewVm, objectStore, kubevirtConfig } = launcherKit();

const { mode, dir, opt } = corpusCommandLine();

function gen() {
  if (!process.env.KUBE_ORACLE) throw new Error('KUBE_ORACLE names kube-oracle');
  const seed = Number(opt('--seed', '1'));
  const count = Number(opt('--count', '1000'));
  const bundle = JSON.parse(readFileSync(opt('--bundle'), 'utf8').split('\n')[0]);
  const store = objectStore(bundle.objects);
  const { rnd, pick, chance } = seeded(seed);
  // Small and middle sizes, so that sets of a few VMs fill a few nodes.
  const its = bundle.objects
    .filter((o) => o.kind === 'VirtualMachineClusterInstancetype' && /\.(nano|micro|small|medium|large|xlarge|2xlarge)(1gi)?$/.test(o.metadata.name))
    .map((o) => o.metadata.name);
  const prefs = bundle.objects
    .filter((o) => o.kind === 'VirtualMachineClusterPreference' && (o.spec?.preferredArchitecture ?? 'amd64') === 'amd64')
    .map((o) => o.metadata.name);
  const cases = [];
  let n = 0;
  while (cases.length < count) {
    const cfg = {};
    if (chance(0.3)) cfg.developerConfiguration = { cpuAllocationRatio: pick([1, 2, 10]) };
    if (chance(0.2)) cfg.developerConfiguration = { ...(cfg.developerConfiguration ?? {}), memoryOvercommit: pick([100, 150]) };
    const config = kubevirtConfig({ spec: { configuration: cfg } }).config;
    const queue = [];
    const setSize = 2 + Math.floor(rnd() * 11);
    for (let v = 0; v < setSize; v++) {
      n++;
      const pref = chance(0.4) ? pick(prefs) : undefined;
      const zone = chance(0.3) ? pick(['a', 'b']) : undefined;
      const vm = {
        apiVersion: 'kubevirt.io/v1',
        kind: 'VirtualMachine',
        metadata: { name: `vm${n}`, namespace: 'default' },
        spec: {
          runStrategy: 'Always',
          instancetype: { name: pick(its) },
          ...(pref ? { preference: { name: pref } } : {}),
          template: {
            spec: {
              domain: { devices: {} },
              volumes: [{ name: 'rootdisk', containerDisk: { image: pick(['quay.io/containerdisks/fedora:41', 'quay.io/containerdisks/centos-stream:9']) } }],
              ...(chance(0.25)
                ? {
                    tolerations: [
                      pick([
                        { key: 'dedicated', operator: 'Equal', value: 'vms', effect: 'NoSchedule' },
                        { key: 'soft', operator: 'Exists' },
                      ]),
                    ],
                  }
                : {}),
              ...(zone
                ? {
                    affinity: {
                      nodeAffinity: {
                        preferredDuringSchedulingIgnoredDuringExecution: [
                          {
                            weight: pick([1, 50, 100]),
                            preference: { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [zone] }] },
                          },
                        ],
                      },
                    },
                  }
                : {}),
            },
          },
        },
      };
      const r = previewVm(vm, store, config, 'default');
      if (r.pod) queue.push(r.pod);
    }
    if (queue.length === 0) continue;
    const images = [...new Set(queue.flatMap((p) => [...(p.spec.initContainers ?? []), ...p.spec.containers].map((c) => c.image)))];
    const nodes = [];
    const nodeCount = 1 + Math.floor(rnd() * 8);
    for (let i = 0; i < nodeCount; i++) {
      const labels = {
        'kubernetes.io/hostname': `n${i}`,
        'kubernetes.io/arch': chance(0.95) ? 'amd64' : 'arm64',
        ...(chance(0.95) ? { 'kubevirt.io/schedulable': 'true' } : {}),
        ...(chance(0.5) ? { 'kubevirt.io/cpumanager': 'true' } : {}),
        ...(chance(0.9) ? { 'machine-type.node.kubevirt.io/q35': 'true' } : {}),
        ...(chance(0.7) ? { 'topology.kubernetes.io/zone': pick(['a', 'b']) } : {}),
      };
      const allocatable = {
        cpu: pick(['4', '8', '16', '32', '7500m']),
        memory: pick(['8Gi', '16Gi', '32Gi', '64Gi', '16235904Ki']),
        pods: pick(['110', '110', '4', '250']),
        'ephemeral-storage': pick(['100Gi', '20Gi']),
        ...(chance(0.95) ? { 'devices.kubevirt.io/kvm': '1k', 'devices.kubevirt.io/tun': '1k', 'devices.kubevirt.io/vhost-net': '1k' } : {}),
        ...(chance(0.3) ? { 'hugepages-2Mi': pick(['4Gi', '16Gi']) } : {}),
        ...(chance(0.2) ? { 'hugepages-1Gi': pick(['8Gi', '32Gi']) } : {}),
      };
      const spec = {};
      if (chance(0.05)) spec.unschedulable = true;
      if (chance(0.3))
        spec.taints = [
          pick([
            { key: 'dedicated', value: 'vms', effect: 'NoSchedule' },
            { key: 'soft', effect: 'PreferNoSchedule' },
            { key: 'soft', value: 'x', effect: 'PreferNoSchedule' },
            { key: 'gpu', effect: 'NoExecute' },
          ]),
        ];
      const held = images.filter(() => chance(0.4)).map((img) => ({ names: [img], sizeBytes: pick([80, 300, 900, 2500]) * 1024 * 1024 }));
      nodes.push({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: `n${i}`, labels },
        spec,
        status: { allocatable, ...(held.length > 0 ? { images: held } : {}) },
      });
    }
    const pods = [];
    const podCount = Math.floor(rnd() * 6);
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
              // Some request nothing: the scheduler counts them at its non-zero defaults when scoring.
              ...(chance(0.8) ? { resources: { requests: { cpu: pick(['250m', '1', '3']), memory: pick(['512Mi', '2Gi', '6Gi']) } } } : {}),
            },
          ],
        },
        status: { phase: chance(0.1) ? 'Succeeded' : 'Running' },
      });
    cases.push({ id: `p${String(cases.length + 1).padStart(5, '0')}`, mode: 'place', queue, nodes, pods });
  }
  answerWithKubeOracle(dir, cases);
  console.log(`${cases.length} sets, ${cases.reduce((a, c) => a + c.queue.length, 0)} pods`);
}

if (mode === 'gen') gen();
else {
  console.error('usage: KUBE_ORACLE=... place-corpus.mjs gen DIR --bundle FILE [--seed N] [--count N]');
  process.exit(1);
}

#!/usr/bin/env node
// The preview corpus: VirtualMachines as people write them (every family and preference of the
// upstream common-instancetypes bundle, containerDisk, PVC and DataVolume root disks with their
// PVCs, cloud-init, explicit disks, NICs and buses, node selectors, tolerations and affinity, GPUs
// and host devices, dedicated CPUs and hugepages, Halted and Manual run strategies) under varied
// KubeVirt CRs (CPU model, machine type, default architecture arm64, rollout strategy, hotplug
// limits, CPU allocation ratio, memory overcommit, eviction strategy, default pod binding, feature
// gates, support container resources, added overhead ratio), made with a fixed seed and answered
// by the oracle's `preview` mode (KubeVirt's own start path, VMI webhooks and RenderLaunchManifest),
// built outside this repository and named by the ORACLE variable (never part of the product or its
// tests).
//
//   node tools/preview-corpus.mjs gen DIR --bundle FILE [--seed N] [--count N]   writes DIR/cases.jsonl
//   ORACLE=... node tools/preview-corpus.mjs answer DIR                           writes DIR/answers.jsonl
//
// --bundle is a JSON line `{"mode":"objects-set","id":"bundle","objects":[...]}`: the upstream
// bundle's objects with fixed UIDs (the oracle's samples/cases.jsonl line 1).
// test/preview-corpus.test.ts replays DIR (committed gzipped under test/fixtures/preview-corpus/).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { answerWithKubevirtOracle, corpusCommandLine, seeded } from './corpus-kit.mjs';

const { mode, dir, opt } = corpusCommandLine();

function gen() {
  const seed = Number(opt('--seed', '1'));
  const count = Number(opt('--count', '2000'));
  const bundleLine = readFileSync(opt('--bundle'), 'utf8').split('\n')[0];
  const bundle = JSON.parse(bundleLine);
  const { pick, chance } = seeded(seed);
  const its = bundle.objects.filter((o) => o.kind === 'VirtualMachineClusterInstancetype');
  const prefs = bundle.objects.filter((o) => o.kind === 'VirtualMachineClusterPreference');
  const archOf = (p) => p.spec?.preferredArchitecture ?? 'amd64';
  const images = [
    'quay.io/containerdisks/fedora:41',
    'quay.io/containerdisks/ubuntu:24.04',
    'quay.io/containerdisks/centos-stream:9',
    'registry.example/disk',
    'registry.example/win:latest',
  ];

  const kubevirtCR = () => {
    if (chance(0.35)) return null;
    const c = {};
    if (chance(0.2)) c.cpuModel = pick(['Haswell-noTSX', 'host-passthrough', 'Skylake-Server-IBRS']);
    if (chance(0.2))
      c.architectureConfiguration = { amd64: { machineType: pick(['q35', 'pc-q35-rhel9.4.0']) }, ...(chance(0.3) ? { defaultArchitecture: 'arm64' } : {}) };
    if (chance(0.15)) c.developerConfiguration = { cpuAllocationRatio: pick([1, 2, 5, 10, 20]) };
    if (chance(0.15)) c.developerConfiguration = { ...(c.developerConfiguration ?? {}), memoryOvercommit: pick([100, 110, 150, 200]) };
    if (chance(0.1))
      c.developerConfiguration = {
        ...(c.developerConfiguration ?? {}),
        featureGates: pick([['CPUManager'], ['Sidecar'], ['HostDevices', 'GPU'], ['AlignCPUs'], ['PersistentReservation']]),
      };
    if (chance(0.15)) c.vmRolloutStrategy = pick(['Stage', 'LiveUpdate']);
    if (chance(0.15))
      c.liveUpdateConfiguration = {
        ...(chance(0.5) ? { maxCpuSockets: pick([4, 8, 16, 64]) } : {}),
        ...(chance(0.5) ? { maxGuest: pick(['16Gi', '64Gi', '256Gi']) } : {}),
        ...(chance(0.5) ? { maxHotplugRatio: pick([2, 3, 8]) } : {}),
      };
    if (chance(0.1)) c.evictionStrategy = pick(['LiveMigrate', 'LiveMigrateIfPossible', 'External', 'None']);
    if (chance(0.1)) c.network = { defaultNetworkInterface: pick(['masquerade', 'bridge']) };
    if (chance(0.1)) c.additionalGuestMemoryOverheadRatio = pick(['1.5', '2', '1.25']);
    if (chance(0.1))
      c.supportContainerResources = [
        {
          type: pick(['virtiofs', 'hotplug-disk', 'guest-console-log', 'container-disk']),
          resources: { requests: { cpu: '20m', memory: '30M' }, limits: { cpu: '50m', memory: '80M' } },
        },
      ];
    if (chance(0.08)) c.cpuRequest = pick(['200m', '1', '50m']);
    if (chance(0.08))
      c.permittedHostDevices = { pciHostDevices: [{ pciVendorSelector: '10DE:2236', resourceName: 'nvidia.com/GA102GL_A10' }], mediatedDevices: [] };
    if (chance(0.05)) c.machineType = 'q35';
    return { spec: { configuration: c, ...(chance(0.2) ? { workloadUpdateStrategy: { workloadUpdateMethods: ['LiveMigrate'] } } : {}) } };
  };

  const cases = [bundle];
  for (let n = 1; n <= count; n++) {
    const id = `p${String(n).padStart(5, '0')}`;
    const ns = chance(0.8) ? 'default' : 'team-b';
    const objects = [];
    const it = chance(0.92) ? pick(its) : undefined;
    const pref = chance(0.88) ? pick(prefs) : undefined;
    const arch = pref ? archOf(pref) : 'amd64';
    const volumes = [];
    const disks = [];
    const root = pick(['containerDisk', 'containerDisk', 'pvc', 'dataVolume', 'dataVolumeTemplate']);
    const dataVolumeTemplates = [];
    if (root === 'containerDisk') volumes.push({ name: 'rootdisk', containerDisk: { image: pick(images) } });
    if (root === 'pvc') {
      volumes.push({ name: 'rootdisk', persistentVolumeClaim: { claimName: `${id}-root` } });
      objects.push({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: `${id}-root`, namespace: ns },
        spec: {
          accessModes: [pick(['ReadWriteOnce', 'ReadWriteMany'])],
          volumeMode: pick(['Filesystem', 'Block']),
          resources: { requests: { storage: '30Gi' } },
        },
        status: { phase: 'Bound', capacity: { storage: '30Gi' } },
      });
    }
    if (root === 'dataVolume' || root === 'dataVolumeTemplate') {
      const dv = `${id}-dv`;
      volumes.push({ name: 'rootdisk', dataVolume: { name: dv } });
      const dvSpec = { source: { http: { url: 'https://images.example/disk.qcow2' } }, storage: { resources: { requests: { storage: '20Gi' } } } };
      if (root === 'dataVolume')
        objects.push({
          apiVersion: 'cdi.kubevirt.io/v1beta1',
          kind: 'DataVolume',
          metadata: { name: dv, namespace: ns },
          spec: dvSpec,
          status: { phase: 'Succeeded', progress: '100.0%' },
        });
      else dataVolumeTemplates.push({ metadata: { name: dv }, spec: dvSpec });
      objects.push({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: dv, namespace: ns },
        spec: { accessModes: ['ReadWriteOnce'], volumeMode: pick(['Filesystem', 'Block']), resources: { requests: { storage: '20Gi' } } },
        status: { phase: 'Bound', capacity: { storage: '20Gi' } },
      });
    }
    if (chance(0.6))
      volumes.push({ name: 'cloudinitdisk', cloudInitNoCloud: { userData: '#cloud-config\npassword: changeme\nchpasswd: { expire: False }\n' } });
    if (chance(0.15)) {
      volumes.push({ name: 'datadisk', persistentVolumeClaim: { claimName: `${id}-data` } });
      objects.push({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: `${id}-data`, namespace: ns },
        spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Filesystem', resources: { requests: { storage: '100Gi' } } },
        status: { phase: 'Bound', capacity: { storage: '100Gi' } },
      });
    }
    if (chance(0.08)) volumes.push({ name: 'scratch', emptyDisk: { capacity: '2Gi' } });
    if (chance(0.3))
      for (const v of volumes)
        if (chance(0.6))
          disks.push({ name: v.name, ...(chance(0.5) ? { disk: { bus: pick(['virtio', 'sata', 'scsi']) } } : {}), ...(chance(0.1) ? { bootOrder: 1 } : {}) });
    const devices = {};
    if (disks.length > 0) devices.disks = disks;
    if (chance(0.2)) devices.autoattachSerialConsole = chance(0.5);
    if (chance(0.1)) devices.autoattachGraphicsDevice = false;
    if (chance(0.08)) devices.autoattachMemBalloon = false;
    if (chance(0.1)) devices.rng = {};
    if (chance(0.05)) devices.tpm = {};
    if (chance(0.05)) devices.watchdog = { name: 'wd' };
    if (chance(0.1)) devices.networkInterfaceMultiqueue = true;
    if (chance(0.06)) devices.hostDevices = [{ name: 'hostdev1', deviceName: pick(['example.com/fpga', 'nvidia.com/GA102GL_A10']) }];
    if (chance(0.05)) devices.gpus = [{ name: 'gpu1', deviceName: 'nvidia.com/GA102GL_A10' }];
    let networks;
    if (chance(0.25)) {
      const binding = pick(['masquerade', 'bridge']);
      devices.interfaces = [{ name: 'default', [binding]: {}, ...(chance(0.3) ? { model: pick(['virtio', 'e1000e']) } : {}) }];
      networks = [{ name: 'default', pod: {} }];
    }
    const domain = { devices };
    if (!it) {
      if (chance(0.5)) domain.cpu = { cores: pick([1, 2, 4]), ...(chance(0.3) ? { sockets: 2 } : {}) };
      domain.memory = { guest: pick(['1Gi', '2Gi', '4Gi', '3072Mi']) };
      if (chance(0.2)) domain.resources = { requests: { memory: domain.memory.guest, ...(chance(0.5) ? { cpu: pick(['500m', '2']) } : {}) } };
    }
    if (chance(0.08) && !it) domain.firmware = { bootloader: { efi: { secureBoot: false } } };
    if (chance(0.06)) domain.features = { acpi: {} };
    const spec = { domain, ...(volumes.length > 0 ? { volumes } : {}), ...(networks ? { networks } : {}) };
    if (chance(0.15)) spec.nodeSelector = { 'topology.kubernetes.io/zone': pick(['zone-a', 'zone-b']) };
    if (chance(0.1)) spec.tolerations = [{ key: 'dedicated', operator: 'Equal', value: 'vms', effect: 'NoSchedule' }];
    if (chance(0.08))
      spec.affinity = {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'node-role.kubernetes.io/worker', operator: 'Exists' }] }],
          },
        },
      };
    if (chance(0.08)) spec.evictionStrategy = pick(['LiveMigrate', 'None']);
    if (chance(0.06)) spec.terminationGracePeriodSeconds = pick([0, 30, 180]);
    if (chance(0.05)) spec.priorityClassName = 'vm-high';
    if (chance(0.05)) spec.schedulerName = 'custom-scheduler';
    if (chance(0.05)) spec.hostname = 'custom-host';
    const labels = { 'kubevirt.io/domain': id, ...(chance(0.5) ? { app: 'demo' } : {}) };
    const template = { metadata: { labels, ...(chance(0.1) ? { annotations: { 'example.com/owner': 'team' } } : {}) }, spec };
    const vm = {
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachine',
      metadata: { name: id, ...(ns !== 'default' || chance(0.5) ? { namespace: ns } : {}), ...(chance(0.1) ? { labels: { app: 'demo' } } : {}) },
      spec: {
        runStrategy: pick(['Always', 'Always', 'Always', 'RerunOnFailure', 'Halted', 'Manual']),
        ...(it ? { instancetype: { name: it.metadata.name, ...(chance(0.3) ? { kind: 'VirtualMachineClusterInstancetype' } : {}) } } : {}),
        ...(pref ? { preference: { name: pref.metadata.name } } : {}),
        ...(dataVolumeTemplates.length > 0 ? { dataVolumeTemplates } : {}),
        template,
      },
    };
    if (arch !== 'amd64' && chance(0.5)) vm.spec.template.spec.architecture = arch;
    const c = {
      category: `preview-${root}${it ? `-${it.metadata.name.split('.')[0]}` : ''}`,
      mode: 'preview',
      id,
      vm,
      objectSets: ['bundle'],
      objects,
      kubevirt: kubevirtCR(),
    };
    if (ns !== 'default') c.namespace = ns;
    if (devices.tpm || (pref && /windows/.test(pref.metadata.name)))
      c.objects.push({
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
        provisioner: 'example.com/csi',
      });
    cases.push(c);
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'cases.jsonl'), cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
  console.log(`${cases.length - 1} cases`);
}

if (mode === 'gen') gen();
else if (mode === 'answer') answerWithKubevirtOracle(dir);
else {
  console.error('usage: preview-corpus.mjs gen|answer DIR');
  process.exit(1);
}

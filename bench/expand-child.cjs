// Child of bench/expand.mjs: in one fresh process, compile the common-instancetypes catalog and
// expand and admit N VirtualMachines (built in memory) against it through the library, or (mode
// `pod`) start each as KubeVirt does, to its VMI and virt-launcher pod. Prints one
// JSON line: the expand-and-admit time, the whole process time and the peak RSS.
'use strict';
const started = process.hrtime.bigint();
const path = require('node:path');
const [root, count, mode] = [process.argv[2], Number(process.argv[3]), process.argv[4] ?? 'expand'];
const dist = path.join(__dirname, '..', 'dist');
const { compile } = require(path.join(dist, 'pipeline', 'index.js'));
const { admit, expand, objectStore, resolveReferences } = require(path.join(dist, 'expand', 'index.js'));
const { previewVm } = require(path.join(dist, 'expand', 'judge.js'));
const { kubevirtConfig } = require(path.join(dist, 'kubevirt', 'config.js'));
const compiled = compile(root, 'generators/common-instancetypes.yaml');
const store = objectStore(compiled.objects.map((o) => o.manifest));
const names = (kind) => compiled.objects.filter((o) => o.manifest.kind === kind).map((o) => o.manifest.metadata.name);
const instancetypes = names('VirtualMachineClusterInstancetype');
const preferences = names('VirtualMachineClusterPreference').filter((p) => !/\.(arm64|s390x)$/.test(p));
const vms = Array.from({ length: count }, (_, i) => ({
  apiVersion: 'kubevirt.io/v1',
  kind: 'VirtualMachine',
  metadata: { name: `vm-${i}`, namespace: 'bench' },
  spec: {
    runStrategy: 'Always',
    instancetype: { name: instancetypes[i % instancetypes.length] },
    preference: { name: preferences[Math.floor(i / instancetypes.length) % preferences.length] },
    template: {
      metadata: { labels: { app: 'bench' } },
      spec: {
        domain: { devices: {} },
        volumes: [
          { name: 'rootdisk', containerDisk: { image: 'quay.io/containerdisks/fedora:41' } },
          { name: 'cloudinit', cloudInitNoCloud: { userData: '#cloud-config' } },
        ],
      },
    },
  },
}));
const t0 = process.hrtime.bigint();
let expanded = 0;
let refused = 0;
const config = kubevirtConfig(null).config;
for (const vm of vms) {
  if (mode === 'pod') {
    // The whole start: webhooks, the VM controller, the VMI webhooks and the launcher pod's render.
    const r = previewVm(vm, store, config, 'bench');
    if ('pod' in r) expanded++;
    else refused++;
    continue;
  }
  const { references, errors } = resolveReferences(vm, store);
  if (errors.length > 0) throw new Error(errors[0].message);
  const admitted = admit(vm, references);
  const result = expand(vm, references);
  if ('vm' in result && admitted.causes.length === 0) expanded++;
  else refused++;
}
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
const totalMs = Number(process.hrtime.bigint() - started) / 1e6;
console.log(
  JSON.stringify({
    ms,
    totalMs,
    expanded,
    refused,
    instancetypes: instancetypes.length,
    preferences: preferences.length,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
  }),
);

#!/usr/bin/env node
// Benchmark of `itgen migrate presets` end to end (bin/itgen, a fresh process): 24 presets (8 sizes
// with CPU topology and memory, 4 guest OS presets with firmware, clock and features, in 2
// namespaces... of which 12 per namespace) and N VirtualMachines each selected by one size and one
// OS preset, written to a scratch directory: reading, merging, planning, compiling the written
// catalog, expanding and comparing every VM, rewriting every VM file. Medians of N runs; reported,
// no target. Usage: node bench/migrate.mjs [--runs N] [--vms N]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const runs = arg('--runs', 3);
const count = arg('--vms', 2000);
const gnuTime = ['/usr/bin/time', '/bin/time'].find((p) => existsSync(p));

const sizes = [1, 2, 4, 8].flatMap((cores) => [2, 4].map((gib) => ({ name: `c${cores}m${gib * cores}`, cores, memory: `${gib * cores}Gi` })));
const oses = {
  linux: { firmware: { bootloader: { efi: { secureBoot: false } } } },
  bios: { firmware: { bootloader: { bios: { useSerial: true } } } },
  windows: {
    clock: { utc: {}, timer: { hpet: { present: false }, hyperv: {} } },
    features: { acpi: {}, apic: {}, smm: {}, hyperv: { relaxed: {}, vapic: {} } },
    firmware: { bootloader: { efi: { secureBoot: true } } },
  },
  appliance: { devices: { watchdog: { name: 'w', i6300esb: { action: 'reset' } } } },
};
const docs = [];
for (const namespace of ['team-a', 'team-b']) {
  for (const s of sizes) {
    docs.push({
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachineInstancePreset',
      metadata: { name: s.name, namespace },
      spec: { selector: { matchLabels: { size: s.name } }, domain: { cpu: { sockets: 1, cores: s.cores }, resources: { requests: { memory: s.memory } } } },
    });
  }
  for (const [os, domain] of Object.entries(oses)) {
    docs.push({
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachineInstancePreset',
      metadata: { name: os, namespace },
      spec: { selector: { matchExpressions: [{ key: 'os', operator: 'In', values: [os] }] }, domain },
    });
  }
}
const osNames = Object.keys(oses);
for (let i = 0; i < count; i++) {
  docs.push({
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachine',
    metadata: { name: `vm-${i}`, namespace: i % 2 === 0 ? 'team-a' : 'team-b' },
    spec: {
      runStrategy: 'Always',
      template: {
        metadata: { labels: { size: sizes[i % sizes.length].name, os: osNames[Math.floor(i / sizes.length) % osNames.length], app: `app-${i % 17}` } },
        spec: {
          domain: { devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } },
          volumes: [{ name: 'root', containerDisk: { image: 'quay.io/containerdisks/fedora:41' } }],
        },
      },
    },
  });
}

const work = mkdtempSync(path.join(os.tmpdir(), 'itgen-bench-migrate-'));
try {
  writeFileSync(path.join(work, 'input.yaml'), docs.map((d) => JSON.stringify(d)).join('\n---\n'));
  const times = [];
  const rss = [];
  let last;
  for (let r = 0; r < runs; r++) {
    rmSync(path.join(work, 'out'), { recursive: true, force: true });
    const argv = [path.join(repo, 'bin', 'itgen'), 'migrate', 'presets', '--out', 'out', 'input.yaml'];
    const t0 = process.hrtime.bigint();
    last = gnuTime
      ? spawnSync(gnuTime, ['-f', '%M', ...argv], { cwd: work, encoding: 'utf8', maxBuffer: 1 << 28 })
      : spawnSync(argv[0], argv.slice(1), { cwd: work, encoding: 'utf8', maxBuffer: 1 << 28 });
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (gnuTime) rss.push(Number(last.stderr.trim().split('\n').pop()) / 1024);
    if (last.status !== 0) throw new Error(`itgen migrate failed (exit ${last.status}):\n${last.stderr.slice(-2000)}`);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const summary = last.stderr.split('\n').find((l) => l.startsWith('wrote')) ?? '';
  console.log(
    `migrate presets: ${docs.length - count} presets, ${count} VMs: ${median(times).toFixed(0)} ms${rss.length ? `, ${median(rss).toFixed(0)} MiB peak` : ''} (median of ${runs}; ${summary.replace(/ to \S+:/, ':').replace(/;.*/, '')})`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

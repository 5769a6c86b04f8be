#!/usr/bin/env node
// The resize corpus: running VMs of the upstream common-instancetypes bundle switched to another
// instance type or preference (sizes up and down in every family, family changes, preference
// changes, missing targets, targets the preference refuses), under varied KubeVirt CRs (the Stage
// rollout strategy, LiveMigrate as a workload update method or not, hotplug limits and ratios),
// live-migratable or not. Made with a fixed seed in two passes through the oracle built outside
// this repository (ORACLE, never part of the product or its tests): its `preview` mode starts each
// VM and answers the VM as the cluster stores it (status refs and ControllerRevision names
// included), then its `resize` mode answers each change with KubeVirt's own webhooks and VM
// controller.
//
//   ORACLE=... node tools/resize-corpus.mjs gen DIR --bundle FILE [--seed N] [--count N] [--vmis]
//     writes DIR/cases.jsonl and DIR/answers.jsonl; with --vmis each change is made to a running
//     VMI given with it (a migration in progress or ended, a hotplug in progress, LiveMigratable)
//
// test/resize-corpus.test.ts replays DIR (committed gzipped under test/fixtures/resize-corpus/).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { corpusCommandLine, runOracle, seeded } from './corpus-kit.mjs';

const { mode, dir, opt } = corpusCommandLine();

function oracle(lines) {
  return runOracle(process.env.ORACLE, lines.map((l) => JSON.stringify(l)).join('\n') + '\n', 'oracle')
    .toString()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

function gen() {
  if (!process.env.ORACLE) throw new Error('ORACLE names itgen-oracle');
  const seed = Number(opt('--seed', '1'));
  const count = Number(opt('--count', '1200'));
  const bundle = JSON.parse(readFileSync(opt('--bundle'), 'utf8').split('\n')[0]);
  const { pick, chance } = seeded(seed);
  const its = bundle.objects.filter((o) => o.kind === 'VirtualMachineClusterInstancetype').map((o) => o.metadata.name);
  const prefs = bundle.objects
    .filter((o) => o.kind === 'VirtualMachineClusterPreference' && (o.spec?.preferredArchitecture ?? 'amd64') === 'amd64')
    .map((o) => o.metadata.name);
  const family = (n) => n.split('.')[0];
  const sameFamily = (n) => its.filter((x) => family(x) === family(n) && x !== n);
  const kubevirtCR = () => {
    const c = {};
    if (chance(0.15)) c.vmRolloutStrategy = 'Stage';
    if (chance(0.2))
      c.liveUpdateConfiguration = {
        ...(chance(0.5) ? { maxCpuSockets: pick([4, 8, 16]) } : {}),
        ...(chance(0.4) ? { maxGuest: pick(['32Gi', '64Gi', '256Gi']) } : {}),
        ...(chance(0.4) ? { maxHotplugRatio: pick([2, 3, 8]) } : {}),
      };
    return {
      spec: {
        configuration: c,
        ...(chance(0.5) ? { workloadUpdateStrategy: { workloadUpdateMethods: pick([['LiveMigrate'], ['LiveMigrate', 'Evict'], ['Evict']]) } } : {}),
      },
    };
  };
  // Pass 1: start each VM, to have it as the cluster stores it.
  const bases = [];
  for (let n = 1; n <= Math.ceil(count / 2); n++) {
    const id = `b${String(n).padStart(5, '0')}`;
    const it = chance(0.93) ? pick(its) : undefined;
    const pref = chance(0.75) ? pick(prefs) : undefined;
    const domain = { devices: {} };
    if (!it) {
      domain.cpu = { sockets: pick([1, 2, 4]) };
      domain.memory = { guest: pick(['2Gi', '4Gi']) };
    }
    const vm = {
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachine',
      metadata: { name: id, namespace: 'default' },
      spec: {
        runStrategy: 'Always',
        ...(it ? { instancetype: { name: it, kind: 'VirtualMachineClusterInstancetype' } } : {}),
        ...(pref ? { preference: { name: pref } } : {}),
        template: { spec: { domain, volumes: [{ name: 'rootdisk', containerDisk: { image: 'quay.io/containerdisks/fedora:41' } }] } },
      },
    };
    bases.push({ category: 'base', mode: 'preview', id, vm, objectSets: ['bundle'], objects: [], kubevirt: kubevirtCR() });
  }
  const started = oracle([bundle, ...bases]).slice(1);
  const stored = new Map(started.filter((a) => a.vm && a.vmi && !a.error).map((a) => [a.id, a.vm]));
  const startedVmi = new Map(started.filter((a) => a.vm && a.vmi && !a.error).map((a) => [a.id, a.vmi]));
  // --vmis: each change is made to the running VMI given with it, as `kubectl get vmi -o yaml`
  // shows one: its memory status, and a migration in progress or ended, a hotplug in progress, or
  // its LiveMigratable condition.
  const withVmi = process.argv.includes('--vmis');
  const running = (vmi) => {
    const guest = vmi.spec?.domain?.memory?.guest;
    const status = { ...(guest ? { memory: { guestAtBoot: guest, guestCurrent: guest, guestRequested: guest } } : {}) };
    const variant = pick(['migrating', 'migrated', 'cpuHotplug', 'memoryHotplug', 'notMigratable', 'migratable', 'plain']);
    const t = '2026-11-01T10:00:00Z';
    if (variant === 'migrating') status.migrationState = { startTimestamp: t, sourceNode: 'node-a', targetNode: 'node-b' };
    if (variant === 'migrated') status.migrationState = { startTimestamp: t, endTimestamp: '2026-11-01T10:01:00Z', completed: true };
    const condition = { cpuHotplug: 'HotVCPUChange', memoryHotplug: 'HotMemoryChange', notMigratable: 'LiveMigratable', migratable: 'LiveMigratable' }[variant];
    if (condition) status.conditions = [{ type: condition, status: variant === 'notMigratable' ? 'False' : 'True' }];
    return { vmi: { ...vmi, status }, variant };
  };
  // Pass 2: the changes.
  const cases = [bundle];
  let n = 0;
  for (const b of bases) {
    const vm = stored.get(b.id);
    if (!vm) continue;
    for (let k = 0; k < 2 && n < count; k++) {
      n++;
      const id = `r${String(n).padStart(5, '0')}`;
      const current = vm.spec.instancetype?.name;
      const kind = pick(current ? ['sizeUp', 'sizeDown', 'sizeAny', 'family', 'preference', 'both', 'missing'] : ['preference', 'family']);
      let to = {};
      if (kind === 'family' || (!current && kind !== 'preference')) to = { instancetype: { name: pick(its), kind: 'VirtualMachineClusterInstancetype' } };
      else if (kind === 'sizeUp' || kind === 'sizeDown' || kind === 'sizeAny') {
        const siblings = sameFamily(current);
        if (siblings.length === 0) to = { instancetype: { name: pick(its) } };
        else to = { instancetype: { name: pick(siblings), ...(chance(0.5) ? { kind: 'VirtualMachineClusterInstancetype' } : {}) } };
      } else if (kind === 'preference') to = { preference: { name: pick(prefs) } };
      else if (kind === 'both') to = { instancetype: { name: pick(its) }, preference: { name: pick(prefs) } };
      else if (kind === 'missing') to = { instancetype: { name: `${current}x` } };
      const c = { category: `resize-${kind}`, mode: 'resize', id, vm, to, objectSets: ['bundle'], objects: [], kubevirt: b.kubevirt };
      if (withVmi) {
        const { vmi, variant } = running(startedVmi.get(b.id));
        c.vmi = vmi;
        c.category = `resize-${kind}-${variant}`;
      } else if (chance(0.2)) c.liveMigratable = false;
      cases.push(c);
    }
  }
  const answers = oracle(cases);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'cases.jsonl'), cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
  writeFileSync(path.join(dir, 'answers.jsonl'), answers.map((a) => JSON.stringify(a)).join('\n') + '\n');
  console.log(`${cases.length - 1} cases`);
}

if (mode === 'gen') gen();
else {
  console.error('usage: ORACLE=... resize-corpus.mjs gen DIR --bundle FILE [--seed N] [--count N]');
  process.exit(1);
}

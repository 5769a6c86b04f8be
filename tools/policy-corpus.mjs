#!/usr/bin/env node
// The policy corpus: the admission policies itgen generates (src/policy) for catalogs and options,
// run by kube-oracle's `vap` mode (kube-apiserver v1.36.4's own ValidatingAdmissionPolicy plugin)
// on VM requests made with a fixed seed, and the policies checked by its `vap-typecheck` mode
// against KubeVirt's VirtualMachine schema. kube-oracle is built outside this repository and named
// by the KUBE_ORACLE variable (never part of the product or its tests).
//
//   KUBE_ORACLE=... node tools/policy-corpus.mjs gen DIR [--seed N] [--count N] [--jobs N] [--scale N]
//     writes DIR/sets.jsonl (each catalog, options and the policies generated), DIR/cases.jsonl
//     and DIR/answers.jsonl (needs `npm run build` first); with --scale N, one set instead: a
//     synthetic catalog of N instance types and N/5 preferences (scaleCatalog), with profiles
//
// test/policy-corpus.test.ts replays DIR (committed gzipped under test/fixtures/policy-corpus/);
// test/policy-scale.test.ts the --scale corpus (test/fixtures/policy-scale/).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusCommandLine, seeded } from './corpus-kit.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { policyObjects, DEFAULT_POLICY_OPTIONS, PROFILE_LABEL } = require(path.join(repo, 'dist', 'policy', 'index.js'));
const { policyCatalogOf } = require(path.join(repo, 'dist', 'policy', 'catalog.js'));

const { mode, dir, opt } = corpusCommandLine();

/** The cluster-wide objects of this repository's common-instancetypes generator, as the policy sees them. */
function upstreamCatalog() {
  const { openProject } = require(path.join(repo, 'dist', 'project', 'index.js'));
  const { results } = openProject({ root: repo, generators: ['generators/common-instancetypes.yaml'] }).compiled('files');
  return policyCatalogOf(results[0].objects);
}

/** A small catalog with deprecations (with and without a replacement) and a hostile-looking name. */
const SMALL = {
  instancetypes: [
    { name: 'u1.small', families: ['u1'], class: 'general' },
    { name: 'u1.medium', families: ['u1'], class: 'general' },
    { name: 'u1.large', families: ['u1'], class: 'general' },
    { name: 'cx1.large', families: ['cx1'], class: 'compute' },
    { name: 'cx1.xlarge', families: ['cx1'], class: 'compute' },
    { name: 'o1.medium', families: ['o1'], class: 'overcommitted', deprecated: { replacement: 'u1.medium' } },
    { name: 'o1.large', families: ['o1'], class: 'overcommitted', deprecated: {} },
    { name: 'gn1.a10.xlarge', families: ['gn1'], class: 'gpu' },
    { name: 'team"x\\y', families: ['team'], class: 'general' },
  ],
  preferences: [
    { name: 'fedora' },
    { name: 'rhel.9' },
    { name: 'rhel.8', deprecated: { replacement: 'rhel.9' } },
    { name: 'centos.7', deprecated: {} },
    { name: 'windows.11' },
  ],
};

const PROFILES = {
  gold: { classes: ['general', 'compute', 'general.purpose'] },
  silver: { families: ['u1', 'n', 'n1'], names: ['cx1.large'] },
  none: {},
};

/**
 * A catalog of `n` instance types (families of 20 sizes; every tenth family deprecated for the next
 * one) and n/5 preferences (operating systems, versions and variants), as a large vendor ships.
 */
function scaleCatalog(n) {
  const sizes = [
    'nano',
    'micro',
    'small',
    'medium',
    'large',
    'xlarge',
    '2xlarge',
    '4xlarge',
    '8xlarge',
    '12xlarge',
    '16xlarge',
    '24xlarge',
    '32xlarge',
    '48xlarge',
    '64xlarge',
    '96xlarge',
    '128xlarge',
    '192xlarge',
    '256xlarge',
    '384xlarge',
  ];
  const kinds = [
    ['u', 'general'],
    ['o', 'overcommitted'],
    ['cx', 'compute'],
    ['m', 'memory'],
    ['n', 'network'],
    ['gn', 'gpu'],
    ['rt', 'realtime'],
    ['d', 'dedicated'],
  ];
  const fams = Array.from({ length: Math.ceil(n / sizes.length) }, (_, i) => ({ prefix: kinds[i % 8][0], gen: Math.floor(i / 8) + 1, cls: kinds[i % 8][1] }));
  const instancetypes = [];
  fams.forEach((f, i) => {
    const next = fams[i + 8];
    for (const size of sizes) {
      if (instancetypes.length === n) return;
      instancetypes.push({
        name: `${f.prefix}${f.gen}.${size}`,
        families: [f.prefix, `${f.prefix}${f.gen}`],
        class: f.cls,
        ...(i % 10 === 9 ? { deprecated: next ? { replacement: `${next.prefix}${next.gen}.${size}` } : {} } : {}),
      });
    }
  });
  const oses = ['rhel', 'fedora', 'windows', 'ubuntu', 'debian', 'centos', 'sles', 'alpine'];
  const variants = ['', '.virtio', '.efi', '.arm64', '.dpdk'];
  const preferences = [];
  for (let v = 1; preferences.length < n / 5; v++)
    for (const os of oses)
      for (const variant of variants)
        if (preferences.length < n / 5)
          preferences.push({ name: `${os}.${v}${variant}`, ...(v % 25 === 0 ? { deprecated: { replacement: `${os}.${v + 1}${variant}` } } : {}) });
  return { instancetypes, preferences, otherNames: ['vendor-x.*', 'legacy.large'] };
}

const scale = opt('--scale', '');
const SETS =
  scale !== ''
    ? [
        {
          set: `scale-${scale}`,
          catalog: scaleCatalog(Number(scale)),
          options: {
            ...DEFAULT_POLICY_OPTIONS,
            prefix: 'itgen.vendor',
            requireInstancetype: true,
            profiles: { gold: { classes: ['general', 'compute'] }, silver: { families: ['u1', 'cx3'], names: ['m2.large'] }, none: {} },
          },
        },
      ]
    : [
        { set: 'upstream-default', catalog: upstreamCatalog(), options: { ...DEFAULT_POLICY_OPTIONS, prefix: 'itgen.common-instancetypes' } },
        {
          set: 'upstream-governed',
          catalog: upstreamCatalog(),
          options: {
            ...DEFAULT_POLICY_OPTIONS,
            prefix: 'itgen.common-instancetypes',
            requireInstancetype: true,
            profiles: PROFILES,
            kubevirtNamespace: 'openshift-cnv',
            paramsNamespace: 'vm-admin',
          },
        },
        { set: 'small-warn', catalog: SMALL, options: { ...DEFAULT_POLICY_OPTIONS, prefix: 'itgen.small', profiles: PROFILES } },
        {
          set: 'small-others',
          catalog: { ...SMALL, otherNames: ['n1.*', 'rhel.10', 'windows.2k25', 'u1.medium'] },
          options: { ...DEFAULT_POLICY_OPTIONS, prefix: 'itgen.small', profiles: PROFILES },
        },
        {
          // Names the release lock records removed, with their replacements (removedNames).
          set: 'small-removed',
          catalog: {
            ...SMALL,
            removed: {
              instancetype: [
                { name: 'o2.large', release: 'v1.2.0', replacement: 'u1.large' },
                { name: 'u0.small', release: 'v1.1.0', replacement: 'u1.small' },
              ],
              preference: [{ name: 'rhel.7', release: 'v1.3.0', replacement: 'rhel.9' }],
            },
          },
          options: { ...DEFAULT_POLICY_OPTIONS, prefix: 'itgen.small', profiles: PROFILES },
        },
        {
          set: 'small-strict',
          catalog: SMALL,
          options: { ...DEFAULT_POLICY_OPTIONS, prefix: 'itgen.small', deprecated: 'deny', requireInstancetype: true, requirePreference: true },
        },
      ];

function typos(name, rnd) {
  const chars = [...name];
  const i = Math.floor(rnd() * chars.length);
  const letter = 'abcdefghijklmnopqrstuvwxyz0123456789.-'[Math.floor(rnd() * 38)];
  switch (Math.floor(rnd() * 6)) {
    case 0:
      return [...chars.slice(0, i), ...chars.slice(i + 1)].join('');
    case 1:
      return [...chars.slice(0, i), letter, ...chars.slice(i)].join('');
    case 2:
      return [...chars.slice(0, i), letter, ...chars.slice(i + 1)].join('');
    case 3:
      return i + 1 < chars.length ? [...chars.slice(0, i), chars[i + 1], chars[i], ...chars.slice(i + 2)].join('') : `${name}x`;
    case 4:
      return `${name}${letter}${letter}`;
    default:
      return [...chars.slice(0, i), letter, letter, ...chars.slice(i + 2)].join('');
  }
}

/** The JSON Schema reduced to what a CRD's structural schema says (types, properties, items, maps). */
function structural(s) {
  if (!s || typeof s !== 'object') return {};
  const out = {};
  if (s.type) out.type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (s['x-kubernetes-int-or-string']) return { 'x-kubernetes-int-or-string': true };
  if (s.properties)
    out.properties = Object.fromEntries(
      Object.entries(s.properties)
        .filter(([k]) => !['apiVersion', 'kind', 'metadata'].includes(k) || out.type !== 'object' || true)
        .map(([k, v]) => [k, structural(v)]),
    );
  if (s.items) out.items = structural(s.items);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') out.additionalProperties = structural(s.additionalProperties);
  if (out.type === 'object' && !out.properties && !out.additionalProperties) out['x-kubernetes-preserve-unknown-fields'] = true;
  return out;
}

if (mode === 'gen') {
  const seed = Number(opt('--seed', '1'));
  const count = Number(opt('--count', '1200'));
  const jobs = Number(opt('--jobs', '8'));
  const { rnd, pick, chance } = seeded(seed);
  const sets = SETS.map((s) => ({ ...s, objects: policyObjects(s.catalog, s.options) }));
  const cases = [];
  while (cases.length < count) {
    const s = pick(sets);
    const others = (s.catalog.otherNames ?? []).map((n) => ({ name: n.endsWith('*') ? `${n.slice(0, -1)}${pick(['large', 'xlarge', ''])}` : n }));
    const its = [...s.catalog.instancetypes, ...others, ...(s.catalog.removed?.instancetype ?? [])];
    const prefs = [...s.catalog.preferences, ...others, ...(s.catalog.removed?.preference ?? [])];
    const name = (entries) => {
      const r = rnd();
      if (r < 0.35) return pick(entries).name;
      if (r < 0.75) return typos(pick(entries).name, rnd);
      if (r < 0.8)
        return chance(0.5)
          ? 'x'.repeat(60 + Math.floor(rnd() * 10))
          : Array.from({ length: 55 + Math.floor(rnd() * 10) }, () => 'abcdefghijklmnopqrstuvwxyz0123456789.-'[Math.floor(rnd() * 38)]).join('');
      if (r < 0.85) return pick(['ü1.medium', 'u1.medium ', 'U1.MEDIUM', '', 'a']);
      const deprecated = entries.filter((e) => e.deprecated);
      return deprecated.length > 0 ? pick(deprecated).name : pick(entries).name;
    };
    const matcher = (entries, which) => {
      if (chance(0.12)) return undefined;
      const m = { name: name(entries) };
      if (chance(0.2))
        m.kind = pick(
          which === 'instancetype'
            ? ['VirtualMachineClusterInstancetype', 'virtualmachineclusterinstancetypes', 'VirtualMachineInstancetype', 'virtualmachineinstancetype', 'Other']
            : ['VirtualMachineClusterPreference', 'VirtualMachineClusterPreferences', 'VirtualMachinePreference', 'Other'],
        );
      return m;
    };
    const vm = (it, pref) => ({
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachine',
      metadata: { name: `vm${cases.length + 1}`, namespace: 'ns' },
      spec: {
        runStrategy: 'Always',
        ...(it ? { instancetype: it } : {}),
        ...(pref ? { preference: pref } : {}),
        template: { spec: { domain: { devices: {} }, volumes: [{ name: 'root', containerDisk: { image: 'quay.io/containerdisks/fedora:41' } }] } },
      },
    });
    const namespace = pick(['team-gold', 'team-silver', 'team-none', 'plain', 'team-other']);
    const labels = { 'team-gold': 'gold', 'team-silver': 'silver', 'team-none': 'none', 'team-other': 'bronze' };
    const object = vm(matcher(its, 'instancetype'), matcher(prefs, 'preference'));
    object.metadata.namespace = namespace;
    let oldObject = null;
    const operation = chance(0.35) ? 'UPDATE' : 'CREATE';
    if (operation === 'UPDATE') {
      oldObject = chance(0.4) ? JSON.parse(JSON.stringify(object)) : vm(matcher(its, 'instancetype'), matcher(prefs, 'preference'));
      oldObject.metadata.namespace = namespace;
      oldObject.metadata.name = object.metadata.name;
      if (chance(0.2)) oldObject.spec.runStrategy = 'Halted';
    }
    const kvns = s.options.kubevirtNamespace;
    const username = pick([
      'alice',
      'alice',
      'alice',
      `system:serviceaccount:${kvns}:kubevirt-controller`,
      `system:serviceaccount:${kvns}:kubevirt-apiserver`,
      `system:serviceaccount:${kvns}:default`,
      'system:serviceaccount:tenant:kubevirt-controller',
    ]);
    cases.push({
      id: `p${String(cases.length + 1).padStart(5, '0')}`,
      set: s.set,
      namespaces: ['team-gold', 'team-silver', 'team-none', 'plain', 'team-other', kvns, s.options.paramsNamespace].map((n) => ({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: n, ...(labels[n] ? { labels: { [PROFILE_LABEL]: labels[n] } } : {}) },
      })),
      request: { operation, userInfo: { username, groups: ['system:authenticated'] }, namespace },
      object,
      oldObject,
    });
  }
  const bySet = new Map(sets.map((s) => [s.set, s]));
  const lines = cases.map((c) => {
    const objects = bySet.get(c.set).objects;
    const dedupNs = [...new Map(c.namespaces.map((n) => [n.metadata.name, n])).values()];
    return JSON.stringify({
      id: c.id,
      mode: 'vap',
      policies: objects.filter((o) => o.kind === 'ValidatingAdmissionPolicy'),
      bindings: objects.filter((o) => o.kind === 'ValidatingAdmissionPolicyBinding'),
      params: objects.filter((o) => o.kind === 'ConfigMap'),
      namespaces: dedupNs,
      request: c.request,
      object: c.object,
      oldObject: c.oldObject,
    });
  });
  // Each set's policies type-checked against KubeVirt's VirtualMachine schema.
  const schema = structural(
    JSON.parse(readFileSync(path.join(repo, 'test', 'reference', 'kubevirt-schemas', 'kubevirt.io-v1', 'VirtualMachine.json'), 'utf8')),
  );
  const typecheck = sets.flatMap((s) =>
    s.objects
      .filter((o) => o.kind === 'ValidatingAdmissionPolicy')
      .map((p) =>
        JSON.stringify({
          id: `t-${s.set}-${p.metadata.name}`,
          mode: 'vap-typecheck',
          policy: p,
          schemas: [{ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', openAPIV3Schema: schema }],
        }),
      ),
  );
  const all = [...typecheck, ...lines];
  const chunks = Array.from({ length: jobs }, (_, j) => all.filter((_, i) => i % jobs === j));
  const outs = await Promise.all(
    chunks.map(
      (chunk) =>
        new Promise((resolve, reject) => {
          const p = spawn(process.env.KUBE_ORACLE, [], { stdio: ['pipe', 'pipe', 'inherit'] });
          let out = '';
          p.stdout.on('data', (d) => (out += d));
          p.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`kube-oracle exited ${code}`))));
          p.stdin.end(chunk.join('\n') + '\n');
        }),
    ),
  );
  const answers = outs
    .flatMap((o) => o.split('\n').filter((l) => l !== ''))
    .map((l) => JSON.parse(l))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'sets.jsonl'),
    sets.map((s) => JSON.stringify({ set: s.set, catalog: s.catalog, options: s.options, objects: s.objects })).join('\n') + '\n',
  );
  writeFileSync(path.join(dir, 'cases.jsonl'), cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
  writeFileSync(path.join(dir, 'answers.jsonl'), answers.map((a) => JSON.stringify(a)).join('\n') + '\n');
  console.log(`${cases.length} cases, ${typecheck.length} policies type-checked`);
} else {
  console.error('usage: KUBE_ORACLE=... policy-corpus.mjs gen DIR [--seed N] [--count N] [--jobs N]');
  process.exit(1);
}

/**
 * Admission policies from the catalog as a platform team uses them: `itgen policy`, the
 * generator's `policy:` writing <output>/policy/, `validate --vms` saying what they do to each VM.
 * Their verdicts on the cluster are proven by test/policy-corpus.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Environment } from '@marcbachmann/cel-js';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { celString, DEFAULT_POLICY_OPTIONS, PROFILE_LABEL, policyObjects, wrapCel, type PolicyCatalog } from '../src/policy';
import { judgePolicies } from '../src/policy/judge';
import { nearestName } from '../src/suggest';
import { checkPolicyCel } from '../src/policy/check';
import type { JsonObject } from '../src/json';
import { runInProcess, SMALL_CATALOG, writeFiles } from './e2e-helpers';
import { compile } from '../src/pipeline';
import { currentObjects, recordRelease, serializeLock } from '../src/release/lock';
import { parseSource } from '../src/load/source';
import { lockSchema } from '../src/schema/lock';

const CATALOG: Record<string, string> = {
  ...SMALL_CATALOG,
  'catalogs/small/o1.yaml': `kind: Family
name: o1
displayName: Overcommitted
description: Overcommitted instance types
class: overcommitted
memoryPerCPU: 2Gi
deprecated: {replacement: u1}
`,
};
const POLICY = `policy:
  requireInstancetype: true
  otherNames: ["ext.*"]
  profiles:
    sandbox: {names: [u1.small]}
    gold: {classes: [general.purpose], families: [o1, zz]}
`;
const VM = (name: string, namespace: string, it?: string, pref?: string): string =>
  `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: ${name}, namespace: ${namespace}}\nspec:\n  runStrategy: Always\n${it ? `  instancetype: {name: ${it}}\n` : ''}${pref ? `  preference: {name: ${pref}}\n` : ''}  template:\n    spec:\n      domain: {devices: {}${it ? '' : ', resources: {requests: {memory: 1Gi}}'}}\n      volumes: [{name: rootdisk, containerDisk: {image: "quay.io/containerdisks/fedora:41"}}]\n`;

describe('itgen policy and the generator policy option', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-policy-'));
    writeFiles(dir, CATALOG);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const withPolicy = (): void =>
    writeFileSync(path.join(dir, 'generators/small.yaml'), SMALL_CATALOG['generators/small.yaml']!.replace('suppressWarnings:', `${POLICY}suppressWarnings:`));

  it('prints the default policies of a generator without policy: (unknown names denied, deprecated ones warned)', () => {
    const r = runInProcess(dir, ['policy']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^# small: the default policies \(the generator has no policy: option\)\n---\napiVersion: admissionregistration\.k8s\.io\/v1\n/);
    const json = JSON.parse(runInProcess(dir, ['policy', '-o', 'json']).out) as { items: JsonObject[] };
    expect(json.items.map((o) => `${String(o['kind'])}/${String((o['metadata'] as JsonObject)['name'])}`)).toEqual([
      'ValidatingAdmissionPolicy/itgen.small.catalog',
      'ValidatingAdmissionPolicyBinding/itgen.small.catalog',
      'ValidatingAdmissionPolicy/itgen.small.deprecation',
      'ValidatingAdmissionPolicyBinding/itgen.small.deprecation',
    ]);
    expect(existsSync(path.join(dir, 'output', 'small', 'policy'))).toBe(false);
  });

  it('a bad profile entry is said once, by one rule', () => {
    for (const [entry, words] of [
      ['"  "', 'a class, family or name, without `*`'],
      ['"u1*"', 'a class, family or name, without `*`'],
      ['""', 'a class, family or name, without `*`'],
    ] as const) {
      writeFileSync(
        path.join(dir, 'generators/small.yaml'),
        SMALL_CATALOG['generators/small.yaml']!.replace('suppressWarnings:', `policy:\n  profiles:\n    gold: {classes: [${entry}]}\nsuppressWarnings:`),
      );
      const r = runInProcess(dir, ['validate']);
      expect(r.code).toBe(1);
      const found = r.err.split('\n').filter((l) => / error IT1203 `policy\.profiles\.gold\.classes\[0\]`/.test(l));
      expect([entry, found.length]).toEqual([entry, 1]);
      expect(found[0]).toContain(words);
    }
  });

  it('generate writes them to <output>/policy/, a kustomize base of its own; check sees drift; removing policy: removes it', () => {
    withPolicy();
    const g = runInProcess(dir, ['generate']);
    expect(g.code).toBe(0);
    // A profile family the catalog lacks is said where it is written.
    expect(g.err).toMatch(/generators\/small\.yaml:\d+:\d+ warning IT5017 policy profile `gold`: no instance type of the catalog has the family `zz`/);
    const base = path.join(dir, 'output', 'small');
    expect(readFileSync(path.join(base, 'kustomization.yaml'), 'utf8')).not.toContain('policy');
    const docs = parseAllDocuments(readFileSync(path.join(base, 'policy', 'admission-policies.yaml'), 'utf8')).map((d) => d.toJS() as JsonObject);
    expect(docs.map((o) => `${String(o['kind'])}/${String((o['metadata'] as JsonObject)['name'])}`)).toEqual([
      'ValidatingAdmissionPolicy/itgen.small.catalog',
      'ValidatingAdmissionPolicyBinding/itgen.small.catalog',
      'ValidatingAdmissionPolicy/itgen.small.deprecation',
      'ValidatingAdmissionPolicyBinding/itgen.small.deprecation',
      'ValidatingAdmissionPolicy/itgen.small.required',
      'ValidatingAdmissionPolicyBinding/itgen.small.required',
      'ValidatingAdmissionPolicy/itgen.small.profile',
      'ValidatingAdmissionPolicyBinding/itgen.small.profile.gold',
      'ConfigMap/itgen.small.profile.gold',
      'ValidatingAdmissionPolicyBinding/itgen.small.profile.sandbox',
      'ConfigMap/itgen.small.profile.sandbox',
    ]);
    // What `itgen policy` prints is what generate wrote.
    expect(JSON.parse(runInProcess(dir, ['policy', '-o', 'json']).out).items).toEqual(docs);
    const built = spawnSync('kubectl', ['kustomize', path.join(base, 'policy')], { encoding: 'utf8' });
    if (built.status !== null && !built.error) {
      expect(built.status).toBe(0);
      expect((built.stdout.match(/^kind: ValidatingAdmissionPolicy$/gm) ?? []).length).toBe(4);
    }
    expect(readFileSync(path.join(base, 'policy', 'README.md'), 'utf8')).toContain(
      '`itgen.small.profile`: in a namespace labelled `itgen.dev/instancetype-profile=<profile>`',
    );
    expect(runInProcess(dir, ['check']).code).toBe(0);
    // An edit is drift; a file of someone else's in policy/ makes the base unprovable.
    writeFileSync(path.join(base, 'policy', 'admission-policies.yaml'), '---\n');
    expect(runInProcess(dir, ['check']).code).toBe(1);
    writeFileSync(path.join(base, 'policy', 'extra.yaml'), 'kind: ConfigMap\n');
    const refused = runInProcess(dir, ['generate']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('policy/extra.yaml');
    rmSync(path.join(base, 'policy', 'extra.yaml'));
    writeFileSync(path.join(dir, 'generators/small.yaml'), SMALL_CATALOG['generators/small.yaml']!);
    expect(runInProcess(dir, ['generate']).code).toBe(0);
    expect(existsSync(path.join(base, 'policy'))).toBe(false);
  });

  it("a VM naming a removed name is told the replacement the lock records, in validate, the policy's message and resize", () => {
    const lockFile = path.join(dir, 'generators/small.lock.yaml');
    const release = (version: string): void => {
      const text = existsSync(lockFile) ? readFileSync(lockFile) : undefined;
      const src = text ? parseSource('generators/small.lock.yaml', text).docs[0]! : undefined;
      const previous = src ? { file: 'generators/small.lock.yaml', lock: lockSchema.parse(src.value), src } : undefined;
      const rec = recordRelease(previous, 'small', currentObjects(compile(dir, 'generators/small.yaml').objects), version);
      expect(rec.diagnostics).toEqual([]);
      writeFileSync(lockFile, serializeLock(rec.lock!));
    };
    release('v1.0.0'); // o1 published deprecated, its replacement u1
    rmSync(path.join(dir, 'catalogs/small/o1.yaml'));
    release('v1.1.0'); // o1 removed
    const locked = lockSchema.parse(parseAllDocuments(readFileSync(lockFile, 'utf8'))[0]!.toJS());
    expect(locked.objects.find((o) => o.name === 'o1.small')).toMatchObject({ deprecated: 'v1.0.0', replacement: 'u1.small', removed: 'v1.1.0' });
    expect(runInProcess(dir, ['generate']).code).toBe(0);
    writeFiles(dir, { 'vms/old.yaml': VM('old', 'apps', 'o1.small'), 'vm.yaml': VM('app', 'apps', 'u1.small') });
    // validate: the replacement, not the nearest name (u1.small is two edits away, o1.small's nearest would be none).
    const plain = runInProcess(dir, ['validate', '--vms', 'vms']);
    expect(plain.code).toBe(1);
    expect(plain.err).toMatch(
      /error IT8001 VirtualMachine `old`: .*"o1\.small" not found\n(.*\n){2} {2}hint: .*it was removed in v1\.1\.0: use `u1\.small` instead/,
    );
    // resize to the removed name: the same suggestion.
    const resized = runInProcess(dir, ['resize', 'vm.yaml', '--to', 'o1.small']);
    expect(resized.out).toContain('failed');
    expect(resized.out).toContain('; it was removed in v1.1.0: use `u1.small` instead');
    // With the generator's policies: the policy's message names it (kube-apiserver's answer in the policy corpus).
    withPolicy();
    expect(runInProcess(dir, ['generate']).code).toBe(0);
    const governed = runInProcess(dir, ['validate', '--vms', 'vms']);
    expect(governed.err).toContain('says "o1.small is not an instance type of this cluster; it was removed in v1.1.0: use u1.small instead"');
    const policies = readFileSync(path.join(dir, 'output/small/policy/admission-policies.yaml'), 'utf8');
    expect(policies).toContain('"; it was removed in v1.1.0: use u1.small instead"');
  });

  it('validate --vms says what they do to each VM, once per cause', () => {
    withPolicy();
    writeFiles(dir, {
      'vms/vms.yaml': [
        'apiVersion: v1\nkind: Namespace\nmetadata: {name: sandbox, labels: {itgen.dev/instancetype-profile: sandbox}}\n',
        VM('typo', 'sandbox', 'u1.smal'),
        VM('big', 'sandbox', 'u1.large'),
        VM('fine', 'sandbox', 'u1.small', 'linux'),
        VM('bare', 'apps'),
        VM('old', 'apps', 'o1.small'),
        VM('ext', 'apps', 'ext.large'),
      ].join('---\n'),
    });
    expect(runInProcess(dir, ['generate']).code).toBe(0);
    const r = runInProcess(dir, ['validate', '--vms', 'vms']);
    expect(r.code).toBe(1);
    // The typo: one report, whose hint is the policy's.
    expect(r.err).toMatch(
      /error IT8001 VirtualMachine `typo`: .*"u1\.smal" not found\n(.*\n){2} {2}hint: the cluster refuses it: the admission policy itgen\.small\.catalog says "u1\.smal is not an instance type of this cluster; did you mean u1\.small\?"/,
    );
    expect(r.err).toContain(
      'error IT8010 VirtualMachine `big`: the cluster would refuse it: itgen.small.profile (small): u1.large is not allowed in namespace sandbox (profile sandbox allows names u1.small)',
    );
    expect(r.err).toContain(
      'error IT8010 VirtualMachine `bare`: the cluster would refuse it: itgen.small.required (small): VMs in this cluster name an instance type',
    );
    expect(r.err).not.toMatch(/`fine`/);
    // Deprecated: the VM diagnostics' own warning (IT8302), not a second one; its hint says what kubectl prints.
    expect(r.err).toMatch(
      /warning IT8302 VirtualMachine `old`.*\n(.*\n){2} {2}hint: move it to `u1\.small`; kubectl warns on apply \(itgen\.small\.deprecation\): "o1\.small is a deprecated instance type; use u1\.small instead"/,
    );
    // A name deployed by something else (otherNames) is known to the policy; the VM diagnostics cannot resolve it.
    expect(r.err).not.toMatch(/IT8010 VirtualMachine `ext`/);
    expect(r.err).toMatch(/IT8001 VirtualMachine `ext`: .*\n(.*\n){2} {2}hint: the admission policy itgen\.small\.catalog admits it \(otherNames/);
  });
});

describe('what the API server hands the policies', () => {
  it('a VM whose matcher kind is null is judged as the one without it (the API server prunes the null)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-policy-'));
    try {
      writeFiles(dir, {
        ...CATALOG,
        'generators/small.yaml': SMALL_CATALOG['generators/small.yaml']!.replace('suppressWarnings:', `${POLICY}suppressWarnings:`),
      });
      expect(runInProcess(dir, ['generate']).code).toBe(0);
      const vm = (name: string, kind: string): string =>
        `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: ${name}, namespace: default}\nspec:\n  runStrategy: Always\n  instancetype: {name: u1.smal${kind}}\n  template:\n    spec:\n      domain: {devices: {}}\n      volumes: [{name: rootdisk, containerDisk: {image: "quay.io/containerdisks/fedora:41"}}]\n`;
      writeFiles(dir, { 'vms/a.yaml': vm('a', ''), 'vms/b.yaml': vm('b', ', kind: null') });
      const r = runInProcess(dir, ['validate', '--vms', 'vms']);
      // Each VM's diagnostics with their hints, the file and the VM's name taken out.
      const blocks = r.err.split(/\n(?=vms\/)/);
      const about = (n: string): string[] =>
        blocks
          .filter((b) => b.startsWith(`vms/${n}.yaml:`))
          .map((b) =>
            b
              .replace(/^vms\/[ab]\.yaml:\d+:\d+ /, '')
              .replace(/`[ab]`/g, 'VM')
              .replace(/\n +\d+ \|.*\n +\|.*/g, '')
              .replace(/\n\d+ errors?, \d+ warnings?\n?$/, ''),
          );
      expect(about('a').join('\n')).toContain('the admission policy');
      expect(about('b')).toEqual(about('a'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the policy library', () => {
  const catalog: PolicyCatalog = {
    instancetypes: [
      { name: 'u1.medium', families: ['u', 'u1'], class: 'general' },
      { name: 'o1.medium', families: ['o', 'o1'], class: 'overcommitted', deprecated: { replacement: 'u1.medium' } },
    ],
    preferences: [{ name: 'fedora' }],
  };
  const opts = { ...DEFAULT_POLICY_OPTIONS, prefix: 'itgen.t' };
  const vm = (it: string): JsonObject => ({
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachine',
    metadata: { name: 'v' },
    spec: { instancetype: { name: it } },
  });

  it('a namespace labelled with a profile named after an Object.prototype member is bound to no profile', () => {
    for (const profile of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const req = {
        operation: 'CREATE' as const,
        username: 'alice',
        namespace: 'a',
        namespaceLabels: { [PROFILE_LABEL]: profile },
        object: vm('u1.medium'),
      };
      expect([profile, judgePolicies(catalog, opts, req)]).toEqual([profile, { denied: [], warnings: [] }]);
    }
  });

  it('gives the suggestion validate gives for the same name (one suggestion), the name in another case first', () => {
    for (const typo of ['U1.MEDIUM', 'u1.meduim', 'M1.xlarge']) {
      const req = { operation: 'CREATE' as const, username: 'alice', namespace: 'a', namespaceLabels: {}, object: vm(typo) };
      const policy = judgePolicies(catalog, opts, req).denied.map((d) => d.message)[0] ?? '';
      const meant = nearestName(typo, ['u1.medium', 'u1.large', 'o1.medium'].sort());
      expect([typo, policy]).toEqual([
        typo,
        `${typo} is not an instance type of this cluster; ${meant !== '' ? `did you mean ${meant}?` : 'kubectl get virtualmachineclusterinstancetypes lists them'}`,
      ]);
    }
    expect(nearestName('U1.MEDIUM', ['u1.medium'])).toBe('u1.medium');
  });

  it('judges a create, an update only when it changes the name, never KubeVirt itself', () => {
    const req = { operation: 'CREATE' as const, username: 'alice', namespace: 'a', namespaceLabels: {}, object: vm('u1.meduim') };
    expect(judgePolicies(catalog, opts, req).denied.map((d) => d.message)).toEqual([
      'u1.meduim is not an instance type of this cluster; did you mean u1.medium?',
    ]);
    expect(judgePolicies(catalog, opts, { ...req, operation: 'UPDATE', oldObject: vm('u1.meduim') }).denied).toEqual([]);
    expect(judgePolicies(catalog, opts, { ...req, operation: 'UPDATE', oldObject: vm('u1.medium') }).denied).toHaveLength(1);
    expect(judgePolicies(catalog, opts, { ...req, username: 'system:serviceaccount:kubevirt:kubevirt-controller' }).denied).toEqual([]);
    expect(judgePolicies(catalog, opts, { ...req, object: vm('o1.medium') }).warnings.map((w) => w.message)).toEqual([
      'o1.medium is a deprecated instance type; use u1.medium instead',
    ]);
    expect(judgePolicies(catalog, { ...opts, deprecated: 'deny' }, { ...req, object: vm('o1.medium') }).denied).toHaveLength(1);
  });

  it('suggests the name one edit away: a letter dropped, added, changed or two swapped', () => {
    const names = ['u1.medium', 'u1.large', 'cx1.large'];
    expect(['u1.mediu', 'u1.mediumm', 'u1.medxum', 'u1.meduim', 'cx1.larg', 'zz', 'U1.Large'].map((n) => nearestName(n, names))).toEqual([
      'u1.medium',
      'u1.medium',
      'u1.medium',
      'u1.medium',
      'cx1.large',
      '',
      'u1.large',
    ]);
  });

  it('writes every value into CEL as a literal that reads back as itself', () => {
    const env = new Environment();
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        expect(env.evaluate(celString(s))).toBe(s);
      }),
      { numRuns: 300 },
    );
  });

  it('wraps expressions at spaces outside literals, keeping what they mean', () => {
    const e = `[${Array.from({ length: 40 }, (_, i) => celString(`a name with spaces ${i}`)).join(', ')}].size()`;
    const w = wrapCel(e);
    expect(w.split('\n').every((l) => l.length <= 100)).toBe(true);
    expect(new Environment().evaluate(w)).toBe(40n);
    expect(w.replace(/\n/g, ' ')).toBe(e);
  });

  it('type-checks every policy it writes (IT5018 when one does not), and finds a broken one', () => {
    for (const p of policyObjects(catalog, { ...opts, requireInstancetype: true, profiles: { a: { names: ['u1.medium'] } } }).filter(
      (o) => o['kind'] === 'ValidatingAdmissionPolicy',
    ))
      expect(checkPolicyCel(p)).toEqual([]);
    const p = policyObjects(catalog, opts)[0]!;
    const spec = p['spec'] as { validations: JsonObject[] };
    spec.validations[0]!['messageExpression'] = 'variables.instancetype + 1';
    spec.validations[1]!['expression'] = 'variables.nope.size(';
    expect(checkPolicyCel(p).map((c) => c.field)).toEqual(['spec.validations[0].messageExpression', 'spec.validations[1].expression']);
  });
});

/**
 * Offline expansion and admission (src/expand/): the worked examples of KubeVirt's instancetype
 * application as goldens, against this project's common-instancetypes output and the upstream
 * bundle; cases transcribed from KubeVirt's unit tests (test/fixtures/expand/kubevirt/, each naming
 * its source test) and cases for rules no KubeVirt test pins down (test/fixtures/expand/rules.yaml);
 * the float32 overcommit arithmetic; and the topology property.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parse, stringify } from 'yaml';
import { admit, expand, expandDocuments, objectStore, overcommittedRequest, resolveReferences, type ObjectStore } from '../src/expand';
import { checkRequirements, checkSpread } from '../src/kubevirt/requirements';
import { guestTopology } from '../src/kubevirt/topology';
import { parseSource } from '../src/load/source';
import type { JsonObject } from '../src/json';
import { canonicalQuantity, formatQuantity } from '../src/quantity';
import { projectStore, readObjects, UPSTREAM } from './expand-helpers';
import { mutateOnCreate } from '../src/expand/mutate';
import { REPO, UPDATE_GOLDEN, oracleAnswers } from './helpers';

const FIXTURES = path.join(REPO, 'test', 'fixtures', 'expand');

function golden(file: string, actual: string): void {
  const abs = path.join(FIXTURES, file);
  if (UPDATE_GOLDEN) writeFileSync(abs, actual);
  expect(actual).toBe(readFileSync(abs, 'utf8'));
}

function expandFile(file: string, store: ObjectStore): string {
  const docs = parseSource(`worked-examples/${file}`, readFileSync(path.join(FIXTURES, 'worked-examples', file))).docs;
  const { outcomes } = expandDocuments(docs, store, { admission: true });
  return outcomes
    .map((o) =>
      o.vm
        ? stringify(o.vm, { lineWidth: 0 })
        : o.diagnostics.map((d) => `${d.location?.file}:${d.location?.line}:${d.location?.col} ${d.code} ${d.message}\n`).join(''),
    )
    .join('---\n');
}

describe('worked examples (amd64, default KubeVirt configuration)', () => {
  it.each([
    ["this project's common-instancetypes catalog", (): ObjectStore => projectStore()],
    ['the upstream common-instancetypes bundle', (): ObjectStore => UPSTREAM],
  ])('expand to the same VMs with %s', (_what, store) => {
    golden('worked-examples/expected-vms.yaml', expandFile('vms.yaml', store()));
  });

  it.each([
    ["this project's common-instancetypes catalog", (): ObjectStore => projectStore()],
    ['the upstream common-instancetypes bundle', (): ObjectStore => UPSTREAM],
  ])("are refused with KubeVirt's words, at the VM field, with %s", (_what, store) => {
    golden('worked-examples/expected-refused.txt', expandFile('refused.yaml', store()));
  });
});

interface ApplyCase {
  readonly source?: string;
  readonly rule?: string;
  readonly instancetype?: JsonObject;
  readonly preference?: JsonObject;
  readonly vm: JsonObject;
  readonly metadata?: JsonObject;
  readonly expect?: Record<string, unknown>;
  readonly expectMetadata?: JsonObject;
  readonly conflicts?: string[];
}

function load<T>(file: string): T[] {
  return parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as T[];
}

function at(o: unknown, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), o);
}

function runApply(c: ApplyCase): void {
  const vm: JsonObject = {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachine',
    metadata: { name: 'vm' },
    spec: {
      ...(c.instancetype ? { instancetype: { name: 'it' } } : {}),
      ...(c.preference ? { preference: { name: 'pref' } } : {}),
      template: { ...(c.metadata ? { metadata: c.metadata } : {}), spec: c.vm },
    },
  };
  const refs = {
    instancetype: c.instancetype ? { kind: 'VirtualMachineClusterInstancetype', name: 'it', spec: c.instancetype } : undefined,
    preference: c.preference ? { kind: 'VirtualMachineClusterPreference', name: 'pref', spec: c.preference } : undefined,
  };
  const r = expand(vm, refs);
  if (c.conflicts) {
    expect(r).toEqual({ error: `VM field(s) ${c.conflicts.join(', ')} conflicts with selected instance type`, fields: c.conflicts });
    return;
  }
  if ('error' in r) throw new Error(r.error);
  const template = at(r.vm, 'spec.template') as JsonObject;
  for (const [p, v] of Object.entries(c.expect ?? {})) expect([p, at(template['spec'], p)]).toEqual([p, v]);
  if (c.expectMetadata) expect(template['metadata']).toEqual(c.expectMetadata);
}

describe('KubeVirt unit tests: apply (pkg/instancetype/apply)', () => {
  it.each(load<ApplyCase>('kubevirt/apply.yaml').map((c) => [c.source!, c] as const))('%s', (_name, c) => runApply(c));
});

describe('apply rules no KubeVirt unit test pins down', () => {
  it.each(load<ApplyCase>('rules.yaml').map((c) => [c.rule!, c] as const))('%s', (_name, c) => runApply(c));
});

interface RequirementCase {
  readonly source: string;
  readonly instancetype?: JsonObject;
  readonly preference: JsonObject;
  readonly vmi: JsonObject;
  readonly pass?: boolean;
  readonly fields?: string[];
  readonly error?: string;
}

describe('KubeVirt unit tests: preference requirements (pkg/instancetype/preference/requirements)', () => {
  it.each(load<RequirementCase>('kubevirt/requirements.yaml').map((c) => [c.source, c] as const))('%s', (_name, c) => {
    const cause = checkRequirements(c.instancetype, c.preference, c.vmi);
    if (c.pass) expect(cause).toBeUndefined();
    else
      expect(cause).toEqual({
        type: 'FieldValueNotFound',
        field: c.fields!.join(', '),
        message: `failure checking preference requirements: ${c.error}`,
        reason: c.fields![0] === 'spec.instancetype' ? 'requirements-instancetype' : 'requirements',
      });
  });
});

describe('KubeVirt unit tests: VM admission spread check (pkg/instancetype/webhooks/vm)', () => {
  const cases = load<{ source: string; vcpus: number; preference: JsonObject; message: string }>('kubevirt/spread.yaml');
  it.each(cases.map((c) => [c.source, c] as const))('%s', (_name, c) => {
    expect(checkSpread({ cpu: { guest: c.vcpus }, memory: { guest: '1Gi' } }, c.preference)).toEqual({
      type: 'FieldValueInvalid',
      field: 'instancetype.spec.cpu.guest',
      message: c.message,
      reason: 'spread',
    });
    // Admission stops there: nothing is applied.
    const vm = { kind: 'VirtualMachine', spec: { instancetype: { name: 'i' }, preference: { name: 'p' }, template: { spec: { domain: {} } } } };
    expect(
      admit(vm, {
        instancetype: { kind: 'VirtualMachineClusterInstancetype', name: 'i', spec: { cpu: { guest: c.vcpus }, memory: { guest: '1Gi' } } },
        preference: { kind: 'VirtualMachineClusterPreference', name: 'p', spec: c.preference },
      }).causes,
    ).toHaveLength(1);
  });

  it('admits a spreading preference without an instance type (DescribeTable "should admit VM with preference using preferSpread and without instancetype")', () => {
    const vm = { kind: 'VirtualMachine', spec: { preference: { name: 'p' }, template: { spec: { domain: {} } } } };
    for (const t of ['spread', 'preferSpread'])
      expect(admit(vm, { preference: { kind: 'VirtualMachineClusterPreference', name: 'p', spec: { cpu: { preferredCPUTopology: t } } } }).causes).toEqual([]);
  });
});

describe('quantities and overcommit, as Go computes them', () => {
  it('overcommits in float32 and prints the request in the guest format (apply rules trap 4)', () => {
    expect(overcommittedRequest('512M', 15)).toBe('435200k');
    expect(overcommittedRequest('512M', 80)).toBe('102399992');
    expect(overcommittedRequest('4Gi', 50)).toBe('2Gi');
    // float64 would give 102399999 for 80% of 512M.
    expect(Math.trunc(512e6 * (1 - 80 / 100))).toBe(102399999);
  });

  it('prints quantities the way the API server stores them', () => {
    expect(canonicalQuantity('4096Mi')).toBe('4Gi');
    expect(canonicalQuantity('1.5Gi')).toBe('1536Mi');
    expect(canonicalQuantity('2000M')).toBe('2G');
    expect(canonicalQuantity(1073741824)).toBe('1073741824');
    expect(formatQuantity(512, 'BinarySI')).toBe('512');
    expect(formatQuantity(1536, 'BinarySI')).toBe('1536');
    expect(formatQuantity(3865470464, 'BinarySI')).toBe('3865470464');
  });
});

describe('references (pkg/instancetype/find)', () => {
  const vm = (matcher: JsonObject, namespace = 'ns'): JsonObject => ({
    kind: 'VirtualMachine',
    metadata: { name: 'v', namespace },
    spec: { instancetype: matcher, template: { spec: { domain: {} } } },
  });
  const store = objectStore(
    readObjects(
      'kind: VirtualMachineClusterInstancetype\nmetadata: {name: c}\nspec: {cpu: {guest: 1}, memory: {guest: 1Gi}}\n---\nkind: VirtualMachineInstancetype\nmetadata: {name: n, namespace: ns}\nspec: {cpu: {guest: 2}, memory: {guest: 2Gi}}\n',
    ),
  );

  it.each([
    ['', 'c'],
    ['VirtualMachineClusterInstancetype', 'c'],
    ['virtualmachineclusterinstancetypes', 'c'],
    ['VirtualMachineInstancetype', 'n'],
    ['virtualmachineinstancetype', 'n'],
  ])('kind `%s` finds %s (case-insensitive, singular or plural, empty is the cluster kind)', (kind, name) => {
    const r = resolveReferences(vm({ name, ...(kind ? { kind } : {}) }), store);
    expect(r.errors).toEqual([]);
    expect(r.references.instancetype?.name).toBe(name);
  });

  it('says what KubeVirt says for a missing object, an unknown kind, and a namespaced object of another namespace', () => {
    expect(resolveReferences(vm({ name: 'nope' }), store).errors).toEqual([
      {
        message: 'virtualmachineclusterinstancetypes.instancetype.kubevirt.io "nope" not found',
        field: 'spec.instancetype.name',
        notFound: { kind: 'VirtualMachineClusterInstancetype', name: 'nope', namespace: undefined },
      },
    ]);
    expect(resolveReferences(vm({ name: 'c', kind: 'Deployment' }), store).errors).toEqual([
      { message: 'got unexpected kind in InstancetypeMatcher: Deployment', field: 'spec.instancetype.kind' },
    ]);
    expect(resolveReferences(vm({ name: 'n', kind: 'VirtualMachineInstancetype' }, 'other'), store).errors[0]!.message).toBe(
      'virtualmachineinstancetypes.instancetype.kubevirt.io "n" not found',
    );
  });

  it('infers from the labels of a PVC given with the VM, and says when it cannot offline', () => {
    const withVolume = (volume: JsonObject, policy?: string): JsonObject => ({
      kind: 'VirtualMachine',
      metadata: { name: 'v', namespace: 'ns' },
      spec: {
        instancetype: { inferFromVolume: 'root', ...(policy ? { inferFromVolumeFailurePolicy: policy } : {}) },
        template: { spec: { domain: {}, volumes: [{ name: 'root', ...volume }] } },
      },
    });
    const pvc = readObjects('kind: PersistentVolumeClaim\nmetadata: {name: disk, namespace: ns, labels: {instancetype.kubevirt.io/default-instancetype: c}}\n');
    const both = objectStore([
      ...pvc,
      ...readObjects('kind: VirtualMachineClusterInstancetype\nmetadata: {name: c}\nspec: {cpu: {guest: 1}, memory: {guest: 1Gi}}\n'),
    ]);
    // The mutating webhook resolves the matcher (mutate.ts); then the object is found by name.
    const inferred = (volume: JsonObject, policy?: string): ReturnType<typeof mutateOnCreate> => mutateOnCreate(withVolume(volume, policy), both, 'default');
    const ok = inferred({ persistentVolumeClaim: { claimName: 'disk' } });
    expect('vm' in ok && resolveReferences(ok.vm, both).references.instancetype?.name).toBe('c');
    expect(inferred({ persistentVolumeClaim: { claimName: 'other' } })).toEqual({
      causes: [{ message: 'persistentvolumeclaims "other" not found', field: 'spec.instancetype.inferFromVolume', reason: 'infer' }],
    });
    expect(inferred({ containerDisk: { image: 'x' } })).toEqual({
      causes: [{ message: 'unable to infer defaults from volume root as type is not supported', field: 'spec.instancetype.inferFromVolume', reason: 'infer' }],
    });
    // Ignore: an ignorable failure clears the matcher.
    const ignored = inferred({ containerDisk: { image: 'x' } }, 'Ignore');
    expect('vm' in ignored && (ignored.vm['spec'] as JsonObject)['instancetype']).toBeUndefined();
  });
});

describe('promises', () => {
  it('a VM naming neither an instance type nor a preference comes back unchanged', () => {
    const vm = { kind: 'VirtualMachine', spec: { template: { spec: { domain: { devices: {} } } } } };
    expect(expand(vm, {})).toEqual({ vm });
  });

  it("whenever admission passes, sockets x cores x threads is the instance type's vCPUs", () => {
    const topologies = ['sockets', 'cores', 'threads', 'any', 'spread', 'preferSockets', 'preferCores', 'preferThreads', 'preferAny', 'preferSpread'];
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 256 }),
        fc.constantFrom(...topologies),
        fc.constantFrom(undefined, 'SocketsCores', 'CoresThreads', 'SocketsCoresThreads'),
        fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
        (vcpus, topology, across, ratio) => {
          const preference = {
            cpu: {
              preferredCPUTopology: topology,
              ...(across || ratio ? { spreadOptions: { ...(across ? { across } : {}), ...(ratio ? { ratio } : {}) } } : {}),
            },
          };
          const vm = { kind: 'VirtualMachine', spec: { instancetype: { name: 'i' }, preference: { name: 'p' }, template: { spec: { domain: {} } } } };
          const r = admit(vm, {
            instancetype: { kind: 'VirtualMachineClusterInstancetype', name: 'i', spec: { cpu: { guest: vcpus }, memory: { guest: '1Gi' } } },
            preference: { kind: 'VirtualMachineClusterPreference', name: 'p', spec: preference },
          });
          if (r.causes.length > 0) return;
          const cpu = at(r.vm, 'spec.template.spec.domain.cpu') as { sockets: number; cores: number; threads: number };
          expect(cpu.sockets * cpu.cores * cpu.threads).toBe(vcpus);
          expect(guestTopology(vcpus, preference)).toEqual({ sockets: cpu.sockets, cores: cpu.cores, threads: cpu.threads });
        },
      ),
      { numRuns: 2000, seed: 42 },
    );
  });
});

describe('ControllerRevision data KubeVirt cannot decode, in its words (test/fixtures/oracle-answers/revision-data-*)', () => {
  const read = oracleAnswers;
  const answers = new Map(read('revision-data-answers.jsonl').map((a) => [a['id'], a]));
  it.each(read('revision-data-cases.jsonl').map((c) => [c['id'] as string, c] as const))('%s', (id, c) => {
    const store = objectStore(c['objects'] as JsonObject[]);
    const r = resolveReferences(c['vm'] as JsonObject, store);
    expect(r.errors.map((e) => e.message)).toEqual([(answers.get(id)!['expand'] as { error: string }).error]);
  });
});

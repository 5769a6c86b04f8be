import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import {
  ALL_CPU_TOPOLOGIES,
  DEPRECATED_FIELDS,
  DEPRECATED_TOPOLOGIES,
  INSTANCETYPE_FIELD_SINCE,
  KUBEVIRT_RELEASES,
  MANIFEST_KINDS,
  PREFERENCE_FIELD_SINCE,
  PREFERRED_CPU_TOPOLOGY_SINCE,
  compareRelease,
  fieldSinceFor,
  instancetypeSpecPatchSchema,
  instancetypeSpecSchema,
  isManifestKind,
  manifestSchema,
  manifestSchemaFor,
  parseRelease,
  preferenceSpecSchema,
  quantitySchema,
  type ManifestKind,
  type SpecKind,
} from '../src/schema/manifest';

const REFERENCE = join(__dirname, 'reference');
const BUNDLE = join(REFERENCE, 'common-instancetypes/common-instancetypes-all-bundle.yaml');
const SCHEMA_DIR = join(REFERENCE, 'kubevirt-schemas/instancetype.kubevirt.io-v1beta1');
const FIELD_SINCE = join(REFERENCE, 'kubevirt-field-since.json');

// ---------------------------------------------------------------------------------------------------------------
// JSON Schema walking, shared by the completeness checks

interface JsonNode {
  type?: string | string[];
  properties?: Record<string, JsonNode>;
  required?: string[];
  items?: JsonNode;
  additionalProperties?: boolean | JsonNode;
  oneOf?: JsonNode[];
  anyOf?: JsonNode[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
}

function isJsonNode(value: unknown): value is JsonNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asJsonNode(value: unknown): JsonNode {
  if (!isJsonNode(value)) throw new Error('not a JSON Schema object');
  return value;
}

/** A coarse type per node so both sides can be compared without caring how zod spells unions. */
function shapeOf(node: JsonNode): string {
  const branches = node.oneOf ?? node.anyOf;
  if (branches !== undefined) {
    const types = branches.map((b) => String(b.type)).sort();
    if (types.join(',') === 'number,string') return 'quantity';
    return `union(${types.join(',')})`;
  }
  if (node.type === 'object' && isJsonNode(node.additionalProperties)) return 'map';
  return String(node.type);
}

interface PathInfo {
  shape: string;
  required: boolean;
  minimum: number | undefined;
  maximum: number | undefined;
  enum: unknown[] | undefined;
}

/** Every property path below `node`, dotted, with `[]` for list items (the FIELD_SINCE notation). */
function collectPaths(node: JsonNode, prefix = '', out = new Map<string, PathInfo>()): Map<string, PathInfo> {
  const required = new Set(node.required ?? []);
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    out.set(path, {
      shape: shapeOf(child),
      required: required.has(key),
      minimum: child.minimum,
      maximum: child.maximum,
      enum: child.enum,
    });
    collectPaths(child, path, out);
    if (child.items !== undefined) collectPaths(child.items, `${path}[]`, out);
  }
  return out;
}

function loadJsonSchemaSpec(kind: ManifestKind): JsonNode {
  const root = asJsonNode(JSON.parse(readFileSync(join(SCHEMA_DIR, `${kind}.json`), 'utf8')));
  return asJsonNode(root.properties?.['spec']);
}

function zodJson(schema: z.ZodType): JsonNode {
  return asJsonNode(z.toJSONSchema(schema, { io: 'input' }));
}

function specSchemaOf(kind: SpecKind): z.ZodType {
  return kind === 'instancetype' ? instancetypeSpecSchema : preferenceSpecSchema;
}

const SPEC_KIND_OF: Record<ManifestKind, SpecKind> = {
  VirtualMachineClusterInstancetype: 'instancetype',
  VirtualMachineClusterPreference: 'preference',
  VirtualMachineInstancetype: 'instancetype',
  VirtualMachinePreference: 'preference',
};

// ---------------------------------------------------------------------------------------------------------------
// Documents

function loadBundle(): Record<string, unknown>[] {
  return parseAllDocuments(readFileSync(BUNDLE, 'utf8')).map((doc) => {
    expect(doc.errors).toEqual([]);
    const value: unknown = doc.toJS();
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('document is not a mapping');
    return value as Record<string, unknown>;
  });
}

function parseManifest(doc: unknown): { success: boolean; issues: z.core.$ZodIssue[] } {
  if (typeof doc !== 'object' || doc === null) throw new Error('not an object');
  const kind = (doc as { kind?: unknown }).kind;
  if (!isManifestKind(kind)) throw new Error(`unknown kind ${String(kind)}`);
  const result = manifestSchemaFor(kind).safeParse(doc);
  return { success: result.success, issues: result.success ? [] : result.error.issues };
}

const baseInstancetype = {
  apiVersion: 'instancetype.kubevirt.io/v1beta1',
  kind: 'VirtualMachineClusterInstancetype',
  metadata: { name: 'u1.medium', labels: { 'instancetype.kubevirt.io/cpu': '1' } },
  spec: { cpu: { guest: 1 }, memory: { guest: '4Gi' } },
};

const basePreference = {
  apiVersion: 'instancetype.kubevirt.io/v1beta1',
  kind: 'VirtualMachineClusterPreference',
  metadata: { name: 'fedora' },
  spec: { devices: { preferredDiskBus: 'virtio' } },
};

function withSpec<T extends { spec: object }>(base: T, spec: Record<string, unknown>): T {
  return { ...base, spec };
}

describe('common-instancetypes bundle', () => {
  const docs = loadBundle();

  it('holds the 244 documents the JSON Schemas were checked against', () => {
    expect(docs).toHaveLength(244);
    const counts: Record<string, number> = {};
    for (const doc of docs) counts[String(doc['kind'])] = (counts[String(doc['kind'])] ?? 0) + 1;
    expect(counts).toEqual({
      VirtualMachineClusterInstancetype: 65,
      VirtualMachineInstancetype: 65,
      VirtualMachineClusterPreference: 57,
      VirtualMachinePreference: 57,
    });
  });

  it.each(docs.map((doc) => [`${String(doc['kind'])} ${String((doc['metadata'] as { name?: unknown }).name)}`, doc]))('validates %s', (_name, doc) => {
    const result = parseManifest(doc);
    expect(result.issues).toEqual([]);
    expect(result.success).toBe(true);
    expect(manifestSchema.safeParse(doc).success).toBe(true);
  });
});

describe('broken documents fail', () => {
  const cases: [string, unknown, string][] = [
    ['misspelt dedicatedCPUPlacment', withSpec(baseInstancetype, { cpu: { guest: 2, dedicatedCPUPlacment: true }, memory: { guest: '4Gi' } }), 'spec.cpu'],
    ['missing memory', withSpec(baseInstancetype, { cpu: { guest: 2 } }), 'spec.memory'],
    ['missing cpu.guest', withSpec(baseInstancetype, { cpu: {}, memory: { guest: '4Gi' } }), 'spec.cpu.guest'],
    ['cpu.guest: -1', withSpec(baseInstancetype, { cpu: { guest: -1 }, memory: { guest: '4Gi' } }), 'spec.cpu.guest'],
    ['cpu.guest: "2"', withSpec(baseInstancetype, { cpu: { guest: '2' }, memory: { guest: '4Gi' } }), 'spec.cpu.guest'],
    ['cpu.guest above uint32', withSpec(baseInstancetype, { cpu: { guest: 4294967296 }, memory: { guest: '4Gi' } }), 'spec.cpu.guest'],
    [
      'overcommitPercent: 150',
      withSpec(baseInstancetype, { cpu: { guest: 2 }, memory: { guest: '4Gi', overcommitPercent: 150 } }),
      'spec.memory.overcommitPercent',
    ],
    ['memory.guest: "2 Gi"', withSpec(baseInstancetype, { cpu: { guest: 2 }, memory: { guest: '2 Gi' } }), 'spec.memory.guest'],
    [
      'ioThreadsPolicy: dedicated',
      withSpec(baseInstancetype, { cpu: { guest: 2 }, memory: { guest: '4Gi' }, ioThreadsPolicy: 'dedicated' }),
      'spec.ioThreadsPolicy',
    ],
    [
      'numa.guestMappingPassthrough with a key',
      withSpec(baseInstancetype, {
        cpu: { guest: 2, numa: { guestMappingPassthrough: { enabled: true } } },
        memory: { guest: '4Gi' },
      }),
      'spec.cpu.numa.guestMappingPassthrough',
    ],
    [
      'preference field inside an instancetype spec',
      withSpec(baseInstancetype, { cpu: { guest: 2 }, memory: { guest: '4Gi' }, preferredArchitecture: 'amd64' }),
      'spec',
    ],
    [
      'preference cpu field inside an instancetype spec',
      withSpec(baseInstancetype, { cpu: { guest: 2, preferredCPUTopology: 'cores' }, memory: { guest: '4Gi' } }),
      'spec.cpu',
    ],
    ['instancetype field inside a preference spec', withSpec(basePreference, { cpu: { guest: 2 } }), 'spec.cpu'],
    ['preferredCPUTopology: sockettt', withSpec(basePreference, { cpu: { preferredCPUTopology: 'sockettt' } }), 'spec.cpu.preferredCPUTopology'],
    ['preferredDiskBus: ide', withSpec(basePreference, { devices: { preferredDiskBus: 'ide' } }), 'spec.devices.preferredDiskBus'],
    ['spreadOptions.across: Sockets', withSpec(basePreference, { cpu: { spreadOptions: { across: 'Sockets' } } }), 'spec.cpu.spreadOptions.across'],
    [
      'rtc tickPolicy merge (only hpet has merge)',
      withSpec(basePreference, { clock: { preferredTimer: { rtc: { tickPolicy: 'merge' } } } }),
      'spec.clock.preferredTimer.rtc.tickPolicy',
    ],
    ['requirements.cpu without guest', withSpec(basePreference, { requirements: { cpu: {} } }), 'spec.requirements.cpu.guest'],
    ['requirements.architecture: x86_64', withSpec(basePreference, { requirements: { architecture: 'x86_64' } }), 'spec.requirements.architecture'],
    ['spec.device for devices', withSpec(basePreference, { device: {} }), 'spec'],
    ['metadata.lables', { ...baseInstancetype, metadata: { name: 'u1.medium', lables: {} } }, 'metadata'],
    ['metadata.name with capitals', { ...baseInstancetype, metadata: { name: 'U1.Medium' } }, 'metadata.name'],
    ['top-level status', { ...baseInstancetype, status: {} }, ''],
    ['missing spec', { ...basePreference, spec: undefined }, 'spec'],
    ['apiVersion v1', { ...baseInstancetype, apiVersion: 'instancetype.kubevirt.io/v1' }, 'apiVersion'],
    ['kind mismatch with the schema', { ...baseInstancetype, kind: 'VirtualMachineClusterPreference' }, 'spec'],
  ];

  it.each(cases)('%s', (_name, doc, path) => {
    const result = parseManifest(doc);
    expect(result.success).toBe(false);
    expect(result.issues.map((issue) => issue.path.join('.'))).toContain(path);
  });

  it('reports the misspelt key by name', () => {
    const result = parseManifest(cases[0]?.[1]);
    expect(result.issues).toEqual([expect.objectContaining({ code: 'unrecognized_keys', keys: ['dedicatedCPUPlacment'], path: ['spec', 'cpu'] })]);
  });
});

describe('accepted edge values', () => {
  const instancetypeSpecs: [string, Record<string, unknown>][] = [
    ['numeric memory', { cpu: { guest: 1 }, memory: { guest: 2147483648 } }],
    ['cpu.guest 0 (a rule, not the schema, rejects it)', { cpu: { guest: 0 }, memory: { guest: '1Gi' } }],
    ['uint32 maximum', { cpu: { guest: 4294967295, maxSockets: 4294967295 }, memory: { guest: '1Gi' } }],
    [
      'everything',
      {
        cpu: {
          guest: 4,
          model: 'host-passthrough',
          dedicatedCPUPlacement: true,
          isolateEmulatorThread: true,
          numa: { guestMappingPassthrough: {} },
          realtime: { mask: '0-3' },
          maxSockets: 4,
        },
        memory: { guest: '4Gi', hugepages: { pageSize: '1Gi' }, overcommitPercent: 0, maxGuest: '16Gi' },
        gpus: [
          {
            name: 'gpu1',
            deviceName: 'nvidia.com/GA102GL_A10',
            claimName: 'c',
            requestName: 'r',
            tag: 't',
            virtualGPUOptions: { display: { enabled: true, ramFB: { enabled: false } } },
          },
        ],
        hostDevices: [{ name: 'hd', deviceName: 'x', claimName: 'c', requestName: 'r', tag: 't' }],
        ioThreadsPolicy: 'supplementalPool',
        ioThreads: { supplementalPoolThreadCount: 4 },
        launchSecurity: {
          sev: { policy: { encryptedState: true }, attestation: {}, session: 's', dhCert: 'd' },
          snp: {},
          tdx: {},
        },
        nodeSelector: { 'kubernetes.io/arch': 'amd64' },
        schedulerName: 'custom',
        annotations: { a: 'b' },
      },
    ],
  ];
  it.each(instancetypeSpecs)('instancetype spec: %s', (_name, spec) => {
    expect(instancetypeSpecSchema.safeParse(spec).error?.issues).toBeUndefined();
  });

  const preferenceSpecs: [string, Record<string, unknown>][] = [
    ['empty', {}],
    ['keyboard input (a rule warns about it)', { devices: { preferredInputType: 'keyboard', preferredInputBus: 'usb' } }],
    ['deprecated topology', { cpu: { preferredCPUTopology: 'preferSpread' } }],
    ['hpet merge', { clock: { preferredTimer: { hpet: { tickPolicy: 'merge' }, rtc: { track: 'wall' } } } }],
    ['empty CPU feature policy', { cpu: { preferredCPUFeatures: [{ name: 'invtsc', policy: '' }] } }],
    ['bochs video', { devices: { preferredVideoType: 'bochs' } }],
    ['requirements', { requirements: { cpu: { guest: 2 }, memory: { guest: '2Gi' }, architecture: 's390x' } }],
  ];
  it.each(preferenceSpecs)('preference spec: %s', (_name, spec) => {
    expect(preferenceSpecSchema.safeParse(spec).error?.issues).toBeUndefined();
  });

  it.each([['4Gi'], ['1.5Gi'], ['512M'], ['100m'], ['1e3'], ['+1Ki'], [0], [2147483648]])('quantity %p', (value) => {
    expect(quantitySchema.safeParse(value).success).toBe(true);
  });
  it.each([['2 Gi'], ['4GB'], ['Gi'], [''], [-1], [Number.NaN], [true]])('not a quantity: %p', (value) => {
    expect(quantitySchema.safeParse(value).success).toBe(false);
  });
});

describe('published JSON Schema', () => {
  it('generates from every object schema without unrepresentable parts', () => {
    for (const kind of MANIFEST_KINDS) expect(() => z.toJSONSchema(manifestSchemaFor(kind))).not.toThrow();
    expect(() => z.toJSONSchema(manifestSchema)).not.toThrow();
    expect(() => z.toJSONSchema(instancetypeSpecPatchSchema)).not.toThrow();
  });
});

describe('instancetypeSpecPatchSchema', () => {
  it('accepts an empty patch and feature-only cpu/memory', () => {
    expect(instancetypeSpecPatchSchema.safeParse({}).success).toBe(true);
    const patch = {
      cpu: { dedicatedCPUPlacement: true, numa: { guestMappingPassthrough: {} } },
      memory: { hugepages: { pageSize: '2Mi' } },
      ioThreadsPolicy: 'auto',
    };
    expect(instancetypeSpecPatchSchema.parse(patch)).toEqual(patch);
  });

  it.each([
    ['cpu.guest', { cpu: { guest: 2 } }, ['cpu']],
    ['memory.guest', { memory: { guest: '2Gi' } }, ['memory']],
    ['a typo', { cpu: { dedicatedCPUPlacment: true } }, ['cpu']],
    ['an invalid value', { memory: { overcommitPercent: 101 } }, ['memory', 'overcommitPercent']],
  ])('rejects %s', (_name, patch, path) => {
    const result = instancetypeSpecPatchSchema.safeParse(patch);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([path]);
  });

  it('has the same tree as the full spec minus cpu.guest and memory.guest, all optional', () => {
    const full = collectPaths(zodJson(instancetypeSpecSchema));
    const patch = collectPaths(zodJson(instancetypeSpecPatchSchema));
    const expected = [...full.keys()].filter((path) => path !== 'cpu.guest' && path !== 'memory.guest').sort();
    expect([...patch.keys()].sort()).toEqual(expected);
    // List items keep their required name: a list is replaced as a whole, never merged.
    const requiredInPatch = [...patch.entries()].filter(([, info]) => info.required).map(([path]) => path);
    expect(requiredInPatch.sort()).toEqual(['gpus[].name', 'hostDevices[].name']);
  });
});

describe('completeness against the strict KubeVirt JSON Schemas', () => {
  describe.each(MANIFEST_KINDS.map((kind) => [kind]))('%s', (kind) => {
    const fromKubevirt = collectPaths(loadJsonSchemaSpec(kind));
    const fromZod = collectPaths(zodJson(specSchemaOf(SPEC_KIND_OF[kind])));

    it('walks a non-trivial tree on both sides', () => {
      expect(fromKubevirt.size).toBeGreaterThan(SPEC_KIND_OF[kind] === 'instancetype' ? 45 : 140);
      expect(fromZod.size).toBe(fromKubevirt.size);
    });

    it('has every KubeVirt spec path', () => {
      const missing = [...fromKubevirt.keys()].filter((path) => !fromZod.has(path));
      expect(missing).toEqual([]);
    });

    it('has no path KubeVirt does not know', () => {
      const extra = [...fromZod.keys()].filter((path) => !fromKubevirt.has(path));
      expect(extra).toEqual([]);
    });

    it('agrees on type, required flag and numeric bounds', () => {
      const mismatches: string[] = [];
      for (const [path, theirs] of fromKubevirt) {
        const ours = fromZod.get(path);
        if (ours === undefined) continue;
        if (ours.shape !== theirs.shape) mismatches.push(`${path}: type ${ours.shape} vs ${theirs.shape}`);
        if (ours.required !== theirs.required) mismatches.push(`${path}: required ${ours.required} vs ${theirs.required}`);
        // Where KubeVirt bounds a number we must bound it the same way; elsewhere we may be stricter.
        if (theirs.minimum !== undefined && ours.minimum !== theirs.minimum) mismatches.push(`${path}: minimum`);
        if (theirs.maximum !== undefined && ours.maximum !== theirs.maximum) mismatches.push(`${path}: maximum`);
        if (theirs.enum !== undefined && JSON.stringify(ours.enum) !== JSON.stringify(theirs.enum)) {
          mismatches.push(`${path}: enum ${JSON.stringify(ours.enum)} vs ${JSON.stringify(theirs.enum)}`);
        }
      }
      expect(mismatches).toEqual([]);
    });
  });
});

describe('release metadata', () => {
  /** The first KubeVirt release serving each spec field added after v1.0.0 (from each tag's swagger.json). */
  function releasedSince(): Record<SpecKind, Record<string, string>> {
    const data = JSON.parse(readFileSync(FIELD_SINCE, 'utf8')) as Record<SpecKind, Record<string, string>>;
    return { instancetype: data.instancetype, preference: data.preference };
  }

  it('FIELD_SINCE matches the release each field first shipped in', () => {
    const expected = releasedSince();
    expect(Object.keys(expected.instancetype).length).toBeGreaterThan(10);
    expect({ ...INSTANCETYPE_FIELD_SINCE }).toEqual(expected.instancetype);
    expect({ ...PREFERENCE_FIELD_SINCE }).toEqual(expected.preference);
  });

  it.each([['instancetype' as const], ['preference' as const]])('every %s FIELD_SINCE path exists in the schema', (kind) => {
    const paths = collectPaths(zodJson(specSchemaOf(kind)));
    const since = fieldSinceFor(kind);
    expect(Object.keys(since).filter((path) => !paths.has(path))).toEqual([]);
    for (const release of Object.values(since)) expect(KUBEVIRT_RELEASES).toContain(release);
  });

  it('fieldSinceFor maps object kinds to their spec kind', () => {
    expect(fieldSinceFor('VirtualMachineInstancetype')).toBe(INSTANCETYPE_FIELD_SINCE);
    expect(fieldSinceFor('VirtualMachineClusterPreference')).toBe(PREFERENCE_FIELD_SINCE);
  });

  it('covers every topology value', () => {
    expect(Object.keys(PREFERRED_CPU_TOPOLOGY_SINCE).sort()).toEqual([...ALL_CPU_TOPOLOGIES].sort());
    expect(PREFERRED_CPU_TOPOLOGY_SINCE.preferSpread).toBe('v1.1.0');
    expect(PREFERRED_CPU_TOPOLOGY_SINCE.spread).toBe('v1.4.0');
  });

  it('deprecated fields and their replacements exist in the schemas', () => {
    const paths: Record<SpecKind, Map<string, PathInfo>> = {
      instancetype: collectPaths(zodJson(instancetypeSpecSchema)),
      preference: collectPaths(zodJson(preferenceSpecSchema)),
    };
    expect(DEPRECATED_FIELDS.map((field) => `${field.specKind}:${field.path}`)).toEqual([
      'instancetype:launchSecurity',
      'preference:firmware.preferredUseEfi',
      'preference:firmware.preferredUseSecureBoot',
    ]);
    for (const field of DEPRECATED_FIELDS) {
      expect(paths[field.specKind].has(field.path)).toBe(true);
      expect(paths[field.replacementSpecKind].has(field.replacementPath)).toBe(true);
      expect(field.replacement).not.toEqual('');
    }
  });

  it('maps every deprecated topology to an accepted short form', () => {
    expect(DEPRECATED_TOPOLOGIES.preferSockets.replacement).toBe('sockets');
    expect(DEPRECATED_TOPOLOGIES.preferAny.serverWarning).toBe(
      'PreferredCPUTopology preferAny is deprecated for removal in a future release, please use any instead',
    );
    for (const entry of Object.values(DEPRECATED_TOPOLOGIES)) {
      expect(preferenceSpecSchema.safeParse({ cpu: { preferredCPUTopology: entry.replacement } }).success).toBe(true);
    }
  });

  it('lists the releases in order', () => {
    expect(KUBEVIRT_RELEASES[0]).toBe('v1.0.0');
    expect(KUBEVIRT_RELEASES.at(-1)).toBe('v1.9.0');
    const sorted = [...KUBEVIRT_RELEASES].sort(compareRelease);
    expect(sorted).toEqual([...KUBEVIRT_RELEASES]);
  });

  it.each([
    ['v1.9', 'v1.9.0', 0],
    ['v1.9.1', 'v1.9', 1],
    ['v1.3.0', 'v1.10.0', -1],
    ['v2.0', 'v1.99.99', 1],
    ['v1.4', 'v1.3', 1],
  ])('compareRelease(%s, %s) has sign %d', (a, b, sign) => {
    expect(Math.sign(compareRelease(a, b))).toBe(sign);
    expect(Math.sign(compareRelease(b, a))).toBe(-sign || 0);
  });

  it('parses only vMAJOR.MINOR[.PATCH]', () => {
    expect(parseRelease('v1.9')).toEqual({ major: 1, minor: 9, patch: 0 });
    for (const bad of ['1.9', 'v1', 'v1.9.0.1', 'v1.9.0-rc.1', 'latest']) expect(parseRelease(bad)).toBeUndefined();
    expect(() => compareRelease('1.9', 'v1.9')).toThrow('malformed release 1.9');
  });
});

/**
 * Round trip through KubeVirt's own API models: the TypeScript models of
 * @kubevirt-ui-ext/kubevirt-api (generated from KubeVirt's OpenAPI document) keep exactly the fields
 * KubeVirt knows, so a field that `...FromJSON` drops is a field KubeVirt would prune. Every object
 * the default catalog emits must come back unchanged. The package is older than some fields itgen
 * models; those are listed below with the release that added them, and the test checks that list
 * against what the package really drops and against itgen's own release table.
 * (The strict JSON Schemas of test/reference/kubevirt-schemas are applied in test/conformance.test.ts.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compile } from '../src/pipeline';
import { PREFERENCE_FIELD_SINCE, INSTANCETYPE_FIELD_SINCE, instancetypeSpecSchema, preferenceSpecSchema } from '../src/schema/manifest';
import { REPO } from './helpers';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Convert = (json: unknown) => unknown;

/**
 * The package's conditional exports have no `types` entry our `node10` resolution can follow, so
 * the few functions used are typed here.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a subpath the package exports to CommonJS only
const api = require('@kubevirt-ui-ext/kubevirt-api/kubevirt') as Record<string, Convert>;
const PACKAGE_VERSION = (
  JSON.parse(readFileSync(path.join(REPO, 'node_modules', '@kubevirt-ui-ext', 'kubevirt-api', 'package.json'), 'utf8')) as { version: string }
).version;

const CONVERTERS: Record<string, { from: Convert; to: Convert }> = {
  VirtualMachineClusterInstancetype: {
    from: api['V1beta1VirtualMachineClusterInstancetypeFromJSON']!,
    to: api['V1beta1VirtualMachineClusterInstancetypeToJSON']!,
  },
  VirtualMachineInstancetype: { from: api['V1beta1VirtualMachineInstancetypeFromJSON']!, to: api['V1beta1VirtualMachineInstancetypeToJSON']! },
  VirtualMachineClusterPreference: { from: api['V1beta1VirtualMachineClusterPreferenceFromJSON']!, to: api['V1beta1VirtualMachineClusterPreferenceToJSON']! },
  VirtualMachinePreference: { from: api['V1beta1VirtualMachinePreferenceFromJSON']!, to: api['V1beta1VirtualMachinePreferenceToJSON']! },
};

/**
 * Spec fields newer than the package's models (@kubevirt-ui-ext/kubevirt-api 1.7.0), with the
 * KubeVirt release that introduced them. Remove an entry when the package catches up (the test
 * fails when an entry is no longer dropped).
 */
const NEWER_THAN_PACKAGE: Readonly<Record<string, { readonly kind: 'instancetype' | 'preference'; readonly since: string }>> = {
  preferredLaunchSecurity: { kind: 'preference', since: 'v1.9.0' },
};

const plain = (v: unknown): Json => JSON.parse(JSON.stringify(v)) as Json;

/** Dotted paths (`[]` for list items) where `a` has a value and `b` has none or another one. */
function differences(a: Json, b: Json | undefined, prefix = ''): string[] {
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return [prefix];
    return a.flatMap((x, i) => differences(x, b[i], `${prefix}[]`));
  }
  if (a !== null && typeof a === 'object') {
    if (b === null || typeof b !== 'object' || Array.isArray(b) || b === undefined) return [prefix];
    const out = Object.keys(a).flatMap((k) => differences(a[k]!, b[k], prefix ? `${prefix}.${k}` : k));
    for (const k of Object.keys(b)) if (!(k in a)) out.push(`${prefix ? `${prefix}.` : ''}${k} (added)`);
    return out;
  }
  return a === b ? [] : [prefix];
}

/** The outermost of a set of dotted paths (a dropped object drops its children too). */
function outermost(paths: readonly string[]): string[] {
  return paths.filter((p) => !paths.some((q) => q !== p && p.startsWith(`${q}.`))).sort();
}

/** A value for every field of a zod schema: the kitchen-sink spec. */
function sample(schema: unknown): Json {
  const d = (schema as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  switch (d.type) {
    case 'optional':
    case 'default':
    case 'nullable':
    case 'readonly':
    case 'prefault':
      return sample(d['innerType']);
    case 'pipe':
      return sample(d['in']);
    case 'object': {
      const o: Record<string, Json> = {};
      for (const [k, v] of Object.entries(d['shape'] as Record<string, unknown>)) o[k] = sample(v);
      return o;
    }
    case 'array':
      return [sample(d['element'])];
    case 'record':
      return { 'example.com/key': 'value' };
    case 'string':
      return 'text';
    case 'number':
    case 'int':
      return 2;
    case 'boolean':
      return true;
    case 'enum':
      return Object.values(d['entries'] as Record<string, string>)[0]!;
    case 'union':
      return sample((d['options'] as unknown[])[0]);
    case 'literal':
      return (d['values'] as Json[])[0]!;
    default:
      throw new Error(`sample: unhandled zod type ${d.type}`);
  }
}

describe(`KubeVirt API models (@kubevirt-ui-ext/kubevirt-api ${PACKAGE_VERSION})`, () => {
  const result = compile(REPO, 'generators/default.yaml');

  it('the default catalog compiles', () => {
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.objects.length).toBeGreaterThan(0);
  });

  it('every object of the default catalog round-trips unchanged through FromJSON/ToJSON', () => {
    const failures: string[] = [];
    for (const o of result.objects) {
      const c = CONVERTERS[o.manifest.kind];
      if (!c) {
        failures.push(`${o.manifest.kind}: no model in the package`);
        continue;
      }
      const before = plain(o.manifest);
      const after = plain(c.to(c.from(before)));
      const diff = differences(before, after).filter((p) => !(p.replace(/^spec\./, '') in NEWER_THAN_PACKAGE));
      if (diff.length > 0) failures.push(`${o.manifest.kind}/${o.manifest.metadata.name}: ${outermost(diff).join(', ')}`);
    }
    expect(failures).toEqual([]);
    // All four kinds were exercised.
    expect(new Set(result.objects.map((o) => o.manifest.kind)).size).toBe(4);
  });

  it.each([
    ['instancetype', instancetypeSpecSchema, 'V1beta1VirtualMachineInstancetypeSpec'],
    ['preference', preferenceSpecSchema, 'V1beta1VirtualMachinePreferenceSpec'],
  ] as const)('every %s spec field itgen models is known to the package, except the listed newer ones', (kind, schema, model) => {
    const spec = sample(schema);
    const after = plain(api[`${model}ToJSON`]!(api[`${model}FromJSON`]!(spec)));
    const dropped = outermost(differences(spec, after));
    const expected = Object.entries(NEWER_THAN_PACKAGE)
      .filter(([, v]) => v.kind === kind)
      .map(([p]) => p)
      .sort();
    expect(dropped).toEqual(expected);
  });

  it('each field newer than the package is one itgen knows the release of, and that release agrees', () => {
    for (const [p, { kind, since }] of Object.entries(NEWER_THAN_PACKAGE)) {
      const table = kind === 'instancetype' ? INSTANCETYPE_FIELD_SINCE : PREFERENCE_FIELD_SINCE;
      expect([p, table[p]]).toEqual([p, since]);
    }
  });

  it('a field KubeVirt does not know is dropped by the models (the check can fail)', () => {
    const c = CONVERTERS['VirtualMachineClusterInstancetype']!;
    const doc = {
      apiVersion: 'instancetype.kubevirt.io/v1beta1',
      kind: 'VirtualMachineClusterInstancetype',
      metadata: { name: 'x' },
      spec: { cpu: { guest: 1, dedicatedCPUPlacment: true }, memory: { guest: '1Gi' } },
    };
    expect(differences(plain(doc), plain(c.to(c.from(doc))))).toEqual(['spec.cpu.dedicatedCPUPlacment']);
  });
});

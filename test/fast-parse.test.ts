/**
 * The fast parser (src/schema/fast.ts) answers for zod without zod: wherever it answers, zod must
 * accept the value and return the very same data (keys, their order, keys present with no value),
 * and it must answer for the catalogs, generators and locks the repository holds, which is what
 * makes it worth having. Held to zod on every YAML document of the repository (catalogs, examples,
 * the diagnostic fixtures, which are full of mistakes), on every generated object, on random
 * mutations of catalog documents and on each construct the model carries.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { globSync } from 'glob';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { fastParse, installModel } from '../src/schema/fast';
import { CATALOG_KINDS } from '../src/schema/catalog';
import { generatorSchema } from '../src/schema/generator';
import { lockSchema } from '../src/schema/lock';
import { MANIFEST_KINDS, manifestSchemaFor, type ManifestKind } from '../src/schema/manifest';
import { modelOf, schemaModel } from '../src/schema/model';
import { strictLoaded } from '../src/schema/lazy';
import { CATALOG_KIND_NAMES } from '../src/schema/names';
import { checkProject } from '../src/workflows/generate';
import { openProject } from '../src/project';
import { compileProject, REPO } from './helpers';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

installModel(schemaModel());

/** A value with its key order and its keys without a value made visible, for comparing outputs. */
function shapeOf(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shapeOf);
  if (v !== null && typeof v === 'object') return Object.entries(v).map(([k, x]) => [k, x === undefined ? '<undefined>' : shapeOf(x)]);
  return v;
}

/** The root of the model and the zod schema a document is read with, from its kind and place. */
function rootOf(file: string, value: Record<string, unknown>): { root: string; schema: z.core.$ZodType } | undefined {
  const kind = value['kind'];
  if (typeof kind === 'string' && Object.hasOwn(CATALOG_KINDS, kind))
    return { root: `catalog:${kind}`, schema: CATALOG_KINDS[kind as keyof typeof CATALOG_KINDS] };
  if (kind === 'ReleaseLock') return { root: 'lock', schema: lockSchema };
  if (typeof kind === 'string' && (MANIFEST_KINDS as readonly string[]).includes(kind))
    return { root: `manifest:${kind}`, schema: manifestSchemaFor(kind as ManifestKind) };
  if (/(^|\/)generators\/[^/]+\.ya?ml$/.test(file) && !/\.lock\.ya?ml$/.test(file)) return { root: 'generator', schema: generatorSchema };
  return undefined;
}

/** The objects of the KubeVirt corpus (test/fixtures/kubevirt-corpus: KubeVirt's own verdicts on them). */
const corpusObjects = (): Record<string, Json>[] =>
  gunzipSync(readFileSync(path.join(REPO, 'test', 'fixtures', 'kubevirt-corpus', 'cases.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { mode: string; object?: Record<string, Json> })
    .filter((c) => c.mode === 'validate-object' && c.object !== undefined)
    .map((c) => c.object!);

/** The mapping `depth` levels down from `root`, each step to the `pick`th of its mappings (fewer levels where it has none). */
function mappingAt(root: Record<string, Json>, depth: number, pick: number): Record<string, Json> {
  let at = root;
  for (let i = 0; i < depth; i++) {
    const keys = Object.keys(at).filter((k) => at[k] !== null && typeof at[k] === 'object' && !Array.isArray(at[k]));
    if (keys.length === 0) break;
    at = at[keys[pick % keys.length]!] as Record<string, Json>;
  }
  return at;
}

/** Compares the two on one value; true when the fast parser answered. */
function compare(root: string, schema: z.core.$ZodType, value: unknown, where: string): boolean {
  const fast = fastParse(root, value);
  if (fast === undefined) return false;
  const exact = (schema as z.ZodType).safeParse(value);
  if (!exact.success) throw new Error(`${where}: the fast parser accepts what zod refuses: ${exact.error.message}`);
  if (!isDeepStrictEqual(fast.data, exact.data) || !isDeepStrictEqual(shapeOf(fast.data), shapeOf(exact.data))) {
    throw new Error(`${where}: the fast parser gives ${JSON.stringify(shapeOf(fast.data))}, zod ${JSON.stringify(shapeOf(exact.data))}`);
  }
  return true;
}

const documents = globSync('{catalogs,examples,generators,test/fixtures}/**/*.{yaml,yml}', { cwd: REPO, dot: false }).flatMap((file) =>
  parseAllDocuments(readFileSync(path.join(REPO, file), 'utf8'), { uniqueKeys: false }).flatMap((d, i) => {
    if (!('toJS' in d) || d.errors.length > 0) return [];
    let value: unknown;
    try {
      value = d.toJS({ maxAliasCount: 100 });
    } catch {
      return []; // the alias bomb fixture
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
    const r = rootOf(file, value as Record<string, unknown>);
    return r ? [{ where: `${file}#${i + 1}`, file, value, ...r }] : [];
  }),
);

describe('fastParse', () => {
  it('lets the whole check of a sound project run without loading zod (schema/lazy.ts stays closed)', () => {
    const checked = checkProject(openProject({ root: REPO }));
    expect(checked.results.map((r) => r.generator?.name)).toEqual(['common-instancetypes', 'default']);
    expect(checked.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(strictLoaded()).toBe(false);
    // The kinds the zod-free code knows are the schemas' kinds.
    expect([...CATALOG_KIND_NAMES]).toEqual(Object.keys(CATALOG_KINDS));
  });

  it('gives what zod gives on every document of the repository, and answers for every sound catalog, generator and lock', () => {
    expect(documents.length).toBeGreaterThan(300);
    let zodAccepts = 0;
    let answered = 0;
    for (const d of documents) {
      const ok = (d.schema as z.ZodType).safeParse(d.value).success;
      const fast = compare(d.root, d.schema, d.value, d.where);
      if (ok) zodAccepts++;
      if (fast) answered++;
      // The packaged catalogs and generators take the fast path whole.
      if (/^(catalogs|generators)\//.test(d.file)) expect([d.where, fast]).toEqual([d.where, true]);
    }
    expect(answered / zodAccepts).toBeGreaterThan(0.98);
  });

  it('gives what zod gives on every object the packaged generators make', () => {
    const objects = ['generators/default.yaml', 'generators/common-instancetypes.yaml'].flatMap((g) => compileProject(REPO, g).objects);
    expect(objects.length).toBeGreaterThan(300);
    for (const o of objects)
      expect(compare(`manifest:${o.manifest.kind}`, manifestSchemaFor(o.manifest.kind), o.manifest, o.manifest.metadata.name)).toBe(true);
  });

  it('never differs from zod on random mutations of catalog documents', () => {
    let answered = 0;
    const catalogDocs = documents.filter((d) => d.root.startsWith('catalog:') || d.root === 'generator');
    const value: fc.Arbitrary<Json> = fc.oneof(
      fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, 4, '', 'virtio', '4Gi', 4.5, 'x y', 'amd64', 'a\u0007b', {}, [], ['x'], [{}], { a: 'b' }),
      fc.constantFrom<Json>('instancetype.kubevirt.io/cpu', 'name', 'tags', '{{x}}', 'v1.2.0', 'IT5007', 'cluster', 'linux'),
      fc.string({ maxLength: 6 }),
      fc.integer(),
    );
    fc.assert(
      fc.property(fc.nat(catalogDocs.length - 1), fc.array(fc.tuple(fc.nat(), fc.nat(), value, fc.nat(3)), { minLength: 1, maxLength: 3 }), (pick, edits) => {
        const d = catalogDocs[pick]!;
        const m = JSON.parse(JSON.stringify(d.value)) as Record<string, Json>;
        for (const [depth, keyPick, v, op] of edits) {
          // A random mapping, then set, replace, remove or add one of its keys.
          const at = mappingAt(m, depth % 4, keyPick);
          const keys = Object.keys(at);
          const key =
            op === 3 || keys.length === 0
              ? ['spec', 'labels', 'vars', 'naming', 'extra', 'instancetype.kubevirt.io/cpu'][keyPick % 6]!
              : keys[keyPick % keys.length]!;
          if (op === 0) delete at[key];
          else at[key] = v;
        }
        if (compare(d.root, d.schema, m, `mutation of ${d.where}`)) answered++;
      }),
      { numRuns: 3000 },
    );
    // Not vacuous: many mutations stay sound (a key dropped, a value of the right kind) and are answered.
    expect(answered).toBeGreaterThan(300);
  });

  it('gives what zod gives on the objects of the KubeVirt corpus, and answers for most', () => {
    const objects = corpusObjects().filter((o) => (MANIFEST_KINDS as readonly unknown[]).includes(o['kind']));
    expect(objects.length).toBeGreaterThan(500);
    let answered = 0;
    for (const [i, o] of objects.entries())
      if (compare(`manifest:${String(o['kind'])}`, manifestSchemaFor(o['kind'] as ManifestKind), o, `corpus object ${i}`)) answered++;
    expect(answered / objects.length).toBeGreaterThan(0.6);
  });

  it('never differs from zod on random mutations of generated objects', () => {
    const objects = ['generators/default.yaml', 'generators/common-instancetypes.yaml'].flatMap((g) => compileProject(REPO, g).objects.map((o) => o.manifest));
    let answered = 0;
    const value: fc.Arbitrary<Json> = fc.oneof(
      fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, 2 ** 53, '', 'virtio', '4Gi', 'x y', 'spread', {}, [], [1], { enabled: true }),
      fc.string({ maxLength: 6 }),
      fc.integer(),
      fc.double(),
    );
    fc.assert(
      fc.property(fc.nat(objects.length - 1), fc.array(fc.tuple(fc.nat(), fc.nat(), value, fc.boolean()), { minLength: 1, maxLength: 3 }), (pick, edits) => {
        const m = JSON.parse(JSON.stringify(objects[pick]!)) as Record<string, Json>;
        for (const [depth, keyPick, v, remove] of edits) {
          const at = mappingAt(m, depth % 5, keyPick);
          const keys = Object.keys(at);
          const key = keyPick % (keys.length + 1) === keys.length ? 'preferredDiskBuss' : keys[keyPick % (keys.length + 1)]!;
          if (remove) delete at[key];
          else at[key] = v;
        }
        const kind = objects[pick]!.kind;
        if (compare(`manifest:${kind}`, manifestSchemaFor(kind), m, `mutation of a ${kind}`)) answered++;
      }),
      { numRuns: 3000, seed: 2026 },
    );
    expect(answered).toBeGreaterThan(300);
  });

  it('models each zod construct as zod does, and hands everything else to zod', () => {
    const cases: [z.ZodType, unknown[]][] = [
      [z.string().max(3).regex(/^a/), ['a', 'abc', 'abcd', 'b', 1, undefined]],
      [z.string().min(2), ['', 'ab']],
      [z.string().length(2), ['ab', 'a']],
      [z.int().min(0).max(10), [0, 10, 11, -1, 1.5, Infinity, NaN, '1']],
      [z.uint32(), [0, 4294967295, 4294967296, -1]],
      [z.number().nonnegative(), [0, -0.1, 1e308, Infinity, NaN]],
      [z.number().positive(), [0, 1]],
      [z.number().lt(1), [0, 1]],
      [z.enum(['a', 'b']), ['a', 'c', undefined]],
      [z.literal('k'), ['k', 'K']],
      [z.boolean(), [true, 'true', 0]],
      [
        z.strictObject({ a: z.string(), b: z.number().optional() }),
        [{ a: 'x' }, { a: 'x', b: 1 }, { a: 'x', c: 1 }, {}, { a: 'x', b: undefined }, new Map(), [], null],
      ],
      [z.object({ a: z.string() }), [{ a: 'x', extra: 1 }, { a: 1 }]],
      [
        z.object({ a: z.string() }).catchall(z.number()),
        [
          { a: 'x', n: 1 },
          { a: 'x', n: 'y' },
        ],
      ],
      [z.record(z.string().regex(/^k/), z.string()), [{ k1: 'v' }, { x: 'v' }, { k: 1 }, Object.create({ k: 'v' })]],
      [z.record(z.enum(['a', 'b']), z.string()), [{ a: 'x' }, { a: 'x', b: 'y' }]],
      [z.partialRecord(z.enum(['a', 'b']), z.string()), [{ a: 'x' }, { c: 'x' }, {}]],
      [z.array(z.string()).min(1), [[], ['a'], [1], 'a']],
      [z.union([z.string().regex(/^\d+Gi$/), z.number().nonnegative()]), ['4Gi', 4, -1, '4']],
      [
        z
          .union([z.string(), z.array(z.string())])
          .optional()
          .transform((v) => v),
        ['a'],
      ],
      [z.discriminatedUnion('k', [z.object({ k: z.literal('a'), x: z.string() }), z.object({ k: z.literal('b') })]), [{ k: 'a', x: 's' }, { k: 'b' }]],
      [z.string().nullable(), [null, 's', undefined]],
      [z.email(), ['a@b.example', 'nope']],
      [z.string().refine((s) => s !== 'no'), ['yes', 'no']],
      [z.string().default('d'), [undefined, 's', 1]],
      [
        z.strictObject({ d: z.array(z.string()).default(['x']), p: z.strictObject({ q: z.string().default('y') }).prefault({}) }),
        [{}, { d: [] }, { p: { q: 'z' } }],
      ],
      [z.union([z.string(), z.number()]).transform(String), ['s', 1, true]],
      [
        z.optional(
          z
            .string()
            .optional()
            .transform((v) => v ?? 'x'),
        ),
        [undefined, 'a'],
      ],
      [z.coerce.number(), ['1', 'x']],
    ];
    try {
      for (const [i, [schema, values]] of cases.entries()) {
        installModel(modelOf({ x: schema }));
        for (const v of values) compare('x', schema, v, `case ${i}, ${String(v)}`);
      }
      // Where the model carries the construct, plain values are answered (not handed to zod).
      installModel(modelOf({ x: z.strictObject({ a: z.int(), b: z.partialRecord(z.enum(['a']), z.string()).optional() }) }));
      expect(fastParse('x', { a: 1, b: { a: 's' } })).toEqual({ data: { a: 1, b: { a: 's' } } });
      // Not carried: a transform of its own, a string format, coercion, a discriminated union.
      for (const schema of [z.string().transform((s) => s), z.email(), z.coerce.number(), z.discriminatedUnion('k', [z.object({ k: z.literal('a') })])]) {
        installModel(modelOf({ x: schema }));
        expect(fastParse('x', 'a@b.example')).toBeUndefined();
      }
    } finally {
      installModel(schemaModel());
    }
  });

  it('carries each construct as zod does: defaults, prefaults, transforms, refinements, optional and unknown keys', () => {
    const family = { kind: 'Family', name: 'u', displayName: 'U', description: 'General', class: 'general', memoryPerCPU: 4 };
    const cases: [string, z.core.$ZodType, unknown, boolean][] = [
      // A quantity written as a number becomes text; a version too; the catalog's naming defaults fill in.
      ['catalog:Family', CATALOG_KINDS.Family, family, true],
      ['catalog:Family', CATALOG_KINDS.Family, { ...family, version: 1, memoryPerCPU: '4Gi' }, true],
      ['catalog:Catalog', CATALOG_KINDS.Catalog, { kind: 'Catalog', name: 'c' }, true],
      ['catalog:Catalog', CATALOG_KINDS.Catalog, { kind: 'Catalog', name: 'c', naming: { preference: '{name}' }, defaultArchitecture: 'arm64' }, true],
      // inherits as one name becomes a list; absent, no key at all.
      ['catalog:Preference', CATALOG_KINDS.Preference, { kind: 'Preference', name: 'p', inherits: 'base', abstract: true }, true],
      ['catalog:Preference', CATALOG_KINDS.Preference, { kind: 'Preference', name: 'p', inherits: ['a', 'b'], abstract: true, vars: { tags: 'x' } }, true],
      // Refused by a refinement: zod decides and gives the issues.
      ['catalog:Preference', CATALOG_KINDS.Preference, { kind: 'Preference', name: 'p', abstract: true, vars: { name: 'x' } }, false],
      ['catalog:Family', CATALOG_KINDS.Family, { ...family, labels: { 'instancetype.kubevirt.io/cpu': '2' } }, false],
      ['catalog:Family', CATALOG_KINDS.Family, { ...family, memoryPerCPU: '4 Gi' }, false],
      ['catalog:Family', CATALOG_KINDS.Family, { ...family, displayname: 'U' }, false],
      ['catalog:Family', CATALOG_KINDS.Family, { ...family, kind: 'family' }, false],
      // A key present with no value is kept as zod keeps it.
      ['catalog:Family', CATALOG_KINDS.Family, { ...family, version: undefined, labels: undefined }, true],
      // The generator's defaults and its bundle prefault.
      ['generator', generatorSchema, { catalog: '../c', output: '../o' }, true],
      ['generator', generatorSchema, { catalog: '../c', output: '../o', scopes: ['cluster'], bundle: { filePrefix: 'x' } }, true],
      ['generator', generatorSchema, { catalog: '../c', output: '../o', scopes: [] }, false],
    ];
    for (const [root, schema, value, answered] of cases) {
      expect([JSON.stringify(value), compare(root, schema, value, JSON.stringify(value))]).toEqual([JSON.stringify(value), answered]);
    }
    // A key named __proto__ is zod's business (it strips it without a word).
    const proto = JSON.parse('{"kind":"Preference","name":"p","abstract":true,"__proto__":{"x":1}}') as unknown;
    expect(fastParse('catalog:Preference', proto)).toBeUndefined();
    expect(fastParse('no-such-root', {})).toBeUndefined();
  });
});

/**
 * `accepts` (src/schema/accepts.ts) must never say yes where zod says no, and should say yes for
 * the objects itgen generates, which is what makes it worth having. Held to zod's own verdict on
 * every generated object of both packaged generators, on the objects of the KubeVirt corpus, on
 * random mutations of generated objects and on each construct it models.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { z } from 'zod';
import { accepts } from '../src/schema/accepts';
import { MANIFEST_KINDS, manifestSchemaFor, type ManifestKind } from '../src/schema/manifest';
import { CATALOG_KINDS } from '../src/schema/catalog';
import { generatorSchema } from '../src/schema/generator';
import { compileProject, REPO } from './helpers';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const generated = ['generators/default.yaml', 'generators/common-instancetypes.yaml'].flatMap((g) =>
  compileProject(REPO, g).objects.map((o) => o.manifest as unknown as { kind: ManifestKind } & Record<string, Json>),
);

const corpusObjects = (): Record<string, Json>[] => {
  const file = path.join(REPO, 'test', 'fixtures', 'kubevirt-corpus', 'cases.jsonl.gz');
  return gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { mode: string; object?: Record<string, Json> })
    .filter((c) => c.mode === 'validate-object' && c.object !== undefined)
    .map((c) => c.object!);
};

const zodSays = (schema: z.core.$ZodType, v: unknown): boolean => z.safeParse(schema, v).success;

describe('accepts', () => {
  it('says yes to every object the packaged generators make (zod agrees)', () => {
    expect(generated.length).toBeGreaterThan(300);
    for (const m of generated) {
      const schema = manifestSchemaFor(m.kind);
      expect(zodSays(schema, m)).toBe(true);
      expect(accepts(schema, m)).toBe(true);
    }
  });

  it('never says yes where zod says no on the KubeVirt corpus objects, and agrees on most', () => {
    const objects = corpusObjects();
    expect(objects.length).toBeGreaterThan(500);
    let agree = 0;
    for (const o of objects) {
      const kind = o['kind'];
      if (typeof kind !== 'string' || !(MANIFEST_KINDS as readonly string[]).includes(kind)) continue;
      const schema = manifestSchemaFor(kind as ManifestKind);
      const quick = accepts(schema, o);
      const exact = zodSays(schema, o);
      if (quick) expect(exact).toBe(true);
      if (quick === exact) agree++;
    }
    expect(agree / objects.length).toBeGreaterThan(0.9);
  });

  it('never says yes where zod says no on random mutations of generated objects', () => {
    const value: fc.Arbitrary<Json> = fc.oneof(
      fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, 2 ** 53, '', 'virtio', '4Gi', 'x y', 'spread', {}, [], [1], { enabled: true }),
      fc.string({ maxLength: 6 }),
      fc.integer(),
      fc.double(),
    );
    fc.assert(
      fc.property(fc.nat(generated.length - 1), fc.array(fc.tuple(fc.nat(), fc.nat(), value, fc.boolean()), { minLength: 1, maxLength: 3 }), (pick, edits) => {
        // A copy made in this realm (structuredClone's objects have another realm's prototype, which
        // `accepts` leaves to zod).
        const m = JSON.parse(JSON.stringify(generated[pick]!)) as Record<string, Json>;
        for (const [depth, keyPick, v, remove] of edits) {
          // Walk down to a random mapping, then set, replace or remove one of its keys (or add one).
          let at: Record<string, Json> = m;
          for (let i = 0; i < depth % 5; i++) {
            const keys = Object.keys(at).filter((k) => at[k] !== null && typeof at[k] === 'object' && !Array.isArray(at[k]));
            if (keys.length === 0) break;
            at = at[keys[keyPick % keys.length]!] as Record<string, Json>;
          }
          const keys = Object.keys(at);
          const key = keyPick % (keys.length + 1) === keys.length ? 'preferredDiskBuss' : keys[keyPick % (keys.length + 1)]!;
          if (remove) delete at[key];
          else at[key] = v;
        }
        const schema = manifestSchemaFor((generated[pick]!.kind as ManifestKind) ?? 'VirtualMachineClusterPreference');
        if (accepts(schema, m)) expect(zodSays(schema, m)).toBe(true);
      }),
      { numRuns: 3000, seed: 2026 },
    );
  });

  it('models each construct as zod does, and hands everything else to zod', () => {
    const cases: [z.ZodType, unknown[]][] = [
      [z.string().max(3).regex(/^a/), ['a', 'abc', 'abcd', 'b', 1, undefined]],
      [z.string().min(2), ['', 'ab']],
      [z.int().min(0).max(10), [0, 10, 11, -1, 1.5, Infinity, NaN, '1']],
      [z.number().nonnegative(), [0, -0.1, 1e308, Infinity, NaN]],
      [z.number().positive(), [0, 1]],
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
      [z.array(z.string()).min(1), [[], ['a'], [1], 'a']],
      [z.union([z.string().regex(/^\d+Gi$/), z.number().nonnegative()]), ['4Gi', 4, -1, '4']],
      [
        z.discriminatedUnion('k', [z.object({ k: z.literal('a'), x: z.string() }), z.object({ k: z.literal('b') })]),
        [{ k: 'a', x: 's' }, { k: 'a' }, { k: 'b' }, { k: 'c' }],
      ],
      [z.string().nullable(), [null, 's', undefined]],
      [z.email(), ['a@b.example', 'nope']],
      [z.string().refine((s) => s !== 'no'), ['yes', 'no']],
      [z.object({ a: z.string() }).refine((o) => o.a !== 'no'), [{ a: 'yes' }, { a: 'no' }]],
      [z.string().default('d'), [undefined, 's', 1]],
      [z.union([z.string(), z.number()]).transform(String), ['s', 1, true]],
      [z.coerce.number(), ['1', 'x']],
    ];
    for (const [i, [schema, values]] of cases.entries())
      for (const v of values) {
        // The value and the case are in the compared object, so that a failure names them.
        const exact = zodSays(schema, v);
        const quick = accepts(schema, v);
        // Never yes where zod says no; and where zod says yes, yes too (a no would only cost time),
        // but for objects that are not plain, which are zod's to judge.
        if (quick || (exact && !(v instanceof Map) && Object.getPrototypeOf(v ?? {}) === Object.prototype) || typeof v !== 'object')
          expect({ i, v, quick }).toEqual({ i, v, quick: exact });
      }
  });

  it('also agrees with zod on the catalog and generator schemas, whatever they use', () => {
    const samples: [z.core.$ZodType, unknown][] = [
      [generatorSchema, { apiVersion: 'itgen.dev/v1alpha1', kind: 'Generator', metadata: { name: 'g' }, catalog: '../c', output: '../o' }],
      [generatorSchema, { kind: 'Generator', catalog: 1 }],
      ...Object.values(CATALOG_KINDS).map((s) => [s, { kind: 'Family', name: 'n', version: 1 }] as [z.core.$ZodType, unknown]),
    ];
    for (const [schema, v] of samples) if (accepts(schema, v)) expect(zodSays(schema, v)).toBe(true);
  });
});

/**
 * The merge engine (src/resolve/leaves.ts) on its own: specs broken into leaves with their origin,
 * sources at one level merged (agreement or conflict, never order), a child laid over its base,
 * and the spec rebuilt; plus the name patterns (src/resolve/naming.ts).
 */
import { parseSource } from '../src/load/source';
import type { JsonObject } from '../src/json';
import { fromLeaves, mergeLevel, originOf, overlay, sortKeysDeep, toLeaves, type Leaves } from '../src/resolve/leaves';
import { checkName, expandPattern } from '../src/resolve/naming';
import type { Diagnostic } from '../src/diagnostics';

const SRC = parseSource('x.yaml', Buffer.from('kind: X\n')).docs[0]!;
const L = (spec: JsonObject, what = 'source'): Leaves => toLeaves(spec, SRC, ['spec'], what);

describe('toLeaves', () => {
  it('breaks a spec into leaves at their paths, with where each was written', () => {
    const leaves = L({ cpu: { guest: 2, model: 'host' }, devices: { preferredRng: {} }, gpus: [{ name: 'a' }] });
    expect([...leaves.values()].map((l) => [l.path.join('.'), l.value, l.origin.path.join('.')])).toEqual([
      ['cpu.guest', 2, 'spec.cpu.guest'],
      ['cpu.model', 'host', 'spec.cpu.model'],
      ['devices.preferredRng', {}, 'spec.devices.preferredRng'],
      ['gpus', [{ name: 'a' }], 'spec.gpus'],
    ]);
  });
  it('has nothing for an absent or empty spec', () => {
    expect(toLeaves(undefined, SRC, [], 'x').size).toBe(0);
    expect(L({}).size).toBe(0);
  });
});

describe('mergeLevel: sources at one level', () => {
  it('keeps what only one sets and what both set alike', () => {
    const { leaves, conflicts } = mergeLevel([L({ a: { x: 1 }, b: [1, 2] }), L({ a: { y: 2 }, b: [1, 2] })]);
    expect(conflicts).toEqual([]);
    expect(fromLeaves(leaves)).toEqual({ a: { x: 1, y: 2 }, b: [1, 2] });
  });
  it('reports two values for one field with both origins, whatever the order', () => {
    for (const order of [
      [L({ a: 1 }, 'first'), L({ a: 2 }, 'second')],
      [L({ a: 2 }, 'second'), L({ a: 1 }, 'first')],
    ]) {
      const { conflicts } = mergeLevel(order);
      expect(conflicts.map((c) => [c.path.join('.'), c.first.origin.what, c.second.origin.what])).toEqual([
        ['a', order[0]!.get('a')!.origin.what, order[1]!.get('a')!.origin.what],
      ]);
    }
  });
  it('lets an empty object and fields below it meet (`{}` enables, fields configure)', () => {
    const { leaves, conflicts } = mergeLevel([L({ tpm: {} }), L({ tpm: { persistent: true } })]);
    expect(conflicts).toEqual([]);
    expect(fromLeaves(leaves)).toEqual({ tpm: { persistent: true } });
    const reverse = mergeLevel([L({ tpm: { persistent: true } }), L({ tpm: {} })]);
    expect([reverse.conflicts, fromLeaves(reverse.leaves)]).toEqual([[], { tpm: { persistent: true } }]);
  });
  it('reports a value against fields below it', () => {
    expect(mergeLevel([L({ a: 'x' }), L({ a: { b: 1 } })]).conflicts.map((c) => c.path.join('.'))).toEqual(['a.b']);
    expect(mergeLevel([L({ a: { b: 1 } }), L({ a: 'x' })]).conflicts.map((c) => c.path.join('.'))).toEqual(['a']);
  });
  it('compares lists whole', () => {
    expect(mergeLevel([L({ a: [1, 2] }), L({ a: [2, 1] })]).conflicts).toHaveLength(1);
  });
});

describe('overlay: a child over its base', () => {
  it('the child wins field by field and keeps the rest of the base', () => {
    expect(fromLeaves(overlay(L({ a: 1, b: { c: 1, d: 2 } }), L({ b: { c: 9 } })))).toEqual({ a: 1, b: { c: 9, d: 2 } });
  });
  it('null removes what the base set', () => {
    expect(fromLeaves(overlay(L({ a: 1, b: { c: 1 } }), L({ b: { c: null } })))).toEqual({ a: 1 });
  });
  it('an empty object over fields keeps them; a value replaces a whole subtree and the other way round', () => {
    expect(fromLeaves(overlay(L({ b: { c: 1 } }), L({ b: {} })))).toEqual({ b: { c: 1 } });
    expect(fromLeaves(overlay(L({ b: { c: 1, d: 2 } }), L({ b: 'x' })))).toEqual({ b: 'x' });
    expect(fromLeaves(overlay(L({ b: 'x' }), L({ b: { c: 1 } })))).toEqual({ b: { c: 1 } });
  });
  it('records the origin of each field that decided', () => {
    const merged = overlay(L({ a: 1, b: 2 }, 'base'), L({ b: 3 }, 'child'));
    expect(originOf(merged, ['a'])?.origin.what).toBe('base');
    expect(originOf(merged, ['b'])?.origin.what).toBe('child');
    expect(originOf(merged, ['b', 'deeper'])?.origin.what).toBe('child');
    expect(originOf(merged, ['zzz'])).toBeUndefined();
  });
});

describe('fromLeaves', () => {
  it('rebuilds the spec with keys sorted at every level', () => {
    const spec = fromLeaves(L({ z: { b: 1, a: { d: 1, c: 2 } }, y: 0 }));
    expect(JSON.stringify(spec)).toBe('{"y":0,"z":{"a":{"c":2,"d":1},"b":1}}');
  });
  it('orders every object as a full sort does, for keys that prefix each other, digits, control characters and objects in arrays', () => {
    // fromLeaves inserts keys in the order of the joined leaf keys instead of sorting each object:
    // held to the deep sort on random specs built from keys chosen to break that shortcut.
    const KEYS = ['a', 'ab', 'a-b', 'a.b', 'A', 'b', '0', '1', '10', '2', '', 'a\u0000', 'a\u0001b', '\u0001', 'é', 'z~'];
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor(seed / 65536) % n;
    };
    const value = (depth: number): JsonObject[string] => {
      const r = rand(depth > 3 ? 3 : 6);
      if (r === 0) return rand(100);
      if (r === 1) return KEYS[rand(KEYS.length)]!;
      if (r === 2) return {};
      if (r === 3) return [object(depth + 1), rand(9)] as JsonObject[string];
      return object(depth + 1);
    };
    const object = (depth: number): JsonObject => {
      const o: JsonObject = {};
      for (let i = rand(5); i > 0; i--) o[KEYS[rand(KEYS.length)]!] = value(depth);
      return o;
    };
    // The definition: the tree of the leaves built in any order, then every object sorted.
    const sortedTree = (leaves: Leaves): JsonObject => {
      const root: JsonObject = {};
      for (const l of [...leaves.values()].reverse()) {
        let node = root;
        for (const seg of l.path.slice(0, -1)) node = (node[seg] ??= {}) as JsonObject;
        node[l.path[l.path.length - 1]!] = l.value;
      }
      return sortKeysDeep(root) as JsonObject;
    };
    for (let i = 0; i < 400; i++) {
      const leaves = L(object(0));
      expect(JSON.stringify(fromLeaves(leaves))).toBe(JSON.stringify(sortedTree(leaves)));
    }
  });
});

describe('naming', () => {
  it('expands placeholders, and refuses unknown ones and ones without a value', () => {
    expect(expandPattern('{family}{version}.{size}', { family: 'u', version: '1', size: 'large' })).toEqual({ ok: true, text: 'u1.large' });
    expect(expandPattern('{family}.{colour}', { family: 'u' })).toEqual({ ok: false, error: 'unknown placeholder `{colour}`; known: {family}' });
    expect(expandPattern('{family}{version}', { family: 'u', version: undefined })).toEqual({ ok: false, error: 'placeholder `{version}` has no value here' });
  });
  it('checks generated names are Kubernetes object names (IT2011 at the pattern)', () => {
    const out: Diagnostic[] = [];
    const at = { file: 'c.yaml', line: 3, col: 5 };
    expect(checkName('u1.large', out, at, '{family}')).toBe(true);
    expect(checkName('U1_Large', out, at, '{family}')).toBe(false);
    expect(checkName('a'.repeat(254), out, at, '{family}')).toBe(false);
    expect(out.map((d) => [d.code, d.location])).toEqual([
      ['IT2011', at],
      ['IT2011', at],
    ]);
  });
});

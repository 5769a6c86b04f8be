/**
 * src/load/json-items.ts: the items of a large JSON cluster dump read chunk by chunk, against
 * JSON.parse of the whole, with chunks as small as one byte (an item, a string or an escape cut
 * anywhere), and the errors it places.
 */
import fc from 'fast-check';
import { slimPod, streamJsonItems, type ItemsError } from '../src/load/json-items';

function stream(text: string, chunk: number): { items: unknown[]; error?: ItemsError } {
  const bytes = Buffer.from(text, 'utf8');
  const items: unknown[] = [];
  const error = streamJsonItems(
    (into, offset) => bytes.copy(into, 0, offset, Math.min(bytes.length, offset + into.length)),
    (i) => items.push(i),
    chunk,
  );
  return error ? { items, error } : { items };
}

describe('reading a JSON dump item by item', () => {
  const pods = [
    {
      kind: 'Pod',
      metadata: { name: 'a "quoted" {name}', annotations: { x: 'a ] b } c \\ d' } },
      spec: { nodeName: 'n1', containers: [{ name: 'c', resources: {} }] },
    },
    { kind: 'Pod', metadata: { name: 'é ü 日本' }, spec: { containers: [] }, status: { phase: 'Running' } },
  ];
  it.each([1, 2, 3, 7, 64, 1 << 20])('reads a List, items between other keys, in chunks of %d bytes', (chunk) => {
    const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items: pods, trailing: { items: [1] } }, null, 2);
    expect(stream(text, chunk)).toEqual({ items: pods });
    expect(stream(JSON.stringify(pods), chunk)).toEqual({ items: pods });
  });
  it('gives what JSON.parse gives, for any list of objects', () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 6 }), fc.integer({ min: 1, max: 40 }), (objects, chunk) => {
        expect(stream(JSON.stringify({ kind: 'List', items: objects }), chunk).items).toEqual(JSON.parse(JSON.stringify(objects)));
      }),
      { numRuns: 200 },
    );
  });
  it('says what is wrong, and where', () => {
    expect(stream('"a string"', 4).error?.message).toBe('a cluster dump is a JSON object (a List) or array');
    expect(stream('{"items": [{"a": 1}', 4).error?.message).toBe('the JSON ends before its last bracket closes');
    expect(stream('{"items": [{"a": 1,}]}', 4).error?.offset).toBe(19); // the item's closing brace, where its parse fails
    expect(stream('   ', 4).error?.message).toBe('an empty cluster dump');
  });
  it('keeps of a pod what placing and quotas read', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'n', labels: { a: 'b' }, managedFields: [{ big: 'x'.repeat(1000) }] },
      spec: {
        nodeName: 'n1',
        containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '1' } }, env: [{ name: 'X', value: 'y' }] }],
        volumes: [{ name: 'v' }],
      },
      status: { phase: 'Running', conditions: [{ type: 'Ready' }] },
    };
    expect(slimPod(pod)).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'n' },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '1' } } }] },
      status: { phase: 'Running' },
    });
  });
});

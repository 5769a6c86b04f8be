/**
 * The fast YAML writer must be byte-identical to the `yaml` library (the definition of the output
 * format) whenever it answers, and must answer for the manifests itgen emits.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { globSync } from 'glob';
import { parse, parseAllDocuments } from 'yaml';
import { toYaml } from '../src/emit/serialize';
import { writeYamlMapping } from '../src/emit/yaml-writer';
import { REPO } from './helpers';

const tricky = [
  'y',
  'Y',
  'n',
  'N',
  'yes',
  'Yes',
  'NO',
  'on',
  'On',
  'OFF',
  'off',
  'e1000',
  'e1000e',
  '1e3',
  '1:20',
  '190:20:30',
  '0b101',
  '010',
  '1_000',
  '2001-12-14',
  '2001-12-14t21:59:43.10-05:00',
  '<<',
  '=',
  '',
  ' ',
  'a',
  'true',
  'True',
  'FALSE',
  'null',
  '~',
  'yes',
  'no',
  'on',
  '1',
  '-1',
  '+1',
  '0.5',
  '.5',
  '1e3',
  '0x1F',
  '0o17',
  '.inf',
  '-.Inf',
  '.nan',
  '1Gi',
  '1.5Gi',
  '2xlarge',
  'a: b',
  'a:b',
  'http://x/y',
  'a #b',
  'a#b',
  '#a',
  '- a',
  '-a',
  'a-',
  '@a',
  '`a',
  '!a',
  '&a',
  '*a',
  '|',
  '>',
  '%a',
  '{a}',
  '[a]',
  "'a'",
  '"a"',
  'a b',
  'a  b',
  ' a',
  'a ',
  'a\tb',
  'line1\nline2',
  'line1\nline2\n',
  'line1\nline2\n\n',
  '\nlead',
  'a\n\nb',
  'a \nb',
  ' a\nb',
  'a\n b',
  'ä',
  'a\u0085b',
  'a,b',
  'a(b)',
  'a=b',
  'a/b.c',
];

const key = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('a', 'name', 'guest', 'vm.kubevirt.io/os', 'instancetype.kubevirt.io/cpu', 'x-y_z') },
  { weight: 1, arbitrary: fc.constantFrom('true', '1', 'a b', 'a:b', '-x', 'x-') },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const scalar = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...tricky) },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .:/-]{0,10}$/) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, scalar, tie('map'), tie('list')),
  map: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  list: fc.array(tie('value'), { maxLength: 3 }),
}));

describe('fast YAML writer', () => {
  it('equals the yaml library whenever it answers', () => {
    let answered = 0;
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 5 }), (obj) => {
        const fast = writeYamlMapping(obj);
        if (fast !== undefined) {
          answered++;
          expect(fast).toBe(toYaml(obj));
        }
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 3000) },
    );
    // The property says something only if the fast path is taken often enough.
    expect(answered).toBeGreaterThan(300);
  });

  it('equals the library on tricky scalars, as values and in lists', () => {
    for (const s of tricky) {
      for (const obj of [{ k: s }, { k: [s, { a: s }] }, { k: { n: s } }]) {
        const fast = writeYamlMapping(obj);
        if (fast !== undefined) expect(fast).toBe(toYaml(obj));
      }
    }
  });

  it('answers for every document itgen emits', () => {
    const files = globSync('output/**/*.yaml', { cwd: REPO, posix: true });
    expect(files.length).toBeGreaterThan(0);
    let count = 0;
    for (const f of files) {
      for (const d of parseAllDocuments(readFileSync(`${REPO}/${f}`, 'utf8'))) {
        const v = d.toJS() as Record<string, unknown>;
        expect(writeYamlMapping(v)).toBe(toYaml(v));
        count++;
      }
    }
    expect(count).toBeGreaterThan(100);
  });
});

describe('YAML 1.1 readers (go-yaml, as Kubernetes tooling uses it)', () => {
  it('read every emitted string back as that string', () => {
    for (const s of ['y', 'n', 'yes', 'No', 'on', 'OFF', 'e1000', '1:20', '0b101', '010', '1_000', '2001-12-14', '8', 'true', '~', 'plain']) {
      const obj = { metadata: { labels: { k: s } }, list: [s] };
      const text = writeYamlMapping(obj) ?? toYaml(obj);
      expect(parse(text, { version: '1.1' })).toEqual(obj);
      expect(parse(text)).toEqual(obj);
    }
  });
});

/**
 * `itgen template process -p` reads its values as `virtctl template process -p` does (pflag's
 * StringToString over Go's encoding/csv): 600 seeded command lines, each held to the answer of
 * KubeVirt's own command (test/fixtures/template-param-flags/, itgen-oracle at d923fdb815).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { paramFlags } from '../src/kubevirt/template/param-flag';
import { itgen } from './e2e-helpers';
import { removeDir, scratchProject } from './helpers';
import { WINDOWS_11_TEMPLATE } from './vm-samples';

const DIR = path.join(__dirname, 'fixtures', 'template-param-flags');
const lines = (f: string): Record<string, unknown>[] =>
  readFileSync(path.join(DIR, f), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('-p as virtctl reads it', () => {
  const cases = lines('cases.jsonl') as { id: string; args: string[] }[];
  const answers = new Map((lines('answers.jsonl') as { id: string; params?: Record<string, string>; error?: string }[]).map((a) => [a.id, a]));

  it('answers every case of the corpus as KubeVirt does (the values, or pflag and encoding/csv words)', () => {
    expect(cases.length).toBe(600);
    const differ: string[] = [];
    let sound = 0;
    for (const c of cases) {
      const values = c.args.filter((_, i) => i % 2 === 1);
      const got = paramFlags(values);
      const mine = 'error' in got ? { error: got.error } : { params: Object.fromEntries([...got.params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
      const theirs = answers.get(c.id)!;
      const expected = theirs.error !== undefined ? { error: theirs.error } : { params: theirs.params ?? {} };
      if ('params' in expected) sound++;
      if (JSON.stringify(mine) !== JSON.stringify(expected)) differ.push(`${c.id}: ${JSON.stringify(mine)} != ${JSON.stringify(expected)}`);
    }
    expect(differ).toEqual([]);
    expect(sound).toBeGreaterThan(200);
  });

  it('the documented quoting: a whole pair in quotes holds a comma; a quote inside a value is refused', () => {
    expect(paramFlags(['NAME=db,"MESSAGE=a,b"'])).toEqual({
      params: new Map([
        ['NAME', 'db'],
        ['MESSAGE', 'a,b'],
      ]),
    });
    expect(paramFlags(['MESSAGE=a,b'])).toEqual({ params: new Map([['MESSAGE', 'a,b']]) });
    // A long value is read, not spread into a call's arguments.
    const long = paramFlags([`A=${'x'.repeat(500_000)},"B=${'y'.repeat(500_000)}"`]);
    expect('params' in long && [long.params.get('A')!.length, long.params.get('B')!.length]).toEqual([500_000, 500_000]);
    expect(paramFlags(['NAME=db,MESSAGE="a,b"'])).toEqual({
      error: 'invalid argument "NAME=db,MESSAGE=\\"a,b\\"" for "-p, --param" flag: parse error on line 1, column 17: bare " in non-quoted-field',
    });
  });

  it('on the command line: `-p A=1,B=2` is two parameters; -p with --params-file is refused in cobra words', () => {
    const dir = scratchProject({ 'tpl.yaml': WINDOWS_11_TEMPLATE, 'p.yaml': 'NAME: x\n' });
    try {
      const declared = [...WINDOWS_11_TEMPLATE.matchAll(/- name: (\w+)/g)].map((m) => m[1]!);
      expect(declared.length).toBeGreaterThan(1);
      const [a, b] = declared;
      const two = itgen(dir, 'template', 'process', 'tpl.yaml', '-p', `${a}=one,${b}=two`, '-o', 'json');
      expect(two.stderr).not.toMatch(/ error /);
      const both = itgen(dir, 'template', 'process', 'tpl.yaml', '-p', `${a}=x`, '--params-file', 'p.yaml');
      expect(both.code).toBe(1);
      expect(both.stderr).toContain(
        'error IT8401 if any flags in the group [param params-file] are set none of the others can be; [param params-file] were all set',
      );
      const bad = itgen(dir, 'template', 'process', 'tpl.yaml', '-p', 'A=1,b"c=2');
      expect(bad.stderr).toContain(
        'error IT8401 invalid argument "A=1,b\\"c=2" for "-p, --param" flag: parse error on line 1, column 6: bare " in non-quoted-field',
      );
    } finally {
      removeDir(dir);
    }
  });
});

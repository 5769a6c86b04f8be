/**
 * Hostile and broken input through the CLI entry point (in process, so that a crash would fail the
 * test rather than become an exit code): each case gets its diagnostic and exit 1, never a stack
 * trace, a hang, or a file written anywhere; `generate` leaves the previous output as it was.
 * Also: exit codes 0/1/2, `--strict`, and the json and github formats.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exitCodeFor } from '../src/cli/command';
import { closest } from '../src/diagnostics';
import { writeProblem } from '../src/emit/write';
import { run } from '../src/cli/main';
import { RULES, type Rule } from '../src/validate';
import { readDirTree, removeDir, scratchProject } from './helpers';

const BASE = `kind: Catalog
name: t
---
kind: SizeLadder
name: sizes
sizes:
  - {name: small, cpu: 1}
  - {name: large, cpu: 2}
---
kind: Family
name: c
version: 1
displayName: Compute
description: Compute for {{name}}
class: compute
memoryPerCPU: 2Gi
---
kind: Preference
name: mylinux
displayName: My Linux
spec:
  devices:
    preferredDiskBus: virtio
`;
const GENERATOR = 'catalog: ../catalog\noutput: ../out\nvendor: kubevirt.io\nscopes: [cluster]\n';

interface Outcome {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

function itgen(cwd: string, ...argv: string[]): Outcome {
  let out = '';
  let err = '';
  const code = run(argv, { out: (s) => (out += `${s}\n`), err: (s) => (err += `${s}\n`), cwd, color: false });
  return { code, out, err };
}

function project(extra: Record<string, string | Buffer> = {}, generator = GENERATOR): string {
  const dir = scratchProject({ 'generators/t.yaml': generator, 'catalog/base.yaml': BASE });
  for (const [p, content] of Object.entries(extra)) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), content);
  }
  return dir;
}

/** Every file under `dir`, relative, sorted: to prove nothing was written. */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string): void => {
    for (const name of readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${name.name}` : name.name;
      if (name.isDirectory()) walk(path.join(d, name.name), r);
      else out.push(r);
    }
  };
  walk(dir, '');
  return out.sort();
}

const ALIAS_BOMB = `kind: PreferenceFragment
name: bomb
spec:
  annotations:
    a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]
    b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
    c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
    d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
    e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
    f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
    g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]
    h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]
    i: [*h, *h, *h, *h, *h, *h, *h, *h, *h, *h]
`;

const pref = (name: string, extra = ''): string => `kind: Preference\nname: ${name}\ndisplayName: ${name.replace(/[^a-z]/gi, 'x')}\n${extra}`;
const family = (extra: string): string => BASE.split('---\n')[2]!.replace('name: c\n', 'name: k\n') + extra;

const HOSTILE: readonly (readonly [string, Record<string, string | Buffer>, string])[] = [
  ['broken YAML', { 'catalog/bad.yaml': 'kind: Preference\nname: [unclosed\n' }, 'IT1002'],
  ['a YAML alias bomb', { 'catalog/bomb.yaml': ALIAS_BOMB }, 'IT1007'],
  ['duplicate keys', { 'catalog/dup.yaml': 'kind: Preference\nname: a\nname: b\ndisplayName: A\n' }, 'IT1003'],
  ['a document that is not a mapping', { 'catalog/list.yaml': '- kind: Preference\n- name: a\n' }, 'IT1004'],
  ['a scalar document', { 'catalog/scalar.yaml': '42\n' }, 'IT1004'],
  ['an empty file', { 'catalog/empty.yaml': '' }, 'IT1005'],
  ['a file of comments only', { 'catalog/comments.yaml': '# todo\n' }, 'IT1005'],
  ['a binary file', { 'catalog/blob.yaml': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0xff, 0xfe]) }, 'IT1006'],
  ['invalid UTF-8', { 'catalog/latin1.yaml': Buffer.from([0x6b, 0x69, 0x6e, 0x64, 0x3a, 0x20, 0xe9, 0x0a]) }, 'IT1006'],
  ['a file over the size limit', { 'catalog/huge.yaml': Buffer.alloc(8 * 1024 * 1024 + 1, 0x20) }, 'IT1001'],
  ['a name with /', { 'catalog/p.yaml': pref('vendor/linux') }, 'IT1206'],
  ['a name with ..', { 'catalog/p.yaml': pref('../../etc') }, 'IT1206'],
  ['an uppercase name', { 'catalog/p.yaml': pref('Fedora') }, 'IT1206'],
  ['a name pattern reaching out', { 'catalog/f.yaml': family('naming: "../{family}{version}.{size}"\n') }, 'IT2011'],
  ['a huge number', { 'catalog/l.yaml': 'kind: SizeLadder\nname: big\nsizes:\n  - {name: huge, cpu: 1e400}\n' }, 'IT1203'],
  ['a number beyond uint32', { 'catalog/l.yaml': 'kind: SizeLadder\nname: big\nsizes:\n  - {name: huge, cpu: 99999999999999999999}\n' }, 'IT1203'],
  ['a negative vCPU count', { 'catalog/l.yaml': 'kind: SizeLadder\nname: neg\nsizes:\n  - {name: neg, cpu: -2}\n' }, 'IT1203'],
  ['kind: constructor', { 'catalog/k.yaml': 'kind: constructor\nname: x\n' }, 'IT1201'],
  ['kind: __proto__', { 'catalog/k.yaml': 'kind: __proto__\nname: x\n' }, 'IT1201'],
  ['a __proto__ key', { 'catalog/p.yaml': pref('proto', '__proto__:\n  polluted: true\n') }, 'IT1202'],
  ['a nesting bomb', { 'catalog/deep.yaml': `kind: Preference\nname: deep\nspec:\n  annotations:\n    a: ${'['.repeat(5000)}${']'.repeat(5000)}\n` }, 'IT1002'],
  ['{{constructor}} in a description', { 'catalog/f.yaml': family('').replace('Compute for {{name}}', '"{{constructor}}"') }, 'IT2009'],
  ['{{__proto__}} in a display name', { 'catalog/f.yaml': family('').replace('displayName: Compute', 'displayName: "{{__proto__}}"') }, 'IT2009'],
  ['{{lookup this "x"}}', { 'catalog/f.yaml': family('').replace('Compute for {{name}}', '"{{lookup this \'constructor\'}}"') }, 'IT2009'],
  ['a {{#with}} trick', { 'catalog/f.yaml': family('').replace('Compute for {{name}}', '"{{#with name}}{{constructor.constructor}}{{/with}}"') }, 'IT2009'],
  ['a {{#each}} over the context', { 'catalog/f.yaml': family('').replace('Compute for {{name}}', '"{{#each this}}{{@key}}{{/each}}"') }, 'IT2009'],
  ['a partial', { 'catalog/f.yaml': family('').replace('Compute for {{name}}', '"{{> secrets}}"') }, 'IT2009'],
];

/** The top kustomization of a base itgen wrote before (what proves the base is itgen's). */
const PREVIOUS_KUSTOMIZATION = '---\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - VirtualMachinePreferences\n';

describe('hostile and broken input', () => {
  it.each(HOSTILE.map(([what, files, code]) => [what, code, files] as const))('%s: %s, exit 1, nothing written', (_what, code, files) => {
    const dir = project(files);
    try {
      // The previous output of a good run must survive a failing generate untouched.
      mkdirSync(path.join(dir, 'out', 'VirtualMachinePreferences'), { recursive: true });
      writeFileSync(path.join(dir, 'out', 'kustomization.yaml'), PREVIOUS_KUSTOMIZATION);
      writeFileSync(path.join(dir, 'out', 'VirtualMachinePreferences', 'virtualmachinepreferences.yaml'), 'kept: true\n');
      const before = listing(dir);
      const started = Date.now();
      const v = itgen(dir, 'validate');
      const g = itgen(dir, 'generate');
      expect(Date.now() - started).toBeLessThan(20000);
      for (const r of [v, g]) {
        expect(r.code).toBe(1);
        expect(r.err).toContain(` ${code} `);
        expect(r.err).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/); // no stack trace
        expect(r.err).not.toContain('internal error');
      }
      expect(g.err).toContain('nothing written');
      expect(listing(dir)).toEqual(before);
      expect(readDirTree(path.join(dir, 'out'))).toEqual([
        { path: 'VirtualMachinePreferences/virtualmachinepreferences.yaml', content: 'kept: true\n' },
        { path: 'kustomization.yaml', content: PREVIOUS_KUSTOMIZATION },
      ]);
      // Nothing reached a prototype.
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    } finally {
      removeDir(dir);
    }
  });

  it('a catalog file linking outside the catalog is not read', () => {
    const dir = project();
    try {
      writeFileSync(path.join(dir, 'secret.yaml'), 'kind: Preference\nname: secret\ndisplayName: Secret\n');
      symlinkSync('../secret.yaml', path.join(dir, 'catalog', 'link.yaml'));
      const r = itgen(dir, 'validate');
      expect(r.code).toBe(1);
      expect(r.err).toContain('catalog/link.yaml:1:1 error IT1001 file is a symbolic link to `../secret.yaml`, outside the catalog directory');
    } finally {
      removeDir(dir);
    }
  });

  it('an output directory outside the project is refused and nothing is created there', () => {
    const escape = `itgen-escape-${process.pid}-${Date.now()}`;
    const dir = project({}, GENERATOR.replace('output: ../out', `output: ../../${escape}`));
    try {
      const r = itgen(dir, 'generate');
      expect(r.code).toBe(1);
      expect(r.err).toContain('IT1009');
      expect(existsSync(path.join(os.tmpdir(), escape))).toBe(false);
      expect(existsSync(path.join(dir, '..', escape))).toBe(false);
    } finally {
      removeDir(dir);
    }
  });

  it('an output directory that would replace the catalog is refused', () => {
    const dir = project({}, GENERATOR.replace('output: ../out', 'output: ../catalog'));
    try {
      const before = listing(dir);
      const r = itgen(dir, 'generate');
      expect(r.code).toBe(1);
      expect(r.err).toContain('IT1009');
      expect(listing(dir)).toEqual(before);
    } finally {
      removeDir(dir);
    }
  });

  it('reports every problem of a run, not only the first', () => {
    // All at once, each in its own file, with its own names so that they do not collide.
    const files = HOSTILE.filter(([, , code]) => code !== 'IT1001').flatMap(([, f], i) =>
      Object.entries(f).map(
        ([p, c]) => [p.replace('.yaml', `-${i}.yaml`), typeof c === 'string' ? c.replace(/^name: (k|big|neg)$/m, `name: $1${i}`) : c] as const,
      ),
    );
    const dir = project(Object.fromEntries(files));
    try {
      const r = itgen(dir, 'validate', '--format', 'json');
      expect(r.code).toBe(1);
      const codes = new Set((JSON.parse(r.out) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code));
      for (const [, , code] of HOSTILE.filter(([, , c]) => c !== 'IT1001')) expect(codes).toContain(code);
    } finally {
      removeDir(dir);
    }
  });
});

describe('exit codes, --strict and formats', () => {
  it('exits 0 for a clean catalog and writes the base', () => {
    const dir = project();
    try {
      expect(itgen(dir, 'validate')).toEqual({ code: 0, out: '', err: '' });
      expect(itgen(dir, 'generate').code).toBe(0);
      expect(existsSync(path.join(dir, 'out', 'kustomization.yaml'))).toBe(true);
    } finally {
      removeDir(dir);
    }
  });

  it('exits 0 with warnings, and 1 with --strict, which writes nothing', () => {
    const dir = project({}, GENERATOR.replace('vendor: kubevirt.io', 'vendor: example.com'));
    try {
      const plain = itgen(dir, 'validate');
      expect(plain.code).toBe(0);
      expect(plain.err).toContain('warning IT5007');
      const strict = itgen(dir, 'generate', '--strict');
      expect(strict.code).toBe(1);
      expect(strict.err).toContain('error IT5007');
      expect(strict.err).toContain('(--strict)');
      expect(existsSync(path.join(dir, 'out'))).toBe(false);
    } finally {
      removeDir(dir);
    }
  });

  it('exits 2 when a rule fails inside itgen (IT9001)', () => {
    const dir = project();
    const boom: Rule = {
      name: 'boom',
      description: 'throws, standing in for a bug in itgen',
      check: () => {
        throw new Error('kaput');
      },
    };
    (RULES as Rule[]).push(boom);
    try {
      const r = itgen(dir, 'generate');
      expect(r.code).toBe(2);
      expect(r.err).toContain('error IT9001 rule `boom` failed: kaput');
      expect(existsSync(path.join(dir, 'out'))).toBe(false);
    } finally {
      (RULES as Rule[]).pop();
      removeDir(dir);
    }
  });

  it('names a file that stands where a directory of the output must be, at the generator line', () => {
    const dir = project({}, GENERATOR.replace('output: ../out', 'output: ../blocker/out'));
    try {
      writeFileSync(path.join(dir, 'blocker'), 'a file where a directory must be\n');
      const r = itgen(dir, 'generate');
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/^generators\/t\.yaml:\d+:\d+ error IT1009 output `\.\.\/blocker\/out` cannot be created: `blocker` is a file, not a directory/m);
      expect(readFileSync(path.join(dir, 'blocker'), 'utf8')).toBe('a file where a directory must be\n');
    } finally {
      removeDir(dir);
    }
  });

  it('reports a write the system refuses as IT9002 (exit 2), in words, without paths or raw codes', () => {
    const refused = Object.assign(new Error("EROFS: read-only file system, mkdir '/tmp/x/.out.itgen-new-1'"), { code: 'EROFS' });
    const d = writeProblem('out', refused);
    expect(d).toMatchObject({ code: 'IT9002', message: 'cannot write out: the file system is read-only' });
    expect(exitCodeFor([d])).toBe(2);
    const layout = writeProblem('out', Object.assign(new Error("ENOTDIR: not a directory, mkdir '/tmp/x/out'"), { code: 'ENOTDIR' }));
    expect(layout).toMatchObject({ code: 'IT1010', message: 'cannot write out: a parent of it is a file, not a directory' });
    expect(exitCodeFor([layout])).toBe(1);
  });

  it('prints compiler-style text with the source line and a caret', () => {
    const dir = project({ 'catalog/p.yaml': pref('mylinux2', 'spec:\n  devices:\n    preferredDiskBus: virtoi\n') });
    try {
      const r = itgen(dir, 'validate');
      expect(r.err).toBe(
        [
          'catalog/p.yaml:6:23 error IT1203 `spec.devices.preferredDiskBus`: "virtoi" is not one of `virtio`, `sata`, `scsi`, `usb`',
          '   6 |     preferredDiskBus: virtoi',
          '     |                       ^^^^^^',
          '  hint: did you mean `virtio`?',
          '1 error, 0 warnings',
          '',
        ].join('\n'),
      );
    } finally {
      removeDir(dir);
    }
  });

  it('--format json gives every diagnostic with code, severity, location and hint', () => {
    const dir = project({ 'catalog/p.yaml': pref('mylinux2', 'spec:\n  devices:\n    preferredDiskBus: virtoi\n'), 'catalog/q.yaml': pref('Upper') });
    try {
      const r = itgen(dir, 'validate', '--format', 'json');
      expect(r.code).toBe(1);
      const parsed = JSON.parse(r.out) as {
        diagnostics: { code: string; severity: string; message: string; location: { file: string; line: number; col: number }; hint?: string }[];
      };
      expect(parsed.diagnostics.map((d) => [d.code, d.severity, d.location.file, d.location.line, d.location.col])).toEqual([
        ['IT1203', 'error', 'catalog/p.yaml', 6, 23],
        ['IT1206', 'error', 'catalog/q.yaml', 2, 7],
      ]);
      expect(parsed.diagnostics[0]!.hint).toBe('did you mean `virtio`?');
      expect(r.err).toBe('');
    } finally {
      removeDir(dir);
    }
  });

  it('--format github emits one workflow annotation per diagnostic', () => {
    const dir = project(
      { 'catalog/p.yaml': pref('mylinux2', 'spec:\n  devices:\n    preferredDiskBus: virtoi\n') },
      GENERATOR.replace('vendor: kubevirt.io', 'vendor: example.com'),
    );
    try {
      const r = itgen(dir, 'validate', '--format', 'github');
      expect(r.code).toBe(1);
      const lines = r.out.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(
        /^::error file=catalog\/p\.yaml,line=6,col=23,endLine=6,title=IT1203::`spec\.devices\.preferredDiskBus`: "virtoi" is not one of .*%0Adid you mean `virtio`\?$/,
      );
      expect(lines[1]).toMatch(/^::warning file=generators\/t\.yaml,line=3,col=9,.*title=IT5007::vendor `example\.com`/);
    } finally {
      removeDir(dir);
    }
  });
});

describe('did you mean', () => {
  it('takes the name that differs only by its separators before one an edit away (rhel9: rhel.9, not the abstract rhel)', () => {
    expect(closest('rhel9', ['rhel', 'rhel.9'])).toBe('rhel.9');
    expect(closest('rhel9', new Set(['rhel.9', 'rhel']).values())).toBe('rhel.9');
    expect(closest('centos-stream9', ['centos.stream9', 'centos.stream10'])).toBe('centos.stream9');
    expect(closest('fedoar', ['fedora', 'rhel'])).toBe('fedora');
  });
});

/**
 * Hostile repositories: what a pull request can put in a project must never make
 * itgen print what lies outside the project, hang, crash, or touch output/. Each case runs the CLI
 * in-process on a scratch project, first generated cleanly so that "output/ unchanged" means
 * something, and checks the exit code, the place reported, and that no outside text appears.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from '../src/cli/main';
import { withOutputLock } from '../src/emit/write';
import { printable } from '../src/format';
import { readDirTree, removeDir, scratchProject, TINY_CATALOG } from './helpers';

const CATALOG = TINY_CATALOG;
const GENERATOR = 'catalog: ../catalog\noutput: ../output/t\nvendor: example.com\n';

/** A secret outside the project: none of it may ever be printed. */
const SECRET = 'kind: Catalog\nname: hunter2-SECRET-TOKEN\npassword: hunter2-SECRET-TOKEN\n';

interface Outcome {
  readonly code: number;
  readonly text: string;
}

function itgen(cwd: string, ...argv: string[]): Outcome {
  let text = '';
  const code = run(argv, { out: (s) => (text += `${s}\n`), err: (s) => (text += `${s}\n`), cwd, color: false });
  return { code, text };
}

let outside: string;
beforeAll(() => {
  outside = mkdtempSync(path.join(os.tmpdir(), 'itgen-outside-'));
  writeFileSync(path.join(outside, 'secret.yaml'), SECRET);
});
afterAll(() => rmSync(outside, { recursive: true, force: true }));

/** A project generated once; `mutate` then breaks it, and output/ must stay exactly as generated. */
function withProject(mutate: (dir: string) => void, check: (dir: string) => void, files: Record<string, string> = {}): void {
  const dir = scratchProject({ 'generators/t.yaml': GENERATOR, 'catalog/catalog.yaml': CATALOG, ...files });
  try {
    expect(itgen(dir, 'generate').code).toBe(0);
    mutate(dir);
    // What the checked command must leave as it was (a release in `mutate` adds CHANGELOG.md).
    const before = readDirTree(path.join(dir, 'output', 't'));
    check(dir);
    expect(readDirTree(path.join(dir, 'output', 't'))).toEqual(before);
  } finally {
    removeDir(dir);
  }
}

describe('never print what lies outside the project', () => {
  it.each([
    ['a catalog file', 'catalog/stolen.yaml'],
    ['a generator file', 'generators/stolen.yaml'],
    ['a release lock', 'generators/t.lock.yaml'],
  ])('%s that links to a file outside is refused, named, and not quoted', (_what, link) => {
    withProject(
      (dir) => symlinkSync(path.join(outside, 'secret.yaml'), path.join(dir, link)),
      (dir) => {
        for (const command of ['validate', 'generate']) {
          for (const format of ['text', 'json', 'github']) {
            const r = itgen(dir, command, '--format', format);
            expect(r.code).toBe(1);
            expect(r.text).toContain(link);
            expect(r.text).toMatch(/symbolic link to a file outside the project|outside the catalog directory/);
            expect(r.text).not.toContain('hunter2');
            expect(r.text).not.toContain(outside);
          }
        }
      },
    );
  });

  it('a catalog directory that links outside is refused at the generator line, its files never listed', () => {
    withProject(
      (dir) => {
        writeFileSync(path.join(dir, 'generators/t.yaml'), 'catalog: ../linked\noutput: ../output/t\nvendor: example.com\n');
        symlinkSync(outside, path.join(dir, 'linked'));
      },
      (dir) => {
        const r = itgen(dir, 'validate');
        expect(r.code).toBe(1);
        expect(r.text).toMatch(/^generators\/t\.yaml:1:10 error IT1009 catalog `\.\.\/linked` is outside the project directory/m);
        expect(r.text).not.toContain('secret.yaml');
        expect(r.text).not.toContain('hunter2');
      },
    );
  });
});

describe('control characters never reach the terminal', () => {
  const ESC = '\u001b';
  it.each(['text', 'json', 'github'])('an unknown key written with terminal escapes is escaped in %s output', (format) => {
    withProject(
      (dir) => writeFileSync(path.join(dir, 'catalog/bad.yaml'), `kind: Preference\nname: evil\ndisplayName: Evil\n"x${ESC}]0;pwned${ESC}\\\\${ESC}[2J": 1\n`),
      (dir) => {
        const r = itgen(dir, 'validate', '--format', format);
        expect(r.code).toBe(1);
        expect(r.text).not.toContain(ESC);
        expect(r.text).toContain(format === 'json' ? '\\\\u001b' : '\\u001b');
      },
    );
  });

  it('a file name with control characters is escaped', () => {
    withProject(
      (dir) => writeFileSync(path.join(dir, `catalog/a${ESC}[31mred\u202e.yaml`), 'kind: Nope\n'),
      (dir) => {
        const r = itgen(dir, 'validate');
        expect(r.code).toBe(1);
        expect(r.text).toContain('catalog/a\\u001b[31mred\\u202e.yaml:1:7 error IT1201');
        expect(r.text).not.toContain(ESC);
      },
    );
  });

  it('printable() escapes C0, DEL, C1 and bidirectional overrides, keeps text and newlines', () => {
    expect(printable('a\u0000b\u0007c\u007fd\u009be\u202ef\u2066g\th\ni')).toBe('a\\u0000b\\u0007c\\u007fd\\u009be\\u202ef\\u2066g\th\ni');
    expect(printable('dir/a\tb\nc.yaml', true)).toBe('dir/a\\u0009b\\u000ac.yaml');
    expect(printable('Größe – 日本')).toBe('Größe – 日本');
  });

  it('a NUL byte in a generator path is an input error at its line, not a crash', () => {
    withProject(
      (dir) => writeFileSync(path.join(dir, 'generators/t.yaml'), 'catalog: "../cata\\0log"\noutput: ../output/t\nvendor: example.com\n'),
      (dir) => {
        const r = itgen(dir, 'generate');
        expect(r.code).toBe(1);
        expect(r.text).toMatch(/^generators\/t\.yaml:1:10 error IT1203 .*control characters/m);
      },
    );
  });
});

describe('say where the catalog went missing', () => {
  it.each([
    [
      'missing',
      (dir: string): void => rmSync(path.join(dir, 'catalog'), { recursive: true }),
      /^generators\/t\.yaml:1:10 error IT1008 catalog directory `\.\.\/catalog` does not exist/m,
    ],
    [
      'a file',
      (dir: string): void => {
        rmSync(path.join(dir, 'catalog'), { recursive: true });
        writeFileSync(path.join(dir, 'catalog'), 'not a directory\n');
      },
      /^generators\/t\.yaml:1:10 error IT1008 catalog `\.\.\/catalog` is a file, not a directory/m,
    ],
    [
      'without a Catalog document',
      (dir: string): void => writeFileSync(path.join(dir, 'catalog/catalog.yaml'), CATALOG.replace('kind: Catalog\nname: t\n---\n', '')),
      /^generators\/t\.yaml:1:10 error IT2008 the catalog has no `kind: Catalog` document/m,
    ],
  ])('a catalog that is %s is reported at the generator line that names it', (_what, mutate, expected) => {
    withProject(mutate, (dir) => {
      const r = itgen(dir, 'generate');
      expect(r.code).toBe(1);
      expect(r.text).toMatch(expected);
    });
  });
});

describe('never hang on a leftover output lock', () => {
  const LOCK = 'output/.t.itgen-lock';

  it('a lock that is a directory stops the run at once, naming the file to remove (exit 1)', () => {
    withProject(
      (dir) => {
        mkdirSync(path.join(dir, LOCK));
        // A base that is up to date is not rewritten (no lock taken): change the catalog.
        writeFileSync(path.join(dir, 'catalog/catalog.yaml'), CATALOG.replace(/displayName: .*/, 'displayName: Changed'));
      },
      (dir) => {
        const r = itgen(dir, 'generate');
        expect(r.code).toBe(1);
        expect(r.text).toContain(
          'error IT1010 cannot write output/t: the lock output/.t.itgen-lock is a directory, not a lock itgen wrote; remove it and run again',
        );
      },
    );
  });

  it('a lock that is a dangling symbolic link stops the run at once (exit 1)', () => {
    withProject(
      (dir) => {
        symlinkSync(path.join(dir, 'nowhere'), path.join(dir, LOCK));
        writeFileSync(path.join(dir, 'catalog/catalog.yaml'), CATALOG.replace(/displayName: .*/, 'displayName: Changed'));
      },
      (dir) => {
        const r = itgen(dir, 'generate');
        expect(r.code).toBe(1);
        expect(r.text).toContain('the lock output/.t.itgen-lock is a symbolic link');
      },
    );
  });

  it.each([
    ['a live pid whose process started later (PID 1 in a container)', () => `itgen-lock v1 pid=1 start=1 host=${os.hostname()}\n`],
    ['a dead pid', () => `itgen-lock v1 pid=${2 ** 22 + 7} start=5 host=${os.hostname()}\n`],
  ])('a lock naming %s is taken over without waiting', (_what, content) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-lock-'));
    try {
      writeFileSync(path.join(dir, '.out.itgen-lock'), content());
      const started = Date.now();
      expect(withOutputLock(path.join(dir, 'out'), () => 'ran', 20_000)).toBe('ran');
      // Bounded, not timed: taking over must not have waited for the 20 s deadline.
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a lock in an unknown format (a bare pid, as older itgen wrote) is taken over once it is a few seconds old', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-lock-'));
    try {
      const lock = path.join(dir, '.out.itgen-lock');
      writeFileSync(lock, '1');
      const old = new Date(Date.now() - 60_000);
      utimesSync(lock, old, old);
      expect(withOutputLock(path.join(dir, 'out'), () => 'ran', 20_000)).toBe('ran');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a lock held by this live process makes a second writer give up after the bounded wait, naming the lock', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-lock-'));
    try {
      const inner = (): unknown => withOutputLock(path.join(dir, 'out'), () => 'never', 200);
      expect(() => withOutputLock(path.join(dir, 'out'), inner, 200)).toThrow(/another itgen is writing out \(lock .*\.out\.itgen-lock: itgen-lock v1 pid=\d+/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('say where, once', () => {
  const invalid = Buffer.concat([Buffer.from('kind: Preference\nname: w\ndisplayName: "caf'), Buffer.from([0xe9]), Buffer.from('"\n')]);
  it.each([
    [
      'a number with a leading zero',
      'catalog/p.yaml',
      'kind: Preference\nname: x\ndisplayName: X\nspec:\n  requirements:\n    cpu:\n      guest: 010\n',
      /^catalog\/p\.yaml:7:14 error IT1203 `010` is a number with a leading zero, read differently by YAML 1\.1 \(kubectl, Argo CD\) and 1\.2 readers \(10 for YAML 1\.2, 8 for YAML 1\.1\)/m,
    ],
    [
      'an unknown tag',
      'catalog/p.yaml',
      'kind: Preference\nname: y\ndisplayName: !custom Y\n',
      /^catalog\/p\.yaml:3:\d+ error IT1002 tag `!custom` is not supported/m,
    ],
    [
      'an undefined alias',
      'catalog/p.yaml',
      'kind: Preference\nname: z\ndisplayName: Z\nspec:\n  devices: *nope\n',
      /^catalog\/p\.yaml:5:12 error IT1002 Unresolved alias/m,
    ],
    [
      'memory without a unit',
      'catalog/f.yaml',
      'kind: Family\nname: m\nversion: 1\ndisplayName: M\ndescription: M\nclass: memory\nmemoryPerCPU: 4\n',
      /^catalog\/f\.yaml:7:15 error IT1205 instance types `m1\.large`, `m1\.small` `spec\.memory\.guest`: less than 1Mi; no guest boots in that\n(.*\n){2} {2}hint: a quantity without a unit is bytes; did you mean `4Gi`\?/m,
    ],
  ])('%s is reported where it stands, once', (_what, file, content, expected) => {
    withProject(
      (dir) => writeFileSync(path.join(dir, file), content),
      (dir) => {
        const r = itgen(dir, 'generate');
        expect(r.code).toBe(1);
        expect(r.text).toMatch(expected);
        expect(r.text).toMatch(/^1 error, \d+ warnings?$/m);
      },
    );
  });

  it('an invalid UTF-8 byte is reported at its line and column', () => {
    withProject(
      (dir) => writeFileSync(path.join(dir, 'catalog/p.yaml'), invalid),
      (dir) => {
        const r = itgen(dir, 'validate');
        expect(r.code).toBe(1);
        expect(r.text).toContain('catalog/p.yaml:3:18 error IT1006 file is not valid UTF-8 (byte 0xe9 here)');
      },
    );
  });

  it('an include pattern that matches nothing is an error, not an empty base (exit 1, output/ unchanged)', () => {
    withProject(
      (dir) => writeFileSync(path.join(dir, 'generators/t.yaml'), `${GENERATOR}include: {families: [cc]}\n`),
      (dir) => {
        const r = itgen(dir, 'generate');
        expect(r.code).toBe(1);
        expect(r.text).toMatch(/^generators\/t\.yaml:4:\d+ error IT7201 include\.families: `cc` matches nothing in catalog `t`/m);
        expect(r.text).toMatch(/^1 error, /m);
      },
    );
  });

  it.each([
    ['without', false],
    ['with', true],
  ])('a key typo gives one report %s a release lock', (_w, locked) => {
    withProject(
      (dir) => {
        if (locked) expect(itgen(dir, 'release', '--version', 'v1.0.0').code).toBe(0);
        writeFileSync(path.join(dir, 'catalog/catalog.yaml'), CATALOG.replace('memoryPerCPU: 2Gi', 'memoryPerCPu: 2Gi'));
      },
      (dir) => {
        const r = itgen(dir, 'validate');
        expect(r.code).toBe(1);
        expect(r.text).toMatch(/^catalog\/catalog\.yaml:\d+:1 error IT120[24] /m);
        expect(r.text).toMatch(/^1 error, \d+ warnings?$/m);
        expect(r.text).not.toContain('IT7102');
      },
    );
  });
});

describe('a changed published spec points at the change', () => {
  it('IT7101 stands at the line that changed the spec (a size override), with a version bump hint', () => {
    withProject(
      (dir) => {
        expect(itgen(dir, 'release', '--version', 'v1.0.0').code).toBe(0);
        writeFileSync(
          path.join(dir, 'catalog/catalog.yaml'),
          CATALOG.replace('memoryPerCPU: 2Gi\n', 'memoryPerCPU: 2Gi\noverrides:\n  small: {memory: 3Gi}\n'),
        );
      },
      (dir) => {
        const r = itgen(dir, 'validate');
        expect(r.code).toBe(1);
        expect(r.text).toMatch(
          /^catalog\/catalog\.yaml:18:19 error IT7101 2 objects published in v1\.0\.0 changed their spec: `c1\.small` \(VirtualMachineClusterInstancetype, VirtualMachineInstancetype\)/m,
        );
        expect(r.text).toContain('bump the family version (c1 -> c2)');
      },
    );
  });

  it('for names without a version the hint says how to add one', () => {
    const unversioned = CATALOG.replace('kind: Catalog\nname: t\n', 'kind: Catalog\nname: t\nnaming:\n  instancetype: "{family}.{size}"\n').replace(
      'version: 1\n',
      '',
    );
    const dir = scratchProject({ 'generators/t.yaml': GENERATOR, 'catalog/catalog.yaml': unversioned });
    try {
      expect(itgen(dir, 'generate').code).toBe(0);
      expect(itgen(dir, 'release', '--version', 'v1.0.0').code).toBe(0);
      writeFileSync(path.join(dir, 'catalog/catalog.yaml'), unversioned.replace('memoryPerCPU: 2Gi', 'memoryPerCPU: 4Gi'));
      const r = itgen(dir, 'validate');
      expect(r.code).toBe(1);
      expect(r.text).toContain('give the new one `version: 2` and `naming: "{family}{version}.{size}"`');
    } finally {
      removeDir(dir);
    }
  });
});

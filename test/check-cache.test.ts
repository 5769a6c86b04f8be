/**
 * The checks kept between runs (src/load/check-cache.ts) over the log of their reads
 * (src/load/reads.ts): a read replayed gives the same outcome until what it read changes; what
 * cannot be replayed taints the log; a kept answer is taken only when every read agrees, and is then
 * the answer an uncached run gives, for every change to a project (the sweep); the bundled CLI keeps
 * and takes it; and the checks read no clock, randomness or environment (the modules that may are
 * listed here, each with why it cannot feed them).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keepCachesIn } from '../src/load/judged-cache';
import { keptResult, lastKeptResult } from '../src/load/check-cache';
import * as reads from '../src/load/reads';
import { readBounded } from '../src/load/limits';
import { writeTree } from '../src/emit/write';
import { DEFAULT_GENERATOR, REPO, removeDir, scratchProject, TINY_CATALOG } from './helpers';
import { sweepProject } from './check-cache-sweep';

const BIN = path.join(REPO, 'bin', 'itgen');

/** Every kind of read, of a small tree. */
function readAll(dir: string): void {
  reads.statSync(path.join(dir, 'a.yaml'));
  reads.lstatSync(path.join(dir, 'link'));
  reads.existsSync(path.join(dir, 'absent'));
  reads.readdirSync(dir);
  reads.readdirEntries(path.join(dir, 'sub'));
  reads.realpathSync(path.join(dir, 'link'));
  reads.readlinkSync(path.join(dir, 'link'));
  reads.readFileSync(path.join(dir, 'a.yaml'));
  try {
    reads.statSync(path.join(dir, 'absent'));
  } catch {
    /* recorded as an error */
  }
  const fd = reads.openSync(path.join(dir, 'sub', 'b.yaml'));
  try {
    reads.fstatSync(fd);
    const buf = Buffer.alloc(4);
    reads.readSync(fd, buf, 0, 4, null);
    reads.readSync(fd, buf, 0, 4, null);
    reads.readSync(fd, buf, 0, 2, 1);
  } finally {
    reads.closeSync(fd);
  }
}

describe('reads recorded and replayed', () => {
  let dir: string;
  beforeEach(() => {
    dir = scratchProject({ 'a.yaml': 'a: 1\n', 'sub/b.yaml': 'b: 12345678\n', 'other/c.yaml': 'c: 1\n' });
    symlinkSync('a.yaml', path.join(dir, 'link'));
  });
  afterEach(() => removeDir(dir));

  it('every kind of read replays with the same outcomes on the same tree', () => {
    const { log } = reads.recordingReads(() => readAll(dir));
    expect(log.tainted).toBeUndefined();
    expect(log.entries.map((e) => e[0])).toEqual([
      'stat',
      'lstat',
      'exists',
      'readdir',
      'entries',
      'realpath',
      'readlink',
      'readFile',
      'stat',
      'open',
      'fstat',
      'read',
      'read',
      'read',
    ]);
    expect(reads.replayReads(log.entries)).toBe(true);
  });

  it('any change to what was read is seen, and nothing else is', () => {
    const { log } = reads.recordingReads(() => readAll(dir));
    const changes: [string, () => void, () => void][] = [
      ['a file rewritten with the same size', () => writeFileSync(path.join(dir, 'a.yaml'), 'a: 2\n'), () => writeFileSync(path.join(dir, 'a.yaml'), 'a: 1\n')],
      [
        'a file read by descriptor changed where it was read',
        () => writeFileSync(path.join(dir, 'sub', 'b.yaml'), 'b: 22345678\n'),
        () => writeFileSync(path.join(dir, 'sub', 'b.yaml'), 'b: 12345678\n'),
      ],
      ['a file added to a listed directory', () => writeFileSync(path.join(dir, 'sub', 'c.yaml'), ''), () => rmSync(path.join(dir, 'sub', 'c.yaml'))],
      ['an absent file made', () => writeFileSync(path.join(dir, 'absent'), ''), () => rmSync(path.join(dir, 'absent'))],
      [
        'a link pointed elsewhere',
        () => {
          rmSync(path.join(dir, 'link'));
          symlinkSync('sub', path.join(dir, 'link'));
        },
        () => {
          rmSync(path.join(dir, 'link'));
          symlinkSync('a.yaml', path.join(dir, 'link'));
        },
      ],
    ];
    for (const [what, change, undo] of changes) {
      change();
      expect([what, reads.replayReads(log.entries)]).toEqual([what, false]);
      undo();
      expect([what, reads.replayReads(log.entries)]).toEqual([what, true]);
    }
    // What was not read does not matter: a file of a directory never listed, changed or added, and
    // the bytes of a file past those read (the size is the same).
    writeFileSync(path.join(dir, 'sub', 'b.yaml'), 'b: 12345679\n');
    writeFileSync(path.join(dir, 'other', 'c.yaml'), 'c: 2\n');
    mkdirSync(path.join(dir, 'other', 'deeper'));
    expect(reads.replayReads(log.entries)).toBe(true);
  });

  it('a read that repeats an earlier one is kept once; reads of a descriptor all stay', () => {
    const { log } = reads.recordingReads(() => {
      readAll(dir);
      readAll(dir);
    });
    const once = reads.withoutRepeats(log.entries);
    expect(once.filter((e) => !['open', 'fstat', 'read'].includes(e[0]))).toHaveLength(9);
    expect(once.filter((e) => ['open', 'fstat', 'read'].includes(e[0]))).toHaveLength(10);
    expect(reads.replayReads(once)).toBe(true);
    writeFileSync(path.join(dir, 'a.yaml'), 'a: 2\n');
    expect(reads.replayReads(once)).toBe(false);
  });

  it('a log of something else replays as different, never as the same', () => {
    expect(reads.replayReads([['unknown', ['/'], 'x']])).toBe(false);
    expect(reads.replayReads([['read', [0, 4, null], '0:']])).toBe(false);
    expect(reads.replayReads([['read', [0, 1e12, null], '0:']])).toBe(false);
  });

  it('what cannot be replayed taints the log: a descriptor it did not open, standard input, a write', () => {
    const fd = reads.openSync(path.join(dir, 'a.yaml'));
    try {
      expect(reads.recordingReads(() => readBounded(fd)).log.tainted).toBe('a read of a descriptor not opened by the recorded work');
    } finally {
      reads.closeSync(fd);
    }
    expect(reads.recordingReads(() => writeTree(path.join(dir, 'out'), [{ path: 'x.yaml', content: 'x' }])).log.tainted).toBe('a write');
  });
});

describe('a result kept with the log of its reads', () => {
  let dir: string;
  let cache: string;
  beforeEach(() => {
    dir = scratchProject({ 'in.txt': 'one' });
    cache = mkdtempSync(path.join(os.tmpdir(), 'itgen-kept-'));
    keepCachesIn({ dir: cache, build: 'test' });
  });
  afterEach(() => {
    keepCachesIn(undefined);
    removeDir(dir);
    removeDir(cache);
  });
  const how = (key = 'k') => ({
    name: 'test',
    root: dir,
    key: [key],
    parse: (v: unknown) => (typeof v === 'string' ? v : undefined),
    weight: (v: string) => v.length,
  });

  it('is taken while its reads agree, and the work is done again once one does not', () => {
    let runs = 0;
    const work = (): string => {
      runs++;
      return reads.readFileSync(path.join(dir, 'in.txt')).toString('utf8');
    };
    expect(keptResult(how(), work)).toBe('one');
    expect(lastKeptResult()).toBe('kept');
    expect(keptResult(how(), work)).toBe('one');
    expect(lastKeptResult()).toBe('taken');
    expect(runs).toBe(1);
    writeFileSync(path.join(dir, 'in.txt'), 'two');
    expect(keptResult(how(), work)).toBe('two');
    expect(runs).toBe(2);
    // Another key is another result.
    expect(keptResult(how('other'), work)).toBe('two');
    expect(runs).toBe(3);
  });

  it('a file that is not a result, is another key’s, or has a value of the wrong shape reads as no cache', () => {
    let runs = 0;
    const work = (): string => {
      runs++;
      return reads.readFileSync(path.join(dir, 'in.txt')).toString('utf8');
    };
    keptResult(how(), work);
    const [file] = readdirSync(cache);
    const kept = JSON.parse(readFileSync(path.join(cache, file!), 'utf8')) as { key: string; reads: unknown[]; value: unknown };
    const variants = [
      '{not json',
      JSON.stringify({ ...kept, key: 'another' }),
      JSON.stringify({ ...kept, value: 42 }),
      JSON.stringify({ ...kept, reads: [['readFile', [{}], 'x']] }),
      JSON.stringify({ ...kept, reads: 'none' }),
    ];
    for (const v of variants) {
      writeFileSync(path.join(cache, file!), v);
      const before = runs;
      expect(keptResult(how(), work)).toBe('one');
      expect(runs).toBe(before + 1);
    }
  });

  it('a result past the bound is not kept, and beyond 64 kept results the oldest go', () => {
    const big = 'x'.repeat(5 * 1024 * 1024);
    let runs = 0;
    expect(keptResult(how('big'), () => (runs++, big))).toBe(big);
    expect(lastKeptResult()).toBe('not kept');
    // A note says so, and the next run does the work without recording it.
    expect(keptResult(how('big'), () => (runs++, big))).toBe(big);
    expect(lastKeptResult()).toBe('unrecorded');
    expect(runs).toBe(2);
    for (const f of readdirSync(cache)) rmSync(path.join(cache, f));
    for (let i = 0; i < 70; i++) {
      const f = path.join(cache, `test-old${i}.json`);
      writeFileSync(f, '{}');
      utimesSync(f, new Date(2020, 0, 1 + i), new Date(2020, 0, 1 + i));
    }
    writeFileSync(path.join(cache, 'judged-other.json'), '{}');
    keptResult(how(), () => 'small');
    expect(lastKeptResult()).toBe('kept');
    const left = readdirSync(cache);
    expect(left.filter((f) => f.startsWith('test-'))).toHaveLength(64);
    // The newest stay, the one just kept among them; other caches' files are not touched.
    expect(left).not.toContain('test-old0.json');
    expect(left).toContain('test-old69.json');
    expect(left).toContain('judged-other.json');
  });

  it('a tainted result is not kept', () => {
    const work = (): string => {
      writeTree(path.join(dir, 'out'), [{ path: 'x.yaml', content: 'x' }]);
      return 'x';
    };
    keptResult(how(), work);
    expect(lastKeptResult()).toBe('not kept');
    expect(readdirSync(cache)).toEqual([]);
  });
});

describe('the checks kept between runs', () => {
  it('on the repository’s own project (both catalogs, their committed bases, the GitOps examples), every change gives the answer an uncached run gives', () => {
    const dir = scratchProject({});
    try {
      for (const p of ['generators', 'catalogs', 'output', 'examples', 'kustomization.yaml'])
        cpSync(path.join(REPO, p), path.join(dir, p), { recursive: true });
      const count = sweepProject(dir, ['generators/default.yaml']);
      expect(count.wrong).toEqual([]);
      // Most changes touch something the checks read; a few (the other generator's catalog, README files) do not.
      expect(count.changes).toBeGreaterThan(60);
      expect(count.taken).toBeGreaterThan(0);
      expect(count.taken).toBeLessThan(count.changes);
    } finally {
      removeDir(dir);
    }
  });

  it('the bundled CLI keeps them, takes them on the next run, and redoes them when the catalog changes', () => {
    const dir = scratchProject({ 'generators/t.yaml': DEFAULT_GENERATOR, 'catalog/catalog.yaml': TINY_CATALOG });
    const cache = mkdtempSync(path.join(os.tmpdir(), 'itgen-cli-cache-'));
    const run = (args: string[], env: Record<string, string> = {}) => {
      const r = spawnSync(BIN, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: cache, ...env } });
      return { code: r.status, out: r.stdout, err: r.stderr };
    };
    try {
      const first = run(['generate']);
      expect(first.code).toBe(0);
      expect(readdirSync(path.join(cache, 'itgen')).filter((f) => f.startsWith('checks-'))).toHaveLength(1);
      const tree = readFileSync(path.join(dir, 'output', 'README.md'), 'utf8');
      rmSync(path.join(dir, 'output'), { recursive: true });
      expect(run(['generate'])).toEqual(first);
      expect(readFileSync(path.join(dir, 'output', 'README.md'), 'utf8')).toBe(tree);
      expect(run(['validate'])).toEqual(run(['validate'], { ITGEN_NO_CACHE: '1' }));
      // The catalog changed: the kept answer is not taken.
      writeFileSync(path.join(dir, 'catalog', 'catalog.yaml'), TINY_CATALOG.replace('memoryPerCPU: 2Gi', 'memoryPerCPU: 4Gi'));
      expect(run(['generate'])).toEqual(first);
      expect(readFileSync(path.join(dir, 'output', 'README.md'), 'utf8')).not.toBe(tree);
      expect(run(['validate'])).toEqual(run(['validate'], { ITGEN_NO_CACHE: '1' }));
    } finally {
      removeDir(dir);
      removeDir(cache);
    }
  });
});

/**
 * What the checks may not read: a clock, randomness, the environment, the host, the process. Each module of src/
 * that does is listed with why that cannot feed the checks (a write taints a recording; a cache is no
 * input of what it caches; the rest never runs inside them).
 */
const NONDETERMINISTIC: Record<string, string> = {
  'src/emit/write.ts': 'names scratch directories by process and time; its writers taint a recording',
  'src/emit/output-lock.ts': 'a lock’s age and holder; taken only to write, which taints',
  'src/load/judged-cache.ts': 'where the cache lives; its answers are keyed by what decides them',
  'src/load/check-cache.ts': 'where the cache lives, and whether it is on',
  'src/snapshot.ts': 'the snapshot build’s scratch directory and switch',
  'src/cli/main.ts': 'colour and the debug switch, read to render what the library answered',
  'src/workflows/mcp.ts': 'the MCP server’s transport (standard input), which no check reads',
  'src/scaffold/index.ts': 'text of the CI scripts `init` writes',
  'src/scaffold/gitlab-note.ts': 'text of the CI script `init` writes',
};

describe('the checks are deterministic', () => {
  it('no module of src/ reads a clock, randomness, the environment or the host, but those listed', () => {
    const found = new Set<string>();
    const walk = (d: string): void => {
      for (const e of readdirSync(path.join(REPO, d), { withFileTypes: true })) {
        const rel = `${d}/${e.name}`;
        if (e.isDirectory()) walk(rel);
        else if (
          rel.endsWith('.ts') &&
          /Date\.now|new Date\(|Math\.random|process\.(?:env|hrtime|pid|platform|arch|cwd|stdin|argv|execPath|version)\b|performance\.now|from 'node:os'|hostname\(\)|randomBytes|randomUUID/.test(
            readFileSync(path.join(REPO, rel), 'utf8'),
          )
        )
          found.add(rel);
      }
    };
    walk('src');
    expect([...found].sort()).toEqual(Object.keys(NONDETERMINISTIC).sort());
  });
});

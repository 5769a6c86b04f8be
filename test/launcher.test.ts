/**
 * bin/itgen starts the CLI from a V8 startup snapshot when `npm ci` built one. It must behave
 * exactly like the compiled JavaScript: same output, same exit codes, same files.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readDirTree, REPO, removeDir, scratchProject } from './helpers';
import { itgen } from './e2e-helpers';

const BIN = path.join(REPO, 'bin', 'itgen');
const MAIN = path.join(REPO, 'dist', 'cli', 'main.js');
const BLOB = path.join(REPO, 'dist', `itgen-${process.version}.blob`);
const SKIPPED = path.join(REPO, 'dist', `itgen-${process.version}.snapshot-skipped`);

function viaLauncherAt(bin: string, cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): { code: number | null; out: string; err: string } {
  const r = spawnSync(bin, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function viaLauncher(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): { code: number | null; out: string; err: string } {
  return viaLauncherAt(BIN, cwd, args, env);
}

/**
 * The reference: the CLI's source run in this process (what dist/cli/main.js compiles from),
 * so each case starts one process, the launcher, instead of two.
 */
function viaNode(cwd: string, args: string[]): { code: number | null; out: string; err: string } {
  const r = itgen(cwd, ...args);
  return { code: r.code, out: r.stdout, err: r.stderr };
}

/** The compiled JavaScript itself, started by node: for the one case that compares the two processes. */
function viaMain(cwd: string, args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [MAIN, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('bin/itgen', () => {
  it('has a startup snapshot for this node (built by npm ci through prepare), or a note saying why not', () => {
    // Node 20, 22 and 24 build one; where node's --build-snapshot fails, the build says why and the
    // launcher runs the compiled JavaScript. The build also refuses a snapshot whose warm-up loaded
    // zod or Handlebars (src/snapshot.ts): a sound catalog needs neither, and Handlebars made
    // Node 22's snapshot builder abort.
    if (!existsSync(BLOB)) expect(readFileSync(SKIPPED, 'utf8').trim()).not.toBe('');
    if (/^(20|22|24)\./.test(process.versions.node)) expect(existsSync(BLOB)).toBe(true);
  });

  const fixtures = path.join(REPO, 'test', 'fixtures');
  const cases: [string, string, string[]][] = [
    ['help', REPO, ['help']],
    ['schema', REPO, ['schema']],
    ['validate, clean', path.join(fixtures, 'minimal'), ['validate']],
    ['validate, errors as text', path.join(fixtures, 'diag-IT2001-unknown-base'), ['validate']],
    ['validate, errors as json', path.join(fixtures, 'diag-IT2004-same-level-conflict'), ['validate', '--format', 'json']],
    ["validate, zod's own messages (English, as the snapshot keeps only that locale)", path.join(fixtures, 'diag-IT1203-invalid-value'), ['validate']],
    ['validate, github annotations', path.join(fixtures, 'diag-IT1202-misspelt-key'), ['validate', '--format', 'github']],
    ['explain', REPO, ['-g', 'generators/default.yaml', 'explain', 'os.windows.11', '--kind', 'VirtualMachineClusterPreference']],
    ['check', REPO, ['check']],
    ['bad option', REPO, ['validate', '--nope']],
    // Options go to itgen, never to node, wherever they stand.
    ['options before the command', path.join(fixtures, 'minimal'), ['--format', 'json', 'validate']],
    ['-C before the command', '/', ['-C', REPO, '-g', 'generators/default.yaml', 'validate']],
    ['a node option', REPO, ['--version']],
    ['-v', REPO, ['-v']],
  ];

  it.each(cases)('%s: same output and exit code as node dist/cli/main.js', (_name, cwd, args) => {
    if (!existsSync(cwd)) throw new Error(`missing fixture ${cwd}`);
    expect(viaLauncher(cwd, args)).toEqual(viaNode(cwd, args));
  });

  it('generate writes the same tree', () => {
    const a = scratchProject({});
    const b = scratchProject({});
    for (const d of [a, b]) cpSync(path.join(fixtures, 'minimal'), d, { recursive: true });
    expect(viaLauncher(a, ['generate']).code).toBe(0);
    expect(viaNode(b, ['generate']).code).toBe(0);
    expect(readDirTree(path.join(a, 'out'))).toEqual(readDirTree(path.join(b, 'out')));
    removeDir(a);
    removeDir(b);
  });

  it('falls back to the compiled JavaScript with ITGEN_NO_SNAPSHOT', () => {
    const minimal = path.join(fixtures, 'minimal');
    expect(viaLauncher(minimal, ['validate'], { ITGEN_NO_SNAPSHOT: '1' })).toEqual(viaMain(minimal, ['validate']));
  });

  it('is also JavaScript: `node bin/itgen` runs the CLI', () => {
    const r = spawnSync(process.execPath, [BIN, 'validate'], { cwd: path.join(fixtures, 'minimal'), encoding: 'utf8' });
    expect({ code: r.status, out: r.stdout, err: r.stderr }).toEqual(viaNode(path.join(fixtures, 'minimal'), ['validate']));
  });

  describe('the shortcut to the blob (dist/itgen-node.stamp)', () => {
    // An install of its own: the launcher, the bundle, and a node on PATH that logs how it is started.
    let dir: string;
    let log: string;
    let env: NodeJS.ProcessEnv;
    const haveBlob = existsSync(BLOB);
    beforeAll(() => {
      dir = scratchProject({});
      mkdirSync(path.join(dir, 'bin'));
      mkdirSync(path.join(dir, 'dist'));
      mkdirSync(path.join(dir, 'fakebin'));
      cpSync(BIN, path.join(dir, 'bin', 'itgen'));
      cpSync(path.join(REPO, 'dist', 'itgen.cjs'), path.join(dir, 'dist', 'itgen.cjs'));
      if (haveBlob) cpSync(BLOB, path.join(dir, 'dist', 'fast.blob'));
      log = path.join(dir, 'node.log');
      writeFileSync(path.join(dir, 'fakebin', 'node'), `#!/bin/sh\necho "$1" >> '${log}'\nexec '${process.execPath}' "$@"\n`, { mode: 0o755 });
      env = { PATH: `${path.join(dir, 'fakebin')}:${process.env['PATH'] ?? ''}` };
    });
    afterAll(() => removeDir(dir));
    const stamp = (blob: string): void => {
      const file = path.join(dir, 'dist', 'itgen-node.stamp');
      writeFileSync(file, `${blob}\n`);
      // The time of the node on PATH, to the nanosecond, as tools/build-snapshot.mjs stamps it.
      spawnSync('touch', ['-r', path.join(dir, 'fakebin', 'node'), file]);
    };
    const minimal = (): string => path.join(fixtures, 'minimal');

    (haveBlob ? it : it.skip)('starts the stamped blob without asking node its version', () => {
      stamp('fast.blob');
      rmSync(log, { force: true });
      expect(viaLauncherAt(path.join(dir, 'bin', 'itgen'), minimal(), ['validate'], env)).toEqual(viaNode(minimal(), ['validate']));
      expect(readFileSync(log, 'utf8')).toBe('--snapshot-blob\n');
    });

    it('replaces itself with node, so a signal meant for itgen reaches the process at work', () => {
      // `validate -` waits for standard input: the process started is node itself, not a shell over it.
      stamp('fast.blob');
      const child = spawn(path.join(dir, 'bin', 'itgen'), ['validate', '-'], {
        cwd: minimal(),
        env: { ...process.env, ...env },
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      const pid = child.pid!;
      const deadline = Date.now() + 10_000;
      let exe = '';
      // The exec happens within the shell's first line; wait for it, bounded.
      while (Date.now() < deadline && !/node/.test(exe)) {
        try {
          exe = readlinkSync(`/proc/${pid}/exe`);
        } catch {
          break;
        }
        if (!/node/.test(exe)) spawnSync('sleep', ['0.05']);
      }
      expect(exe).toBe(realpathSync(process.execPath));
      child.kill('SIGKILL');
      // Nothing of it goes on: no process has it for parent.
      const children = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).stdout.trim();
      expect(children).toBe('');
    });

    it('a blob node refuses (exit 14) is said by node, and ITGEN_NO_SNAPSHOT starts without it', () => {
      // A snapshot node refuses, as it refuses one of another node version: a small one of this
      // node, its header's node version changed in the last digit.
      const other = path.join(dir, 'dist', 'other.blob');
      writeFileSync(path.join(dir, 'tiny.cjs'), "require('v8').startupSnapshot.setDeserializeMainFunction(() => {});\n");
      spawnSync(process.execPath, ['--snapshot-blob', other, '--build-snapshot', path.join(dir, 'tiny.cjs')]);
      const blob = readFileSync(other);
      const version = Buffer.from(process.version.slice(1));
      const at = blob.indexOf(version) + version.length - 1;
      expect(at).toBeGreaterThan(0);
      blob[at] = blob[at] === 0x30 ? 0x31 : 0x30;
      writeFileSync(other, blob);
      stamp('other.blob');
      const r = viaLauncherAt(path.join(dir, 'bin', 'itgen'), minimal(), ['validate'], env);
      expect(r.code).toBe(14);
      expect(r.err).toContain('Failed to load the startup snapshot');
      const without = viaLauncherAt(path.join(dir, 'bin', 'itgen'), minimal(), ['validate'], { ...env, ITGEN_NO_SNAPSHOT: '1' });
      const expected = viaNode(minimal(), ['validate']);
      expect({ code: without.code, out: without.out }).toEqual({ code: expected.code, out: expected.out });
    });

    it('asks node its version when the node on PATH is not the stamped one', () => {
      stamp('fast.blob');
      writeFileSync(path.join(dir, 'dist', 'itgen-node.stamp'), 'fast.blob\n'); // now newer than the node
      rmSync(log, { force: true });
      expect(viaLauncherAt(path.join(dir, 'bin', 'itgen'), minimal(), ['validate'], env).out).toBe(viaNode(minimal(), ['validate']).out);
      expect(readFileSync(log, 'utf8')).toMatch(/^--version\n/);
    });
  });

  it('works through a symlink, as npm installs it in node_modules/.bin', () => {
    const dir = scratchProject({});
    const link = path.join(dir, 'itgen');
    symlinkSync(BIN, link);
    expect(viaLauncherAt(link, REPO, ['help'])).toEqual(viaNode(REPO, ['help']));
    removeDir(dir);
  });
});

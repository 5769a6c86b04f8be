/**
 * itgen replaces its output directory wholesale, so it must refuse any output it does not own:
 * the generators, the catalog, .git, the project itself, a folder of someone else's files, a path
 * through a symlink out of the project, or another generator's output.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { readTree, recoverInterruptedWrite, writeTree } from '../src/emit/write';
import { readDirTree, REPO, removeDir, scratchProject } from './helpers';
import { itgen as itgenInProcess } from './e2e-helpers';

const CLI = path.join(REPO, 'dist', 'cli', 'main.js');

/** In this process: what is written is the subject here, not the process (six concurrent runs below are real processes). */
function itgen(cwd: string, ...args: string[]): { code: number | null; err: string } {
  const r = itgenInProcess(cwd, ...args);
  return { code: r.code, err: r.stderr };
}

function project(output: string): string {
  const dir = scratchProject({});
  cpSync(path.join(REPO, 'test', 'fixtures', 'minimal'), dir, { recursive: true });
  removeDir(path.join(dir, 'expected'));
  const gen = path.join(dir, 'generators', 'minimal.yaml');
  writeFileSync(gen, readFileSync(gen, 'utf8').replace('output: ../out', `output: ${output}`));
  writeFileSync(path.join(dir, 'generators', 'notes.txt'), 'mine\n');
  return dir;
}

describe('output directory ownership', () => {
  it.each([
    ['.', /overlaps the generators directory/],
    ['../catalog', /overlaps the catalog/],
    ['../catalog/sub', /overlaps the catalog/],
    ['..', /outside the project/],
    ['../.git', /overlaps the Git repository/],
    ['../../elsewhere', /outside the project/],
  ])('refuses output %s and deletes nothing', (output, message) => {
    const dir = project(output);
    mkdirSync(path.join(dir, '.git'));
    const before = readDirTree(dir);
    const r = itgen(dir, 'generate');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(message);
    expect(r.err).toMatch(/IT1009/);
    expect(readDirTree(dir)).toEqual(before);
    removeDir(dir);
  });

  it('refuses a directory of files itgen did not write, and leaves them alone', () => {
    const dir = project('../out');
    mkdirSync(path.join(dir, 'out'));
    writeFileSync(path.join(dir, 'out', 'precious.txt'), 'keep me\n');
    const r = itgen(dir, 'generate');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/output `..\/out` is not a base itgen wrote: generating would replace `precious.txt`/);
    expect(readFileSync(path.join(dir, 'out', 'precious.txt'), 'utf8')).toBe('keep me\n');
    removeDir(dir);
  });

  // A platform team's hand-written kustomize directory: a kustomization.yaml proves nothing.
  const HAND_WRITTEN: Record<string, string> = {
    'kustomization.yaml':
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - namespace.yaml\n  - kubevirt-servicemonitor.yaml\n',
    'namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: monitoring}\n',
    'kubevirt-servicemonitor.yaml': 'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: kubevirt}\n',
  };

  it.each(['validate', 'generate'])('%s refuses a hand-written kustomize directory as output, names its files, and deletes nothing', (command) => {
    const dir = project('../apps/monitoring');
    mkdirSync(path.join(dir, 'apps', 'monitoring'), { recursive: true });
    for (const [f, text] of Object.entries(HAND_WRITTEN)) writeFileSync(path.join(dir, 'apps', 'monitoring', f), text);
    const before = readDirTree(dir);
    const r = itgen(dir, command);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      'generators/minimal.yaml:2:9 error IT1009 output `../apps/monitoring` is not a base itgen wrote: generating would replace `kubevirt-servicemonitor.yaml`, `kustomization.yaml`, `namespace.yaml`',
    );
    expect(readDirTree(dir)).toEqual(before);
    removeDir(dir);
  });

  it('refuses, through project discovery, to replace the kustomize directory the user stands in', () => {
    const dir = project('../sub');
    mkdirSync(path.join(dir, 'sub'));
    writeFileSync(
      path.join(dir, 'sub', 'kustomization.yaml'),
      '---\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - app.yaml\n',
    );
    writeFileSync(path.join(dir, 'sub', 'app.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\n');
    writeFileSync(path.join(dir, 'sub', 'notes.txt'), 'mine\n');
    const before = readDirTree(dir);
    const r = itgen(path.join(dir, 'sub'), 'generate');
    expect(r.code).toBe(1);
    expect(r.err).toContain('is not a base itgen wrote: generating would replace `app.yaml`, `kustomization.yaml`, `notes.txt`');
    expect(readDirTree(dir)).toEqual(before);
    removeDir(dir);
  });

  it('a base itgen wrote with a file added, or its kustomization edited, is not replaced; a hand edit of one of its own files is', () => {
    const dir = project('../out');
    expect(itgen(dir, 'generate').code).toBe(0);
    writeFileSync(path.join(dir, 'out', 'VirtualMachinePreferences', 'extra.yaml'), 'kind: ConfigMap\n');
    mkdirSync(path.join(dir, 'out', 'patches'));
    const refused = itgen(dir, 'generate');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('generating would replace `VirtualMachinePreferences/extra.yaml`, `patches/`');
    removeDir(path.join(dir, 'out', 'VirtualMachinePreferences', 'extra.yaml'));
    removeDir(path.join(dir, 'out', 'patches'));
    // README.md says "do not edit": inside a proved base, an edit is drift that generate restores.
    const readme = readFileSync(path.join(dir, 'out', 'README.md'), 'utf8');
    writeFileSync(path.join(dir, 'out', 'README.md'), '# Our notes on instance types\n');
    expect(itgen(dir, 'generate').code).toBe(0);
    expect(readFileSync(path.join(dir, 'out', 'README.md'), 'utf8')).toBe(readme);
    // The top kustomization is the proof: edited, nothing is proved.
    const k = path.join(dir, 'out', 'kustomization.yaml');
    writeFileSync(k, readFileSync(k, 'utf8') + '  - ../namespace.yaml\n');
    const edited = itgen(dir, 'generate');
    expect(edited.err).toContain('generating would replace `README.md`, `VirtualMachineClusterInstancetypes/`');
    expect(edited.err).toContain('`kustomization.yaml`');
    removeDir(dir);
  });

  it('names at most eight files, escaped', () => {
    const dir = project('../out');
    mkdirSync(path.join(dir, 'out'));
    for (let i = 0; i < 12; i++) writeFileSync(path.join(dir, 'out', `f${i}\u001b[2J.yaml`), 'x\n');
    const r = itgen(dir, 'generate');
    expect(r.code).toBe(1);
    expect(r.err).toContain('`f0\\u001b[2J.yaml`');
    expect(r.err).toContain('and 4 more');
    expect(r.err).not.toContain('\u001b');
    removeDir(dir);
  });

  it('replaces a base it wrote before', () => {
    const dir = project('../out');
    expect(itgen(dir, 'generate').code).toBe(0);
    expect(itgen(dir, 'generate').code).toBe(0);
    removeDir(dir);
  });

  it('refuses to write through a symlink that leaves the project', () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'itgen-outside-'));
    mkdirSync(path.join(outside, 'out'));
    writeFileSync(path.join(outside, 'out', 'kustomization.yaml'), 'resources: []\n');
    const dir = project('../link/out');
    symlinkSync(outside, path.join(dir, 'link'));
    const r = itgen(dir, 'generate');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/outside the project directory \(through a symbolic link\)/);
    expect(readDirTree(path.join(outside, 'out'))).toEqual([{ path: 'kustomization.yaml', content: 'resources: []\n' }]);
    removeDir(dir);
    removeDir(outside);
  });

  it('refuses two generators writing into overlapping directories', () => {
    const dir = project('../out');
    const gen = readFileSync(path.join(dir, 'generators', 'minimal.yaml'), 'utf8');
    writeFileSync(path.join(dir, 'generators', 'second.yaml'), gen.replace('output: ../out', 'output: ../out/second'));
    const r = itgen(dir, 'generate');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/generators `minimal` and `second` write into overlapping directories/);
    removeDir(dir);
  });
});

describe('interrupted writes', () => {
  it('the next write cleans up what a killed run left beside the output', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-interrupted-'));
    // Killed between the two renames: the old tree set aside, a new one half written.
    mkdirSync(path.join(dir, '.out.itgen-old-1-a'));
    writeFileSync(path.join(dir, '.out.itgen-old-1-a', 'kustomization.yaml'), 'old\n');
    mkdirSync(path.join(dir, '.out.itgen-new-1-a'));
    writeFileSync(path.join(dir, '.out.itgen-new-1-a', 'half.yaml'), 'half\n');
    recoverInterruptedWrite(path.join(dir, 'out'));
    expect(readDirTree(dir)).toEqual([{ path: 'out/kustomization.yaml', content: 'old\n' }]);
    writeTree(path.join(dir, 'out'), [{ path: 'kustomization.yaml', content: 'new\n' }]);
    expect(readDirTree(dir)).toEqual([{ path: 'out/kustomization.yaml', content: 'new\n' }]);
    removeDir(dir);
  });

  it('also drops the scratch directory of a removal cut short (a run killed while removing the tree it replaced)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-interrupted-'));
    writeTree(path.join(dir, 'out'), [{ path: 'kustomization.yaml', content: 'current\n' }]);
    // removeTree moves what it removes into a scratch directory named after it, then empties that.
    mkdirSync(path.join(dir, '..out.itgen-old-2-b.itgen-rm-2-c', '0'), { recursive: true });
    writeFileSync(path.join(dir, '..out.itgen-old-2-b.itgen-rm-2-c', '0', 'kustomization.yaml'), 'old\n');
    // Someone else's dot-directory beside it stays.
    mkdirSync(path.join(dir, '.keep'));
    recoverInterruptedWrite(path.join(dir, 'out'));
    expect(readdirSync(dir).sort()).toEqual(['.keep', 'out']);
    expect(readDirTree(path.join(dir, 'out'))).toEqual([{ path: 'kustomization.yaml', content: 'current\n' }]);
    removeDir(dir);
  });
});

describe('concurrent generates', () => {
  it('six generates started together all succeed and leave one clean base', async () => {
    const dir = scratchProject({});
    cpSync(path.join(REPO, 'test', 'fixtures', 'minimal'), dir, { recursive: true });
    removeDir(path.join(dir, 'expected'));
    const { spawn } = await import('node:child_process');
    const runs = Array.from(
      { length: 6 },
      () =>
        new Promise<number | null>((resolve) => {
          const p = spawn(process.execPath, [CLI, 'generate'], { cwd: dir, stdio: 'ignore' });
          p.on('exit', (code) => resolve(code));
        }),
    );
    expect(await Promise.all(runs)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(
      readDirTree(dir)
        .filter((f) => f.path.includes('.itgen-'))
        .map((f) => f.path),
    ).toEqual([]);
    expect(itgen(dir, 'check').code).toBe(0);
    removeDir(dir);
  });
});

describe('an unreadable directory under output/', () => {
  it('reads as drift and keeps the output from being replaced, never an internal error', () => {
    const dir = project('../out');
    expect(itgen(dir, 'generate').code).toBe(0);
    const locked = path.join(dir, 'out', 'VirtualMachinePreferences');
    const real = fs.readdirSync;
    const spy = jest.spyOn(fs, 'readdirSync').mockImplementation(((p: fs.PathLike, o?: unknown) => {
      if (path.resolve(String(p)) === locked) throw Object.assign(new Error(`EACCES: permission denied, scandir '${locked}'`), { code: 'EACCES' });
      return (real as (p: fs.PathLike, o?: unknown) => unknown)(p, o);
    }) as typeof fs.readdirSync);
    try {
      expect(readTree(path.join(dir, 'out'))).toContainEqual({ path: 'VirtualMachinePreferences', content: 'a directory that cannot be read' });
      const r = itgen(dir, 'generate');
      expect(r.code).toBe(1);
      expect(r.err).toContain('generating would replace `VirtualMachinePreferences/ (unreadable)`');
      expect(r.err).not.toContain(dir);
    } finally {
      spy.mockRestore();
    }
    removeDir(dir);
  });
});

describe('bases written by earlier versions', () => {
  it('a base whose kustomizations lack the leading --- (itgen before 2026-11-21) is still itgen’s and is replaced', () => {
    const dir = project('../out');
    expect(itgen(dir, 'generate').code).toBe(0);
    for (const f of ['kustomization.yaml', 'VirtualMachinePreferences/kustomization.yaml']) {
      const p = path.join(dir, 'out', f);
      writeFileSync(p, readFileSync(p, 'utf8').replace(/^---\n/, ''));
    }
    expect(itgen(dir, 'generate').code).toBe(0);
    expect(readFileSync(path.join(dir, 'out', 'kustomization.yaml'), 'utf8')).toMatch(/^---\n/);
    removeDir(dir);
  });
});

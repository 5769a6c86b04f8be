/**
 * itgen replaces its output directory wholesale, so it must refuse any output it does not own:
 * the generators, the catalog, .git, the project itself, a folder of someone else's files, a path
 * through a symlink out of the project, or another generator's output.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { recoverInterruptedWrite, writeTree } from '../src/emit/write';
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
    expect(r.err).toMatch(/already holds files that are not a base itgen wrote/);
    expect(readFileSync(path.join(dir, 'out', 'precious.txt'), 'utf8')).toBe('keep me\n');
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

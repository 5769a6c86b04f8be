/** Temporary Git repositories driven through the built CLI, as a user or CI would. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO } from './helpers';
import { run as runCli } from '../src/cli/main';

export const CLI = path.join(REPO, 'dist', 'cli', 'main.js');

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function run(cwd: string, cmd: string, args: readonly string[], input?: string): Run {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', input: input ?? '', maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The CLI in this process (`run` from src/cli/main.ts, with main's line endings and its catch for
 * internal errors): the same command line, files and exit code, without starting node each time.
 * Tests about the process itself (the launcher, the installed package, stdin, concurrent runs,
 * exit codes set on the process) use `itgenProcess`.
 */
export function itgen(cwd: string, ...args: string[]): Run {
  let stdout = '';
  let stderr = '';
  const line = (s: string): string => (s.endsWith('\n') ? s : `${s}\n`);
  let code: number;
  try {
    code = runCli(args, { out: (s) => (stdout += line(s)), err: (s) => (stderr += line(s)), cwd, color: false, stdin: () => '' });
  } catch (e) {
    stderr += `itgen: internal error: ${(e as Error).message}\nplease report this with the input that caused it\n`;
    code = 2;
  }
  return { code, stdout, stderr };
}

/** What one in-process CLI run printed: each line as printed, by stream and both in order (`text`). */
export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  readonly text: string;
}

/**
 * The CLI's `run()` in this process as `itgen` above, but each printed line kept exactly as printed,
 * by stream and both in order (`text`), with `terminal` and standard input (empty unless given).
 */
export function runInProcess(cwd: string, argv: readonly string[], opts: { stdin?: string; terminal?: boolean } = {}): CliRun {
  let out = '';
  let err = '';
  let text = '';
  const code = runCli(argv, {
    out: (s) => ((out += `${s}\n`), (text += `${s}\n`)),
    err: (s) => ((err += `${s}\n`), (text += `${s}\n`)),
    cwd,
    color: false,
    terminal: opts.terminal ?? false,
    stdin: () => opts.stdin ?? '',
  });
  return { code, out, err, text };
}

/** The built CLI as its own process, as users and CI run it. */
export function itgenProcess(cwd: string, ...args: string[]): Run {
  return run(cwd, process.execPath, [CLI, ...args]);
}

export function git(cwd: string, ...args: string[]): string {
  const r = run(cwd, 'git', args);
  if (r.code !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` (npm ci does it through prepare)');
}

/** A small catalog: one versioned instance type family by two sizes, and one Linux preference. */
export const SMALL_CATALOG: Record<string, string> = {
  'catalogs/small/catalog.yaml': `kind: Catalog
name: small
naming:
  instancetype: "{family}.{size}"
---
kind: SizeLadder
name: sizes
sizes:
  - {name: small, cpu: 1}
  - {name: large, cpu: 2}
`,
  'catalogs/small/u1.yaml': `kind: Family
name: u1
displayName: Universal
description: Universal instance types, 2Gi per vCPU
class: general.purpose
memoryPerCPU: 2Gi
`,
  'catalogs/small/preferences.yaml': `kind: Preference
name: linux
displayName: Linux
spec:
  annotations: {vm.kubevirt.io/os: linux}
  devices: {preferredDiskBus: virtio, preferredInterfaceModel: virtio}
  requirements: {cpu: {guest: 1}, memory: {guest: 1Gi}}
---
kind: Preference
name: legacy
displayName: Legacy Linux
spec:
  annotations: {vm.kubevirt.io/os: linux}
  devices: {preferredDiskBus: sata}
`,
  'generators/small.yaml': `apiVersion: itgen.dev/v1alpha1
kind: Generator
metadata:
  name: small
catalog: ../catalogs/small
output: ../output/small
vendor: example.com
suppressWarnings: [IT5006, IT5007]
`,
};

/** `git init` in a fresh temporary directory with the files written and committed. */
export function gitProject(files: Record<string, string> = SMALL_CATALOG): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-e2e-'));
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'e2e@example.com');
  git(dir, 'config', 'user.name', 'itgen e2e');
  git(dir, 'config', 'commit.gpgsign', 'false');
  writeFiles(dir, files);
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [p, content] of Object.entries(files)) {
    const abs = path.join(dir, p);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

export function edit(dir: string, file: string, from: string | RegExp, to: string): void {
  const abs = path.join(dir, file);
  const before = readFileSync(abs, 'utf8');
  const after = before.replace(from, to);
  if (after === before) throw new Error(`edit of ${file} changed nothing`);
  writeFileSync(abs, after);
}

export function commitAll(dir: string, message: string): void {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
}

export function remove(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compile, type CompileResult } from '../src/pipeline';
import { formatText } from '../src/format';
import { readTree, removeTree } from '../src/emit/write';

export const REPO = path.resolve(__dirname, '..');
/** Reference data vendored into the repository (source, commit and licence: test/reference/README.md). */
export const REFERENCE = path.join(REPO, 'test', 'reference');
/** The upstream common-instancetypes bundle (test/reference/common-instancetypes/README.md). */
export const UPSTREAM_BUNDLE = path.join(REFERENCE, 'common-instancetypes', 'common-instancetypes-all-bundle.yaml');
export const UPDATE_GOLDEN = process.env['UPDATE_GOLDEN'] === '1';

/** Compile a project directory holding `generators/<name>.yaml`. */
export function compileProject(root: string, generator = 'generators/default.yaml'): CompileResult {
  return compile(root, generator);
}

/** Diagnostics as the CLI prints them (no colour), with source excerpts from `root`. */
export function diagnosticsText(root: string, result: CompileResult): string {
  const lines = (file: string): string[] | undefined => {
    try {
      return readFileSync(path.resolve(root, file), 'utf8').split(/\r?\n/);
    } catch {
      return undefined;
    }
  };
  return result.diagnostics.length === 0 ? '' : `${formatText(result.diagnostics, lines, false)}\n`;
}

/** A scratch project: files given as path -> content. */
export function scratchProject(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-test-'));
  for (const [p, content] of Object.entries(files)) {
    const abs = path.join(dir, p);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
  return dir;
}

/** Removes a scratch directory, however deep a test made it (rmSync fails past PATH_MAX). */
export function removeDir(dir: string): void {
  removeTree(dir);
}

/** A directory as OutputFiles, the way `itgen check` reads it. */
export const readDirTree = readTree;

export const DEFAULT_GENERATOR = `catalog: ../catalog
output: ../output
vendor: kubevirt.io
`;

/** A catalog of two instance types and one preference: the smallest that generates a whole base. */
export const TINY_CATALOG = `kind: Catalog
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
description: Compute
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

/** The JSON lines of a file of test/fixtures/oracle-answers/ (cases in the oracles' protocol, or their answers). */
export function oracleAnswers(file: string): Record<string, unknown>[] {
  return readFileSync(path.join(REPO, 'test', 'fixtures', 'oracle-answers', file), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/**
 * Whether a tool a test needs is on this machine. When it is not, the test says so in one line
 * (what is missing and how to get it) and is skipped, unless `ITGEN_REQUIRE_<NAME>` is set, as
 * .ci/run sets it for every tool it installs: there a missing tool fails the run.
 */
export function toolPresent(name: string, probe: () => boolean, install: string): boolean {
  if (probe()) return true;
  const required = `ITGEN_REQUIRE_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
  if (process.env[required]) throw new Error(`${name} is required here (${required} is set): ${install}`);
  process.stderr.write(`skipped: ${name} is not installed (${install})\n`);
  return false;
}

/** A program answers `args` with exit 0. */
export function runs(program: string, args: readonly string[] = ['--version']): boolean {
  const r = spawnSync(program, args, { encoding: 'utf8', timeout: 10_000 });
  return r.error === undefined && r.status === 0;
}

import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, rmSync, existsSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compile, type CompileResult } from '../src/pipeline';
import { formatText } from '../src/cli/format';
import type { OutputFile } from '../src/emit/layout';

export const REPO = path.resolve(__dirname, '..');
export const SHARED = path.resolve(REPO, '..', 'shared');
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

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function readDirTree(dir: string): OutputFile[] {
  const out: OutputFile[] = [];
  if (!existsSync(dir)) return out;
  const walk = (d: string, rel: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(p).isDirectory()) walk(p, r);
      else out.push({ path: r, content: readFileSync(p, 'utf8') });
    }
  };
  walk(dir, '');
  return out;
}

export const DEFAULT_GENERATOR = `catalog: ../catalog
output: ../output
vendor: kubevirt.io
`;

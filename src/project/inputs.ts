/**
 * What a run reads besides the catalogs, as the release workflows and cluster commands take it: the release lock at a revision (`--base`), a directory of published bundles (`--bundles`), and the quantities of a node dump checked as the API server holds them.
 */
import { readdirSync } from '../load/reads';
import path from 'node:path';
import { diag, type Diagnostic, type SourceRange } from '../diagnostics';

import { obj, type Json } from '../json';
import { isQuantity } from '../quantity';

import { readNamedFile } from '../load/files';
import { MAX_INPUT_BYTES } from '../load/limits';
import { readFileAt } from './git';

import { type PublishedBase, type PublishedBundles } from './compile';

/**
 * A node's allocatable and capacity as the API server holds them: quantities (a string as Kubernetes
 * writes one, or a finite number), never negative. Anything else (`NaN`, `.inf`, `0x10`, `abc`, `""`,
 * `"64Gi "` with a blank) is said at its place: read as 0 or trimmed, it would give wrong answers.
 */
export function nodeQuantityProblems(
  objects: readonly Record<string, unknown>[],
  shown: string,
  at: ((index: number, path: readonly (string | number)[]) => SourceRange | undefined) | undefined,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  objects.forEach((o, i) => {
    if (o['kind'] !== 'Node' || out.length >= 20) return;
    const status = obj(o['status'] as Json);
    for (const field of ['allocatable', 'capacity'])
      for (const [k, v] of Object.entries(obj(status?.[field]) ?? {})) {
        const ok = typeof v === 'string' ? isQuantity(v) && !v.startsWith('-') : typeof v === 'number' && Number.isFinite(v) && v >= 0;
        if (ok) continue;
        const name = String(obj(o['metadata'] as Json)?.['name'] ?? '(unnamed)');
        const path = ['status', field, k];
        out.push(
          diag(
            'IT8004',
            `Node \`${name}\`: status.${field}.${k} is ${typeof v === 'number' ? String(v) : (JSON.stringify(v) ?? String(v))}, not a quantity a node can offer`,
            at?.(i, path) ?? { file: shown, line: 1, col: 1 },
            {
              hint: 'a quantity as Kubernetes writes one (`64Gi`, `8`, `7500m`); a dump from `kubectl get nodes -o yaml` has them',
            },
          ),
        );
      }
  });
  return out;
}

/** `--base REF` as the release workflows take it: the release lock files as committed at REF in the project's repository. */
export function baseRevision(root: string, ref: string): PublishedBase {
  return {
    name: ref,
    read: (file) => readFileAt(root, ref, file, MAX_INPUT_BYTES),
    atTag: (version, file) => {
      const r = readFileAt(root, `refs/tags/${version}`, file, MAX_INPUT_BYTES);
      return r && 'text' in r ? r : undefined;
    },
  };
}

/** `--bundles DIR` as the release workflows take it: the regular files of the directory, each read bounded. */
export function bundlesDirectory(cwd: string, dir: string): PublishedBundles {
  const abs = path.resolve(cwd, dir);
  return {
    shown: dir.replace(/\/+$/, ''),
    files: () => {
      let names: string[];
      try {
        names = readdirSync(abs).sort();
      } catch {
        names = [];
      }
      return names.flatMap((name) => {
        const read = readNamedFile(path.join(abs, name));
        return 'bytes' in read ? [{ name, bytes: read.bytes }] : [];
      });
    },
  };
}

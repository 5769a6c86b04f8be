import type { OutputFile } from './layout';
import { byText } from '../order';

export interface FileChange {
  readonly path: string;
  /** From the committed tree to the generated one. */
  readonly change: 'added' | 'removed' | 'modified';
}

/** Which files differ between what is on disk and what would be generated. */
export function diffTrees(current: readonly OutputFile[], expected: readonly OutputFile[]): FileChange[] {
  const cur = new Map(current.map((f) => [f.path, f.content] as const));
  const exp = new Map(expected.map((f) => [f.path, f.content] as const));
  const out: FileChange[] = [];
  for (const [p, c] of exp) {
    if (!cur.has(p)) out.push({ path: p, change: 'added' });
    else if (cur.get(p) !== c) out.push({ path: p, change: 'modified' });
  }
  for (const p of cur.keys()) if (!exp.has(p)) out.push({ path: p, change: 'removed' });
  return out.sort(byText((x) => x.path));
}

/**
 * How init reads and edits what a repository already has: a file read bounded and inside it,
 * whether one exists, a path a link or a file blocks, and a resource or include added to a YAML
 * list without touching the rest.
 */
import { lstatSync, realpathSync, statSync } from '../load/reads';
import { readRegularFile } from '../load/limits';
import path from 'node:path';
import { type YAMLSeq } from 'yaml';
import { realLocation, within } from '../load/files';

/** Whether anything (a file, a directory, a link) is at this path. */
export function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** An existing file of the repository (a regular file, bounded like every read), or undefined. */
export function read(file: string): string | undefined {
  return readRegularFile(file)?.toString('utf8');
}

/**
 * Why a path of the repository cannot be written where it is named: a link on the way that leads
 * out of the repository, or nowhere (dangling), or a file where a directory must be; undefined
 * when every existing part of the path is a directory (or, last, anything) inside it.
 */
export function blockedPath(dir: string, rel: string): string | undefined {
  const realDir = realLocation(dir);
  const parts = rel.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const shown = parts.slice(0, i).join('/');
    const p = path.join(dir, ...parts.slice(0, i));
    let st;
    try {
      st = lstatSync(p);
    } catch {
      return undefined; // absent from here on: created inside
    }
    if (st.isSymbolicLink()) {
      let real: string;
      try {
        real = realpathSync(p);
      } catch {
        return `\`${shown}\` is a symbolic link that leads nowhere`;
      }
      if (!within(realDir, real)) return `\`${shown}\` leads out of the repository through a symbolic link`;
      st = statSync(p);
    }
    if (i < parts.length && !st.isDirectory()) return `\`${shown}\` is a file, not a directory`;
  }
  return undefined;
}

/**
 * The kustomization text with one resource added, everything else byte for byte as the user wrote
 * it (comments, quotes, flow maps, line endings): a line after the last item of a block sequence,
 * an item before the `]` of a flow sequence, or a `resources:` block at the end. Undefined when the
 * sequence's layout is not one of those (the user is told to add it).
 */
export function withResource(text: string, resources: YAMLSeq | undefined, entry: string, key = 'resources'): string | undefined {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (resources === undefined) return `${text}${text === '' || text.endsWith('\n') ? '' : eol}${key}:${eol}  - ${entry}${eol}`;
  const range = resources.range;
  if (!range) return undefined;
  if (resources.flow) {
    const close = text.lastIndexOf(']', range[1]);
    if (close < range[0]) return undefined;
    const inside = text.slice(range[0] + 1, close).trim();
    return `${text.slice(0, close)}${inside === '' ? entry : `, ${entry}`}${text.slice(close)}`;
  }
  const last = resources.items[resources.items.length - 1] as { range?: [number, number, number] } | undefined;
  if (!last?.range) return undefined;
  // The item's `- ` starts its line: its indentation is the sequence's.
  const lineStart = text.lastIndexOf('\n', range[0]) + 1;
  const indent = /^[ ]*/.exec(text.slice(lineStart))![0];
  if (text.slice(lineStart + indent.length, lineStart + indent.length + 2) !== '- ') return undefined;
  // After the line that holds the end of the last item.
  const endOfLast = text.indexOf('\n', Math.max(last.range[1] - 1, 0));
  const at = endOfLast === -1 ? text.length : endOfLast + 1;
  const before = text.slice(0, at);
  return `${before}${before.endsWith('\n') ? '' : eol}${indent}- ${entry}${eol}${text.slice(at)}`;
}

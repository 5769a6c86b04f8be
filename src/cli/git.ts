/** Reading committed files from Git (for `itgen diff --against REF`): the only place itgen runs git. */
import type * as ChildProcess from 'node:child_process';
import type { OutputFile } from '../emit/layout';

/**
 * child_process is loaded on the first git call, not with the CLI: it brings net, streams and
 * dgram with it, which the startup snapshot would otherwise carry into every run (about 1 ms of
 * each start) for the one command that runs git.
 */
let childProcess: typeof ChildProcess | undefined;

const MAX_BUFFER = 1 << 30;

function git(cwd: string, args: readonly string[]): { ok: true; stdout: string } | { ok: false; error: string } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  childProcess ??= require('node:child_process') as typeof ChildProcess;
  const r = childProcess.spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: MAX_BUFFER });
  if (r.error) return { ok: false, error: `cannot run git: ${r.error.message}` };
  if (r.status !== 0) return { ok: false, error: (r.stderr || `git ${args[0]} failed`).trim().split('\n')[0]! };
  return { ok: true, stdout: r.stdout };
}

/**
 * The files under `dir` (relative to `root`) as committed at `ref`, paths relative to `dir`.
 * A directory the commit does not have reads as empty: everything is then "added".
 */
export function readTreeAt(root: string, ref: string, dir: string): { files: OutputFile[] } | { error: string } {
  if (ref.startsWith('-')) return { error: `\`${ref}\` is not a Git revision` };
  const commit = git(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  if (!commit.ok) return { error: `\`${ref}\` is not a commit in this repository` };
  const sha = commit.stdout.trim();
  const prefix = dir === '.' ? '' : `${dir.replace(/\/+$/, '')}/`;
  // Paths relative to the working directory (`root`), whatever the repository's top level is.
  const listed = git(root, ['ls-tree', '-r', '-z', '--name-only', sha, '--', prefix === '' ? '.' : prefix]);
  if (!listed.ok) return { error: listed.error };
  const files: OutputFile[] = [];
  for (const p of listed.stdout
    .split('\0')
    .filter((s) => s !== '')
    .sort()) {
    const shown = git(root, ['show', `${sha}:./${p}`]);
    if (!shown.ok) return { error: shown.error };
    files.push({ path: p.startsWith(prefix) ? p.slice(prefix.length) : p, content: shown.stdout });
  }
  return { files };
}

/**
 * One file as committed at `ref` (a path relative to `root`), bounded like every input: its text,
 * `undefined` when the commit does not have it, or why it cannot be read.
 */
export function readFileAt(root: string, ref: string, file: string, limit: number): { text: string } | undefined | { error: string } {
  if (ref.startsWith('-')) return { error: `\`${ref}\` is not a Git revision` };
  const commit = git(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  if (!commit.ok) return { error: `\`${ref}\` is not a commit in this repository` };
  const object = `${commit.stdout.trim()}:./${file}`;
  const size = git(root, ['cat-file', '-s', object]);
  if (!size.ok) return undefined;
  if (Number(size.stdout.trim()) > limit) return { error: `${file} at ${ref} is larger than the ${limit} bytes itgen reads` };
  const shown = git(root, ['cat-file', 'blob', object]);
  return shown.ok ? { text: shown.stdout } : { error: shown.error };
}

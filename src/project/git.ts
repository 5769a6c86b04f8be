/** Reading committed files from Git (for `itgen diff --against REF`): the only place itgen runs git. */
import type * as ChildProcess from 'node:child_process';
import type { OutputFile } from '../emit/layout';
import { MAX_INPUT_BYTES } from '../load/limits';
import { taint } from '../load/reads';

/**
 * child_process is loaded on the first git call, not with the CLI: it brings net, streams and
 * dgram with it, which the startup snapshot would otherwise carry into every run (about 1 ms of
 * each start) for the one command that runs git.
 */
let childProcess: typeof ChildProcess | undefined;

/** What a listing of a tree may print (paths and sizes, not contents). */
const MAX_BUFFER = 64 << 20;

function git(cwd: string, args: readonly string[], maxBuffer = MAX_BUFFER): { ok: true; stdout: string } | { ok: false; error: string } {
  // What a repository holds at a revision is no file a replay of reads can check.
  taint('a git call');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  childProcess ??= require('node:child_process') as typeof ChildProcess;
  const r = childProcess.spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer });
  if (r.error) return { ok: false, error: `cannot run git: ${r.error.message}` };
  if (r.status !== 0) return { ok: false, error: (r.stderr || `git ${args[0]} failed`).trim().split('\n')[0]! };
  return { ok: true, stdout: r.stdout };
}

/**
 * The files under `dir` (relative to `root`) as committed at `ref`, paths relative to `dir`.
 * A directory the commit does not have reads as empty: everything is then "added".
 */
export function readTreeAt(root: string, ref: string, dir: string, limit = MAX_INPUT_BYTES): { files: OutputFile[] } | { error: string } {
  const commit = commitOf(root, ref);
  if ('error' in commit) return commit;
  const { sha } = commit;
  const prefix = dir === '.' ? '' : `${dir.replace(/\/+$/, '')}/`;
  // Paths relative to the working directory (`root`), whatever the repository's top level is; with
  // each blob's mode and size, so that nothing past the input bound is ever read into memory.
  const listed = git(root, ['ls-tree', '-r', '-z', '-l', sha, '--', prefix === '' ? '.' : prefix]);
  if (!listed.ok) return { error: listed.error };
  const files: OutputFile[] = [];
  const entries = listed.stdout
    .split('\0')
    .filter((s) => s !== '')
    .map((line) => {
      const tab = line.indexOf('\t');
      const [mode, type, , size] = line.slice(0, tab).split(/ +/);
      return { mode: mode ?? '', type: type ?? '', size: Number(size), p: line.slice(tab + 1) };
    })
    .sort((a, b) => (a.p < b.p ? -1 : a.p > b.p ? 1 : 0));
  for (const e of entries) {
    const rel = e.p.startsWith(prefix) ? e.p.slice(prefix.length) : e.p;
    // As the working tree reads them (emit/write.ts readTree): what is not a file itgen can read is
    // described, and differs from anything itgen generates.
    if (e.type !== 'blob') files.push({ path: rel, content: 'not a regular file' });
    else if (e.mode === '120000') files.push({ path: rel, content: 'a symbolic link' });
    else if (!(e.size <= limit)) files.push({ path: rel, content: 'a file too large to read' });
    else {
      const shown = git(root, ['cat-file', 'blob', `${sha}:./${e.p}`], limit + 1);
      if (!shown.ok) return { error: shown.error };
      files.push({ path: rel, content: shown.stdout });
    }
  }
  return { files };
}

/**
 * One file as committed at `ref` (a path relative to `root`), bounded like every input: its text,
 * `undefined` when the commit does not have it, or why it cannot be read.
 */
export function readFileAt(root: string, ref: string, file: string, limit: number): { text: string } | undefined | { error: string } {
  const commit = commitOf(root, ref);
  if ('error' in commit) return commit;
  const object = `${commit.sha}:./${file}`;
  const size = git(root, ['cat-file', '-s', object]);
  if (!size.ok) return undefined;
  if (Number(size.stdout.trim()) > limit) return { error: `${file} at ${ref} is larger than the ${limit} bytes itgen reads` };
  const shown = git(root, ['cat-file', 'blob', object], limit + 1);
  return shown.ok ? { text: shown.stdout } : { error: shown.error };
}

/** The commit a revision names (never an option: `-x` is refused), or why it names none. */
function commitOf(root: string, ref: string): { sha: string } | { error: string } {
  if (ref.startsWith('-')) return { error: `\`${ref}\` is not a Git revision` };
  const commit = git(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  return commit.ok ? { sha: commit.stdout.trim() } : { error: `\`${ref}\` is not a commit in this repository` };
}

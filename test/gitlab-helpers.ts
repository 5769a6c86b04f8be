/**
 * What the tests that run GitLab jobs with gitlab-ci-local share: where the tool and the Node 22 it
 * needs are (`.ci/gitlab-ci-local/`, installed by `.ci/run`), whether they can run here, and the
 * stand-in for the job's `npm ci` that links the itgen under test where npm would install it.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const REPO = path.resolve(__dirname, '..');
const TOOL = path.join(REPO, '.ci', 'gitlab-ci-local', 'node_modules');
export const NODE22 = path.join(TOOL, 'node', 'bin', 'node');
export const GCL = path.join(TOOL, 'gitlab-ci-local', 'dist', 'index.js');

/** Why gitlab-ci-local cannot run here, or undefined when it can. */
export function gitlabMissing(): string | undefined {
  if (!existsSync(NODE22) || !existsSync(GCL)) return 'gitlab-ci-local is not installed (npm ci --prefix .ci/gitlab-ci-local)';
  const v = spawnSync(NODE22, ['--version'], { encoding: 'utf8' });
  if (!/^v22\./.test(v.stdout ?? '')) return `gitlab-ci-local needs Node 22, .ci/gitlab-ci-local has ${v.stdout || v.error?.message || 'none'}`;
  if (spawnSync('rsync', ['--version']).status !== 0) return 'gitlab-ci-local copies the work tree with rsync, which is not installed';
  return undefined;
}

/** A directory holding the `npm` stand-in (put it first on PATH): `npm ci` links bin/itgen into node_modules/.bin. */
export function npmStandIn(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'npm'),
    `#!/bin/sh\n[ "$1" = ci ] || { echo "npm stand-in: only ci" >&2; exit 1; }\nmkdir -p node_modules/.bin && ln -sf '${path.join(REPO, 'bin', 'itgen')}' node_modules/.bin/itgen\n`,
  );
  chmodSync(path.join(dir, 'npm'), 0o755);
  return dir;
}

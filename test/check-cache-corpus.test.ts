/**
 * The checks' cache (src/load/check-cache.ts) swept over every fixture project of the repository
 * (test/fixtures/<name>/generators, each a project with its own mistakes: unknown keys, cycles,
 * links out of the project, locks, imports): every file truncated or deleted and every directory
 * given a file, one at a time, and the answer with a cache primed on the unchanged project held to
 * the answer without one (test/check-cache-sweep.ts).
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { REPO } from './helpers';
import { sweepProject } from './check-cache-sweep';

const FIXTURES = path.join(REPO, 'test', 'fixtures');
const projects = readdirSync(FIXTURES)
  .filter((d) => existsSync(path.join(FIXTURES, d, 'generators')))
  .sort();

describe('the checks’ cache over every fixture project', () => {
  it('finds the projects', () => {
    expect(projects.length).toBeGreaterThan(80);
  });
  it.each(projects)('%s: every change gives the answer an uncached run gives', (name) => {
    const count = sweepProject(path.join(FIXTURES, name));
    expect(count.wrong).toEqual([]);
    expect(count.changes).toBeGreaterThan(2);
  });
});

/**
 * Every mutation of the default catalog is rejected with the expected code, located inside the
 * file that was mutated, and nothing is generated. The table is printed; `node bench/mutation-report.mjs`
 * prints the same table outside jest.
 */
import { compile } from '../src/pipeline';
import { hasErrors } from '../src/diagnostics';
import { MUTATIONS, defaultProject, formatReport, runMutation, type MutationResult } from './mutation';
import { removeDir } from './helpers';

describe('mutations of catalogs/default', () => {
  const results: MutationResult[] = [];

  afterAll(() => {
    if (results.length > 0) console.log(formatReport(results));
  });

  it('starts from a catalog that compiles without errors', () => {
    const dir = defaultProject();
    try {
      const r = compile(dir, 'generators/default.yaml');
      expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(hasErrors(r.diagnostics)).toBe(false);
      expect(r.files.length).toBeGreaterThan(0);
    } finally {
      removeDir(dir);
    }
  });

  it('has at least 40 mutations with distinct ids', () => {
    expect(MUTATIONS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(MUTATIONS.map((m) => m.id)).size).toBe(MUTATIONS.length);
  });

  it.each(MUTATIONS.map((m) => [m.id, m] as const))('%s is rejected where it was made', (_id, m) => {
    const r = runMutation(m);
    results.push(r);
    expect(r.problem).toBeUndefined();
    expect(r.ok).toBe(true);
    // One mistake, a handful of reports at most: no cascades of follow-on errors.
    expect(r.count).toBeLessThanOrEqual(5);
  });
});

/**
 * Golden-directory tests. Each folder under test/fixtures/ is a small project:
 *   generators/<name>.yaml + catalog files  (input)
 *   expected/<generator>/...               (expected output tree, when the input is valid)
 *   expected-diagnostics.txt               (expected diagnostics as the CLI prints them)
 * UPDATE_GOLDEN=1 rewrites the expectations; CI never sets it.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { globSync } from 'glob';
import { compile } from '../src/pipeline';
import { diagnosticsText, readDirTree, UPDATE_GOLDEN } from './helpers';

const FIXTURES = path.join(__dirname, 'fixtures');
const cases = existsSync(FIXTURES)
  ? readdirSync(FIXTURES)
      .filter((d) => existsSync(path.join(FIXTURES, d, 'generators')))
      .sort()
  : [];

describe.each(cases)('fixture %s', (name) => {
  const root = path.join(FIXTURES, name);
  const generators = globSync('generators/*.yaml', { cwd: root, posix: true, ignore: ['generators/*.lock.yaml'] }).sort();

  it('produces the expected diagnostics and output', () => {
    let diagnostics = '';
    for (const g of generators) {
      const result = compile(root, g);
      diagnostics += diagnosticsText(root, result);
      const gname = path.basename(g, '.yaml');
      const expectedDir = path.join(root, 'expected', gname);
      if (UPDATE_GOLDEN) {
        rmSync(expectedDir, { recursive: true, force: true });
        for (const f of result.files) {
          const abs = path.join(expectedDir, f.path);
          mkdirSync(path.dirname(abs), { recursive: true });
          writeFileSync(abs, f.content);
        }
      } else {
        expect(result.files.map((f) => f.path)).toEqual(readDirTree(expectedDir).map((f) => f.path));
        expect(result.files).toEqual(readDirTree(expectedDir));
      }
    }
    const diagFile = path.join(root, 'expected-diagnostics.txt');
    if (UPDATE_GOLDEN) writeFileSync(diagFile, diagnostics);
    else expect(diagnostics).toBe(existsSync(diagFile) ? readFileSync(diagFile, 'utf8') : '');
  });
});

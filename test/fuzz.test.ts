/**
 * Fuzz: mutated catalogs and project layouts, run through the CLI in-process. Every run ends with
 * exit 0 or 1 (never 2: an internal error on user input is a bug), prints no stack trace and no
 * text of the file outside the project, changes nothing but output/, and a failed run leaves
 * output/ as it was. Fixed seed, bounded runs; `node bench/fuzz.mjs` runs many more.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { run } from '../src/cli/main';
import { FUZZ_CATALOG, FUZZ_GENERATOR, mutateLayout, mutateText, mutationArb, snapshotOutsideOutput } from './fuzz-project';
import { readDirTree, removeDir, scratchProject } from './helpers';

const SECRET = 'hunter2-SECRET-TOKEN';
let outside: string;
beforeAll(() => {
  outside = mkdtempSync(path.join(os.tmpdir(), 'itgen-fuzz-outside-'));
  writeFileSync(path.join(outside, 'secret.yaml'), `kind: Catalog\nname: ${SECRET}\n`);
});
afterAll(() => rmSync(outside, { recursive: true, force: true }));

function itgen(cwd: string, argv: string[]): { code: number; text: string } {
  let text = '';
  const code = run(argv, { out: (s) => (text += `${s}\n`), err: (s) => (text += `${s}\n`), cwd, color: false });
  return { code, text };
}

it('mutated catalogs and layouts: exit 0 or 1, no stack trace, nothing outside printed or written', () => {
  fc.assert(
    fc.property(fc.array(mutationArb, { minLength: 1, maxLength: 3 }), (mutations) => {
      const dir = scratchProject({ 'generators/t.yaml': FUZZ_GENERATOR, 'catalog/catalog.yaml': FUZZ_CATALOG });
      try {
        expect(itgen(dir, ['generate']).code).toBe(0);
        let text = FUZZ_CATALOG;
        for (const m of mutations) {
          // Two layout changes may claim one path; the second then does nothing.
          if (m.op === 'layout') {
            try {
              mutateLayout(dir, outside, m.what);
            } catch {
              /* already taken */
            }
          } else text = mutateText(text, m);
        }
        writeFileSync(path.join(dir, 'catalog', 'catalog.yaml'), text);
        const before = snapshotOutsideOutput(dir);
        const output = readDirTree(path.join(dir, 'output', 't'));
        for (const argv of [['validate'], ['generate'], ['check'], ['validate', '--format', 'json'], ['validate', '--format', 'github']]) {
          const r = itgen(dir, argv);
          expect([argv.join(' '), r.code === 0 || r.code === 1]).toEqual([argv.join(' '), true]);
          expect(r.text).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n|internal error/);
          expect(r.text).not.toContain(SECRET);
          expect(r.text).not.toContain('\u001b');
          if (argv[0] === 'generate' && r.code !== 0) expect(readDirTree(path.join(dir, 'output', 't'))).toEqual(output);
        }
        expect(snapshotOutsideOutput(dir)).toEqual(before);
      } finally {
        removeDir(dir);
      }
    }),
    { numRuns: Number(process.env['ITGEN_FUZZ_RUNS'] ?? 40), seed: Number(process.env['ITGEN_FUZZ_SEED'] ?? 20261123) },
  );
});

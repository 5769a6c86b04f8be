#!/usr/bin/env node
// Mutation report: break catalogs/default in one way at a time (test/mutation.ts lists the
// mutations) and print, for each, whether itgen rejected it with the expected diagnostic code at a
// line of the file that was broken. Exit 1 when any mutation slips through.
// Usage: node bench/mutation-report.mjs [--json]
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// The mutations and the compiler are TypeScript; compile them on the fly as the tests do.
require('ts-node').register({ project: path.join(repo, 'tsconfig.json'), transpileOnly: true });
const { runMutations, formatReport } = require(path.join(repo, 'test', 'mutation.ts'));

const results = runMutations();
if (process.argv.includes('--json')) {
  console.log(
    JSON.stringify(
      results.map((r) => ({
        id: r.mutation.id,
        what: r.mutation.what,
        expect: r.mutation.expect,
        ok: r.ok,
        at: r.found?.location,
        codes: r.codes,
        problem: r.problem,
      })),
      null,
      2,
    ),
  );
} else {
  console.log(formatReport(results));
}
process.exitCode = results.every((r) => r.ok) ? 0 : 1;

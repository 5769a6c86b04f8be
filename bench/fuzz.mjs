#!/usr/bin/env node
// The long fuzz run: test/fuzz.test.ts (mutated catalogs and project layouts through the CLI:
// exit 0 or 1, no stack trace, nothing outside the project printed or written, a failed generate
// leaves output/ as it was) with many more runs than CI and a fresh seed each time, so every run
// explores new cases. Prints runs, seed, wall time and the verdict; exit 1 with the counterexample
// when a case fails. Usage: node bench/fuzz.mjs [--runs N] [--seed S]
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const runs = arg('--runs', 2000);
const seed = arg('--seed', Math.floor(Math.random() * 2 ** 31));
const t0 = process.hrtime.bigint();
const r = spawnSync(process.execPath, [path.join(repo, 'node_modules', 'jest', 'bin', 'jest.js'), 'test/fuzz.test.ts'], {
  cwd: repo,
  encoding: 'utf8',
  env: { ...process.env, ITGEN_FUZZ_RUNS: String(runs), ITGEN_FUZZ_SEED: String(seed) },
});
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
const passed = r.status === 0;
console.log(
  `| fuzz runs | seed | wall | verdict |\n| ---: | ---: | ---: | --- |\n| ${runs} | ${seed} | ${seconds.toFixed(1)} s | ${passed ? 'every run: exit 0 or 1, nothing leaked or written outside output/' : 'FAILED'} |`,
);
if (!passed) {
  console.log(
    (r.stdout + r.stderr)
      .split('\n')
      .filter((l) => /Counterexample|Expected|Received|✕/.test(l))
      .join('\n'),
  );
  process.exitCode = 1;
}

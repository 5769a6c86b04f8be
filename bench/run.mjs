#!/usr/bin/env node
// Benchmark of `itgen generate`: the default catalog from a cold start, and synthetic catalogs of
// 1k, 10k and 100k objects. Each case runs in a fresh node process (cold start included) on a
// scratch copy of the project, so nothing in the repository is touched. Prints a table and checks
// the targets; exit 1 when one is missed. Usage: node bench/run.mjs [--quick] [--runs N]
// What is measured is the compile: the checks' kept answer (src/load/check-cache.ts) is removed
// before each run, so that every run compiles (the judge's answers stay kept, as after an edit).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSyntheticProject } from './synthetic.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const runsArg = args.indexOf('--runs');
const runs = runsArg >= 0 ? Number(args[runsArg + 1]) : quick ? 1 : 3;
const child = path.join(repo, 'bench', 'child.cjs');
const launcher = path.join(repo, 'bin', 'itgen');
// GNU time reports the peak RSS of exactly the command users run (bin/itgen, from the startup
// snapshot when there is one). Without it, the CLI runs in-process under bench/child.cjs, which
// reports its own peak.
const gnuTime = ['/usr/bin/time', '/bin/time'].find((p) => existsSync(p));

const work = mkdtempSync(path.join(os.tmpdir(), 'itgen-bench-'));
// itgen's caches for these scratch projects, in the scratch directory.
const cache = path.join(work, 'cache');
process.env.XDG_CACHE_HOME = cache;

function once(cwd, generator) {
  if (existsSync(path.join(cache, 'itgen')))
    for (const f of readdirSync(path.join(cache, 'itgen'))) if (f.startsWith('checks-')) rmSync(path.join(cache, 'itgen', f));
  const t0 = process.hrtime.bigint();
  const r = gnuTime
    ? spawnSync(gnuTime, ['-f', 'itgen-bench-maxrss=%M', launcher, 'generate', '-g', generator], { cwd, encoding: 'utf8', maxBuffer: 1 << 26 })
    : spawnSync(process.execPath, [child, 'generate', '-g', generator], { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`generate failed in ${cwd}:\n${r.stderr}`);
  const kib = gnuTime ? Number(/itgen-bench-maxrss=(\d+)/.exec(r.stderr)[1]) : JSON.parse(r.stdout.trim().split('\n').pop()).maxRssKiB;
  return { ms, rssMiB: kib / 1024 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function measure(cwd, generator) {
  once(cwd, generator); // warm the file cache, not the process
  const samples = Array.from({ length: runs }, () => once(cwd, generator));
  return { ms: median(samples.map((s) => s.ms)), rssMiB: Math.max(...samples.map((s) => s.rssMiB)) };
}

const rows = [];
try {
  // Default catalog, on a copy of the project's catalog and generator.
  const def = path.join(work, 'default');
  mkdirSync(path.join(def, 'generators'), { recursive: true });
  cpSync(path.join(repo, 'catalogs', 'default'), path.join(def, 'catalogs', 'default'), { recursive: true });
  cpSync(path.join(repo, 'generators', 'default.yaml'), path.join(def, 'generators', 'default.yaml'));
  const defaultResult = measure(def, 'generators/default.yaml');
  rows.push({ name: 'default catalog', objects: 70, ...defaultResult });

  for (const target of quick ? [1000, 10000] : [1000, 10000, 100000]) {
    const dir = path.join(work, `synthetic-${target}`);
    const made = writeSyntheticProject(dir, target);
    rows.push({ name: `synthetic ${target / 1000}k`, objects: made.objects, ...measure(dir, 'generators/synthetic.yaml') });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const fmt = (n, d = 1) => n.toFixed(d);
const snapshot = existsSync(path.join(repo, 'dist', `itgen-${process.version}.blob`)) ? 'startup snapshot' : 'no startup snapshot';
console.log(
  `bin/itgen generate (${snapshot}), node ${process.version}, ${os.cpus().length} CPUs, median of ${runs} run(s), cold start each, peak RSS by ${gnuTime ? 'GNU time' : 'the process itself'}`,
);
console.log('| case | objects | wall ms | peak RSS MiB | us/object |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const r of rows) console.log(`| ${r.name} | ${r.objects} | ${fmt(r.ms, 0)} | ${fmt(r.rssMiB, 0)} | ${fmt((r.ms * 1000) / r.objects, 1)} |`);

const failures = [];
const def = rows[0];
const at = (k) => rows.find((r) => r.name === `synthetic ${k}k`);
if (def.ms >= 500) failures.push(`default catalog took ${fmt(def.ms, 0)} ms (target < 500 ms)`);
const big = at(100);
const mid = at(10);
if (big) {
  if (big.ms >= 15000) failures.push(`100k objects took ${fmt(big.ms, 0)} ms (target < 15000 ms)`);
  if (big.rssMiB >= 1536) failures.push(`100k objects peaked at ${fmt(big.rssMiB, 0)} MiB (target < 1536 MiB)`);
  const ratio = big.ms / big.objects / (mid.ms / mid.objects);
  console.log(`time per object at 100k / at 10k: ${fmt(ratio, 2)} (target <= 1.20)`);
  if (ratio > 1.2) failures.push(`time per object grows ${fmt(ratio, 2)}x from 10k to 100k (target <= 1.2x)`);
}
if (failures.length > 0) {
  console.log(`targets missed:\n- ${failures.join('\n- ')}`);
  process.exitCode = 1;
} else {
  console.log('all targets met');
}

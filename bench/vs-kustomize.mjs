#!/usr/bin/env node
// itgen against kustomize on the same catalog, kubevirt/common-instancetypes: wall time of
// `itgen generate` (load, resolve, every validation rule, write the base) on a scratch copy of the
// catalog, and of `kubectl kustomize` on upstream's source tree (build only, no validation).
// Each command runs in a fresh process, once to warm the file cache and then N times; prints the
// medians and the ratio. Target: itgen at least 8x faster; exit 1 when missed.
// Usage: node bench/vs-kustomize.mjs [--runs N]   (needs `npm run build` and kubectl on PATH)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const upstream = path.resolve(repo, 'test', 'reference', 'common-instancetypes', 'source');
const cli = path.join(repo, 'bin', 'itgen');
const runsArg = process.argv.indexOf('--runs');
const runs = runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 7;

if (!existsSync(cli)) {
  console.error('bin/itgen is missing');
  process.exit(2);
}

function time(cmd, args, cwd) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status}):\n${r.stderr}`);
  return ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function measure(cmd, args, cwd) {
  time(cmd, args, cwd);
  return median(Array.from({ length: runs }, () => time(cmd, args, cwd)));
}

// A scratch project holding only this catalog and its generator, so the committed output stays put.
const work = mkdtempSync(path.join(os.tmpdir(), 'itgen-vs-kustomize-'));
let itgen;
let kustomize;
try {
  cpSync(path.join(repo, 'generators', 'common-instancetypes.yaml'), path.join(work, 'generators', 'common-instancetypes.yaml'));
  cpSync(path.join(repo, 'catalogs', 'common-instancetypes'), path.join(work, 'catalogs', 'common-instancetypes'), { recursive: true });
  // bin/itgen is what users run: the startup snapshot when npm ci built one.
  itgen = measure(cli, ['generate', '-g', 'generators/common-instancetypes.yaml', '-C', work], repo);
  if (!existsSync(path.join(work, 'output', 'common-instancetypes', 'kustomization.yaml'))) throw new Error('itgen wrote no base');
  kustomize = measure('kubectl', ['kustomize', upstream], repo);
} finally {
  rmSync(work, { recursive: true, force: true });
}

const ratio = kustomize / itgen;
console.log(`common-instancetypes (244 objects), node ${process.version}, ${os.cpus().length} CPUs, median of ${runs} runs, fresh process each`);
console.log('| command | wall ms |');
console.log('| --- | ---: |');
console.log(
  `| itgen generate (validation included${existsSync(path.join(repo, 'dist', `itgen-${process.version}.blob`)) ? ', startup snapshot' : ', no startup snapshot'}) | ${itgen.toFixed(0)} |`,
);
console.log(`| kubectl kustomize (upstream source) | ${kustomize.toFixed(0)} |`);
console.log(`itgen is ${ratio.toFixed(1)}x faster (target >= 8x)`);
if (ratio < 8) {
  console.log('target missed: profile with `node --cpu-prof dist/cli/main.js generate ...`');
  process.exitCode = 1;
}

#!/usr/bin/env node
// Cold `itgen generate` of the `itgen init` scaffold: from the package installed into an empty
// repository (npm pack, npm install of the tarball, its postinstall building the startup snapshot)
// against the clone's bin/itgen on the same scaffold. Medians of N fresh processes each.
// Usage: node bench/installed.mjs [--runs N]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const runs = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 7;
const run = (cwd, cmd, a) => {
  const r = spawnSync(cmd, a, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } });
  if (r.status !== 0) throw new Error(`${cmd} ${a.join(' ')} failed:\n${r.stderr}`);
  return r;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const timed = (cwd, cmd, a) => {
  run(cwd, cmd, a); // warm the file cache
  return median(
    Array.from({ length: runs }, () => {
      const t0 = process.hrtime.bigint();
      run(cwd, cmd, a);
      return Number(process.hrtime.bigint() - t0) / 1e6;
    }),
  );
};
const work = mkdtempSync(path.join(os.tmpdir(), 'itgen-bench-installed-'));
try {
  run(repo, 'npm', ['pack', '--ignore-scripts', '--pack-destination', work]);
  const tarball = path.join(
    work,
    readdirSync(work).find((f) => f.endsWith('.tgz')),
  );
  const installed = path.join(work, 'installed');
  mkdirSync(installed);
  writeFileSync(path.join(installed, 'package.json'), '{"name": "acme-catalog", "private": true}\n');
  run(installed, 'npm', ['install', '--prefer-offline', '--no-save', tarball]);
  const bin = path.join(installed, 'node_modules', '.bin', 'itgen');
  run(installed, bin, ['init', '--name', 'acme']);
  const clone = path.join(work, 'clone');
  mkdirSync(clone);
  run(clone, path.join(repo, 'bin', 'itgen'), ['init', '--name', 'acme']);
  const fromPackage = timed(installed, bin, ['generate']);
  const fromClone = timed(clone, path.join(repo, 'bin', 'itgen'), ['generate']);
  const snapshot = readdirSync(path.join(installed, 'node_modules', 'itgen', 'dist')).some((f) => f === `itgen-${process.version}.blob`);
  console.log(`| cold \`itgen generate\` of the init scaffold (18 objects), median of ${runs} | wall |\n| --- | ---: |`);
  console.log(`| installed package (${snapshot ? 'startup snapshot built at install' : 'no snapshot: compiled JavaScript'}) | ${fromPackage.toFixed(0)} ms |`);
  console.log(`| clone (bin/itgen) | ${fromClone.toFixed(0)} ms |`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

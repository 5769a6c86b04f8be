#!/usr/bin/env node
// How much smaller the itgen catalog of kubevirt/common-instancetypes is than upstream's kustomize
// source: non-blank, non-comment lines and files of each, side by side. Target: under a quarter of
// upstream's lines; exit 1 when missed. Usage: node bench/catalog-size.mjs
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ours = path.join(repo, 'catalogs', 'common-instancetypes');
const upstream = path.resolve(repo, 'test', 'reference', 'common-instancetypes', 'source');

/** Files under `dir` whose name matches `keep`, recursively. */
function files(dir, keep) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p, keep));
    else if (keep.test(name)) out.push(p);
  }
  return out;
}

function count(dir) {
  // What a compiler reads: the YAML. (Our README.md documents the catalog; upstream's tree has no other files.)
  const list = files(dir, /\.ya?ml$/);
  let lines = 0;
  for (const f of list) {
    for (const line of readFileSync(f, 'utf8').split(/\r?\n/)) {
      const t = line.trim();
      if (t !== '' && !t.startsWith('#')) lines++;
    }
  }
  return { files: list.length, lines };
}

const a = count(ours);
const b = count(upstream);
const ratio = a.lines / b.lines;
const rel = (p) => path.relative(repo, p) || '.';
console.log('| | files | lines (non-blank, non-comment) |');
console.log('| --- | ---: | ---: |');
console.log(`| itgen: ${rel(ours)} | ${a.files} | ${a.lines} |`);
console.log(`| upstream: ${rel(upstream)} | ${b.files} | ${b.lines} |`);
console.log(`| ratio | ${(a.files / b.files).toFixed(3)} | ${ratio.toFixed(3)} (1/${(1 / ratio).toFixed(1)}) |`);
if (ratio >= 0.25) {
  console.log(`target missed: ${a.lines} lines is not under a quarter of ${b.lines}`);
  process.exitCode = 1;
} else {
  console.log('target met: under a quarter of upstream');
}

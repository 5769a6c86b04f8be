#!/usr/bin/env node
// The corpus of `virtctl template process -p` values (test/fixtures/template-param-flags/): seeded
// command lines of one to three -p values built from the pieces that decide pflag's StringToString
// and Go's encoding/csv (how many `=`, commas, quotes doubled or bare or unbalanced, line breaks,
// CR, spaces, empty keys and values, non-ASCII), and the answers of KubeVirt's own command.
//
//   node tools/param-flag-corpus.mjs gen DIR [--seed N] [--count N]   write DIR/cases.jsonl
//   ORACLE=<itgen-oracle> node tools/param-flag-corpus.mjs answer DIR  write DIR/answers.jsonl
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const [command, dir] = process.argv.slice(2);
const opt = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
if (!dir || !['gen', 'answer'].includes(command)) {
  console.error('usage: node tools/param-flag-corpus.mjs gen|answer DIR [--seed N] [--count N]');
  process.exit(2);
}

// mulberry32: the same cases for the same seed on every machine.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Most pieces are what people type; a few are what breaks the CSV reading (so that both are many).
const KEYS = ['A', 'NAME', 'INSTANCETYPE', 'PREFERENCE', 'x_y', 'disk.size'];
const ODD_KEYS = ['', ' A', 'A ', 'Ä', '"A"', 'a"b', 'K\n'];
const VALUES = ['1', 'u1.large', 'fedora', '50Gi', '', ' ', 'x=y', '=', 'é', 'a b', '{"k":1}', '${X}'];
const ODD_VALUES = ['a,b', '"q"', '""', '"a,b"', 'two\nlines', 'cr\r\n', '"', '""x', ',', '"a"b', '\t', 'a""b', '"x\ny"', '"a,b"c'];

function generate(seed, count) {
  const r = rng(seed);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const pair = () => {
    const shape = r();
    const k = r() < 0.85 ? pick(KEYS) : pick(ODD_KEYS);
    const v = r() < 0.7 ? pick(VALUES) : pick(ODD_VALUES);
    if (shape < 0.05) return k; // no `=`
    if (shape < 0.2) return `"${k}=${v.replaceAll('"', '""')}"`; // a quoted pair, its quotes doubled
    return `${k}=${v}`;
  };
  const value = () => {
    const n = 1 + Math.floor(r() * 3);
    const sep = r() < 0.85 ? ',' : pick([', ', ',,', '\n', '\r\n', ';']);
    let v = Array.from({ length: n }, pair).join(sep);
    if (r() < 0.1) v = `${v}${pick([',', '\n', '\r', '"', ' '])}`;
    if (r() < 0.05) v = `${pick(['\n', '\r\n', '"', ' '])}${v}`;
    return v;
  };
  return Array.from({ length: count }, (_, i) => {
    const args = Array.from({ length: 1 + Math.floor(r() * 3) }, () => ['-p', value()]).flat();
    return { id: `p${String(i + 1).padStart(5, '0')}`, args };
  });
}

const cases = path.join(dir, 'cases.jsonl');
if (command === 'gen') {
  writeFileSync(
    cases,
    `${generate(opt('seed', 19), opt('count', 600))
      .map((c) => JSON.stringify(c))
      .join('\n')}\n`,
  );
} else {
  const oracle = process.env.ORACLE;
  if (!oracle) throw new Error('ORACLE names the itgen-oracle binary');
  const input = readFileSync(cases, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.stringify({ ...JSON.parse(l), mode: 'template' }))
    .join('\n');
  const r = spawnSync(oracle, [], { input: `${input}\n`, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(r.stderr);
  const answers = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const a = JSON.parse(l);
      return JSON.stringify({ id: a.id, ...(a.flags.error !== undefined ? { error: a.flags.error } : { params: a.flags.params ?? {} }) });
    });
  writeFileSync(path.join(dir, 'answers.jsonl'), `${answers.join('\n')}\n`);
}

#!/usr/bin/env node
// The API-server corpus: instancetype objects with the mistakes people make by hand (a number for a
// string, a string for an integer, a float, a negative or huge integer, a bad quantity, a missing
// required field, a null, an unknown field, an out-of-bounds percentage), made from the upstream
// common-instancetypes bundle with a fixed seed, then answered by the Kubernetes API server's own CRD
// validation (itgen-apiserver) and KubeVirt's object webhook (itgen-oracle), both built outside this
// repository and named by the APISERVER and ORACLE variables (never part of the product or its tests).
//
//   node tools/apiserver-corpus.mjs gen DIR [--seed N] [--count N]   writes DIR/cases.jsonl
//   APISERVER=... ORACLE=... node tools/apiserver-corpus.mjs answer DIR   writes DIR/answers.jsonl
//
// test/apiserver-corpus.test.ts replays DIR (committed gzipped under test/fixtures/apiserver-corpus/).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { corpusCommandLine, mulberry32, runOracle } from './corpus-kit.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { mode, dir, opt } = corpusCommandLine();

function leaves(v, p = [], out = []) {
  if (v !== null && typeof v === 'object') {
    const entries = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    if (p.length > 0) out.push(p);
    for (const [k, x] of entries) leaves(x, [...p, k], out);
  } else out.push(p);
  return out;
}

function setAt(o, p, value) {
  let v = o;
  for (const k of p.slice(0, -1)) v = v[k];
  if (value === undefined) {
    if (Array.isArray(v)) v.splice(p[p.length - 1], 1);
    else delete v[p[p.length - 1]];
  } else v[p[p.length - 1]] = value;
}

/** Fields worth aiming at besides random leaves: the ones people get wrong, per kind. */
const AIMED = {
  instancetype: [
    ['spec', 'cpu', 'guest'],
    ['spec', 'memory', 'guest'],
    ['spec', 'memory', 'overcommitPercent'],
    ['spec', 'memory', 'maxGuest'],
    ['spec', 'cpu', 'maxSockets'],
    ['spec', 'ioThreadsPolicy'],
    ['spec', 'gpus'],
    ['spec', 'nodeSelector'],
  ],
  preference: [
    ['spec', 'requirements', 'cpu', 'guest'],
    ['spec', 'requirements', 'memory', 'guest'],
    ['spec', 'cpu', 'spreadOptions', 'ratio'],
    ['spec', 'preferredTerminationGracePeriodSeconds'],
    ['spec', 'devices', 'preferredDiskBus'],
    ['spec', 'preferredArchitecture'],
    ['spec', 'cpu', 'preferredCPUTopology'],
  ],
};

function gen() {
  const rand = mulberry32(Number(opt('--seed', 1)));
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const bundle = readFileSync(path.join(repo, 'test/reference/common-instancetypes/common-instancetypes-all-bundle.yaml'), 'utf8');
  const objects = parseAllDocuments(bundle)
    .map((d) => d.toJS())
    .filter((o) => o && typeof o.kind === 'string' && o.kind.startsWith('VirtualMachine'));
  const values = () =>
    pick([1, 0, -1, -15, 1.5, 2.5, -0.5, 5000000000, 1e19, 150, 101, true, false, 'x', '2', '2Gx', '1.5Gi', '-1', '', {}, [], [1], null, { a: 1 }]);
  const cases = [];
  const count = Number(opt('--count', 1000));
  for (let i = 0; cases.length < count; i++) {
    const o = JSON.parse(JSON.stringify(pick(objects)));
    o.metadata = { name: `c${String(i).padStart(5, '0')}`, ...(o.kind.includes('Cluster') ? {} : { namespace: 'default' }) };
    const mistakes = 1 + Math.floor(rand() * 3);
    for (let m = 0; m < mistakes; m++) {
      const r = rand();
      const all = leaves(o.spec, ['spec']).filter((p) => p.length > 1);
      if (r < 0.04) setAt(o, [...pick(all).slice(0, -1), pick(['bogus', 'guests', 'preferedDiskBus', 'Guest'])], 1);
      else if (r < 0.2 && all.length > 0) setAt(o, pick(all), undefined);
      else if (r < 0.55) {
        const p = pick(AIMED[o.kind.endsWith('Instancetype') ? 'instancetype' : 'preference']);
        let v = o;
        for (const k of p.slice(0, -1)) {
          if (v[k] === null || typeof v[k] !== 'object') v[k] = {};
          v = v[k];
        }
        v[p[p.length - 1]] = values();
      } else if (all.length > 0) setAt(o, pick(all), values());
    }
    cases.push({ id: o.metadata.name, mode: 'validate-object', object: o });
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'cases.jsonl'), cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
  console.log(`${cases.length} cases`);
}

function answer() {
  const input = readFileSync(path.join(dir, 'cases.jsonl'));
  const run = (bin) => {
    return new Map(
      runOracle(bin, input)
        .toString()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .map((a) => [a.id, a]),
    );
  };
  const server = run(process.env.APISERVER);
  const webhook = run(process.env.ORACLE);
  const out = [...server.keys()].map((id) => {
    const s = server.get(id);
    const w = webhook.get(id)?.validate;
    return { id, strictErrors: s.strictErrors, fieldErrors: s.fieldErrors, webhook: w ? { admitted: w.admitted, message: w.message } : undefined };
  });
  writeFileSync(path.join(dir, 'answers.jsonl'), out.map((a) => JSON.stringify(a)).join('\n') + '\n');
  console.log(`${out.length} answers`);
}

if (mode === 'gen') gen();
else if (mode === 'answer') answer();
else {
  console.error('usage: apiserver-corpus.mjs gen|answer DIR');
  process.exit(2);
}

// What the corpus generators share (tools/*-corpus.mjs): their command line, the seeded random
// numbers every corpus is made with (mulberry32: one seed, one corpus, on any machine), and running
// an oracle built outside this repository on JSON lines, and the built launcher render the
// kube-oracle corpora make their pods with.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The compiled start path (`npm run build` first): previewVm, objectStore and kubevirtConfig. */
export function launcherKit() {
  const require = createRequire(import.meta.url);
  return {
    previewVm: require(path.join(repo, 'dist', 'expand', 'judge.js')).previewVm,
    objectStore: require(path.join(repo, 'dist', 'expand', 'references.js')).objectStore,
    kubevirtConfig: require(path.join(repo, 'dist', 'kubevirt', 'config.js')).kubevirtConfig,
  };
}

/** kube-oracle (named by KUBE_ORACLE) on `cases`; DIR/cases.jsonl and DIR/answers.jsonl written. */
export function answerWithKubeOracle(dir, cases) {
  const lines = cases.map((c) => JSON.stringify(c)).join('\n') + '\n';
  const answers = runOracle(process.env.KUBE_ORACLE, lines, 'kube-oracle');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'cases.jsonl'), lines);
  writeFileSync(path.join(dir, 'answers.jsonl'), answers);
}

/** `node tools/x-corpus.mjs MODE DIR [--flag VALUE]...`: the mode, the directory, and each flag's value as written. */
export function corpusCommandLine(argv = process.argv) {
  const [, , mode, dir, ...rest] = argv;
  const opt = (name, dflt) => {
    const i = rest.indexOf(name);
    return i >= 0 ? rest[i + 1] : dflt;
  };
  return { mode, dir, opt };
}

/** mulberry32: a small, fast 32-bit generator whose sequence depends on the seed alone. */
export function mulberry32(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The random draws of one corpus: `rnd` in [0, 1), `pick` one of a list, `chance(p)` true with probability p. */
export function seeded(seed) {
  const rnd = mulberry32(seed);
  return { rnd, pick: (xs) => xs[Math.floor(rnd() * xs.length)], chance: (p) => rnd() < p };
}

/** Runs the oracle `bin` on `input` (JSON lines, a string or bytes) and returns its stdout; throws with its stderr when it fails. */
export function runOracle(bin, input, name = bin) {
  if (!bin) throw new Error(`no oracle: set the variable that names ${name}`);
  const r = spawnSync(bin, [], { input, maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${name}: ${r.stderr}`);
  return r.stdout;
}

/** `answer DIR`: the KubeVirt oracle named by ORACLE on DIR/cases.jsonl, its answers to DIR/answers.jsonl. */
export function answerWithKubevirtOracle(dir) {
  const answers = runOracle(process.env.ORACLE, readFileSync(path.join(dir, 'cases.jsonl')), 'ORACLE (itgen-oracle)');
  writeFileSync(path.join(dir, 'answers.jsonl'), answers);
  console.log(`${answers.toString().split('\n').filter(Boolean).length} answers`);
}

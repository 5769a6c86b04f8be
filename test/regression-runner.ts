/**
 * The replay of the earlier audits' corpora (test/regression/README.md): each case is copied into
 * a fresh directory, its `setup` builds the inputs, its `cmd` runs itgen under a time bound, and
 * what the case's `expect.json` asks is checked (exit code, time, peak memory, nothing forbidden
 * printed or written, no stack trace, no raw control characters, no absolute path of the project,
 * output/ and the directory outside the project unchanged), then its `check`, then its `teardown`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { removeDir, REPO } from './helpers';

interface Expect {
  readonly exit?: readonly number[];
  readonly max_seconds?: number;
  readonly max_rss_mb?: number;
  readonly forbidden?: readonly string[];
  readonly forbidden_regex?: readonly string[];
  readonly no_raw_controls?: boolean;
  readonly output_unchanged?: boolean;
  readonly outside_unchanged?: boolean;
  readonly allow_stack?: boolean;
  readonly allow_abs_path?: boolean;
  readonly exclusive?: boolean;
}

export interface CaseResult {
  readonly name: string;
  readonly status: 'pass' | 'fail' | 'skip';
  readonly reasons: readonly string[];
  readonly seconds: number;
}

const ALWAYS_FORBIDDEN = ['root:x:0:0', 'OUTSIDE_SECRET_MARKER'];
/** A JavaScript stack frame line, as node prints one. */
const STACK_FRAME = /^\s+at (?:.+ \()?(?:\/|node:|file:|<anonymous>)[^\n]*:\d+:\d+\)?\s*$/m;
/** C0 (but tab and newline), DEL, C1 and the bidi controls. */
const RAW_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** A digest of a tree: names, kinds, modes, link targets and contents, links not followed. */
function digestOf(dir: string): string {
  const hash = createHash('sha256');
  const visit = (p: string, rel: string): void => {
    let st;
    try {
      st = lstatSync(p);
    } catch {
      hash.update(`? ${rel}\n`);
      return;
    }
    if (st.isSymbolicLink()) hash.update(`link ${rel} ${readlinkSync(p)}\n`);
    else if (st.isDirectory()) {
      hash.update(`dir ${rel} ${st.mode}\n`);
      for (const n of readdirSync(p).sort()) visit(path.join(p, n), `${rel}/${n}`);
    } else if (st.isFile()) {
      hash.update(`file ${rel} ${st.mode} ${st.size}\n`);
      if (st.size <= 64 * 1024 * 1024) hash.update(readFileSync(p));
    } else hash.update(`other ${rel}\n`);
  };
  if (!existsSync(dir)) return 'absent';
  visit(dir, '.');
  return hash.digest('hex');
}

/** Every regular file under `dir` with its modification time (links not followed, bounded depth). */
function fileTimes(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  const visit = (p: string, depth: number): void => {
    if (depth > 40) return;
    let st;
    try {
      st = lstatSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) for (const n of readdirSync(p)) visit(path.join(p, n), depth + 1);
    else if (st.isFile()) out.set(p, st.mtimeMs * 1e3 + st.size);
  };
  visit(dir, 0);
  return out;
}

interface Run {
  readonly code: number | null;
  readonly output: string;
  readonly timedOut: boolean;
  readonly rssMb?: number;
}

/** A bash script of the case, in `cwd`, bounded by `seconds`; peak memory through GNU time when there is one. */
function runScript(script: string, cwd: string, env: NodeJS.ProcessEnv, seconds: number, measure = false): Promise<Run> {
  return new Promise((resolve) => {
    const rssFile = path.join(env['CASE_TMP']!, `rss-${path.basename(script)}`);
    const time = measure && existsSync('/usr/bin/time');
    const [cmd, args] = time ? ['/usr/bin/time', ['-f', '%M', '-o', rssFile, 'bash', script]] : ['bash', [script]];
    const child = spawn(cmd, args as string[], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    const keep = (b: Buffer): void => {
      // Bounded: a case that floods its output is judged on the first 32 MiB.
      if (size < 32 * 1024 * 1024) chunks.push(b);
      size += b.length;
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, seconds * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      // Whatever the script left running in its group goes too.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
      let rssMb: number | undefined;
      if (time && existsSync(rssFile)) {
        const kb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop());
        if (Number.isFinite(kb)) rssMb = Math.round(kb / 1024);
      }
      resolve({ code, output: Buffer.concat(chunks).toString('utf8'), timedOut, ...(rssMb !== undefined ? { rssMb } : {}) });
    });
  });
}

let hasPythonYaml: boolean | undefined;
/** python3 with PyYAML, asked once. */
export function pythonYaml(): boolean {
  return (hasPythonYaml ??= spawnSync('python3', ['-c', 'import yaml'], { timeout: 10_000 }).status === 0);
}

/** One case of `corpus`, run with the itgen at `itgen`. */
export async function runCase(corpus: string, name: string, itgen: string, absolutePaths = true): Promise<CaseResult> {
  const started = Date.now();
  const dir = path.join(corpus, name);
  const expect = JSON.parse(readFileSync(path.join(dir, 'expect.json'), 'utf8')) as Expect;
  const root = mkdtempSync(path.join(os.tmpdir(), 'itgen-regression-'));
  const work = path.join(root, 'work');
  const outside = path.join(root, 'outside');
  const caseTmp = path.join(root, 'tmp');
  mkdirSync(caseTmp);
  mkdirSync(path.join(outside, 'victim'), { recursive: true });
  writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE_SECRET_MARKER\n');
  writeFileSync(path.join(outside, 'victim', 'keep.txt'), 'OUTSIDE_SECRET_MARKER victim\n');
  cpSync(dir, work, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ITGEN: itgen,
    CORPUS: corpus,
    LIB: path.join(corpus, '_lib'),
    OUTSIDE: outside,
    CASE: name,
    CASE_TMP: caseTmp,
    WORK: work,
    NO_COLOR: '1',
  };
  const reasons: string[] = [];
  let status: CaseResult['status'] = 'pass';
  // A few cases build their inputs with Python and PyYAML: where those are missing, the case is
  // skipped (said once by the test), as a case skips itself for setpriv or mount (exit 77).
  const scripts = ['setup', 'cmd', 'check'].map((f) => path.join(dir, f)).filter((f) => existsSync(f));
  if (!pythonYaml() && scripts.some((f) => /python3|\.py\b/.test(readFileSync(f, 'utf8'))))
    return { name, status: 'skip', reasons: ['python3 with PyYAML is not installed'], seconds: 0 };
  try {
    if (existsSync(path.join(work, 'setup'))) {
      const s = await runScript(path.join(work, 'setup'), work, env, 600);
      if (s.code === 77) return { name, status: 'skip', reasons: ['setup: a tool it needs is missing'], seconds: (Date.now() - started) / 1000 };
      if (s.code !== 0) return { name, status: 'fail', reasons: [`setup exited ${s.code}: ${s.output.slice(-400)}`], seconds: (Date.now() - started) / 1000 };
    }
    const outputBefore = digestOf(path.join(work, 'output'));
    const outsideBefore = digestOf(outside);
    const timesBefore = fileTimes(work);
    const r = await runScript(path.join(work, 'cmd'), work, env, expect.max_seconds ?? 60, true);
    if (r.code === 77) return { name, status: 'skip', reasons: ['cmd: a tool it needs is missing'], seconds: (Date.now() - started) / 1000 };
    if (r.timedOut) reasons.push(`still running after ${expect.max_seconds ?? 60} s`);
    else if (!(expect.exit ?? [0]).includes(r.code ?? -1)) reasons.push(`exit ${r.code}, expected ${JSON.stringify(expect.exit ?? [0])}`);
    if (expect.max_rss_mb !== undefined && r.rssMb !== undefined && r.rssMb > expect.max_rss_mb)
      reasons.push(`peak RSS ${r.rssMb} MiB > ${expect.max_rss_mb} MiB`);
    const forbidden = [...ALWAYS_FORBIDDEN, ...(expect.forbidden ?? [])];
    for (const f of forbidden) if (r.output.includes(f)) reasons.push(`printed ${JSON.stringify(f)}`);
    for (const re of expect.forbidden_regex ?? []) if (new RegExp(re, 'm').test(r.output)) reasons.push(`printed what /${re}/ matches`);
    if (!expect.allow_stack && STACK_FRAME.test(r.output)) reasons.push('printed a stack trace');
    if (absolutePaths && !expect.allow_abs_path && r.output.includes(work)) reasons.push("printed the project's absolute path");
    if (expect.no_raw_controls && RAW_CONTROLS.test(r.output)) reasons.push('printed a raw control character');
    const timesAfter = fileTimes(work);
    for (const [file, t] of timesAfter) {
      if (timesBefore.get(file) === t) continue;
      let text: string;
      try {
        if (lstatSync(file).size > 32 * 1024 * 1024) continue;
        text = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      for (const f of forbidden) if (text.includes(f)) reasons.push(`wrote ${JSON.stringify(f)} into ${path.relative(work, file)}`);
    }
    if (expect.output_unchanged && digestOf(path.join(work, 'output')) !== outputBefore) reasons.push('output/ changed');
    if ((expect.outside_unchanged ?? true) && digestOf(outside) !== outsideBefore) reasons.push('the directory outside the project changed');
    if (existsSync(path.join(work, 'check'))) {
      const c = await runScript(path.join(work, 'check'), work, { ...env, CMD_EXIT: String(r.code) }, 120);
      if (c.code !== 0) reasons.push(`check exited ${c.code}: ${c.output.slice(-400)}`);
    }
    if (reasons.length > 0) {
      status = 'fail';
      reasons.push(`(cmd output: ${r.output.slice(-600)})`);
    }
  } finally {
    if (existsSync(path.join(work, 'teardown'))) await runScript(path.join(work, 'teardown'), work, env, 60);
    spawnSync('chmod', ['-R', 'u+rwX', root]);
    try {
      removeDir(root);
    } catch {
      rmSync(root, { recursive: true, force: true });
    }
  }
  return { name, status, reasons, seconds: (Date.now() - started) / 1000 };
}

/** Every case of `corpus` (directories not starting with `_`), `jobs` at a time; exclusive ones alone, after. */
/** `absolutePaths`: the corpus holds that itgen prints no absolute path of the project (adversarial-3's format). */
export async function runCorpus(corpus: string, itgen: string, jobs = 2, absolutePaths = true, part: Part = { index: 1, of: 1 }): Promise<CaseResult[]> {
  const names = readdirSync(corpus)
    .filter((n) => !n.startsWith('_') && existsSync(path.join(corpus, n, 'expect.json')))
    .sort()
    .filter((_, i) => i % part.of === part.index - 1);
  const exclusive = (n: string): boolean => (JSON.parse(readFileSync(path.join(corpus, n, 'expect.json'), 'utf8')) as Expect).exclusive === true;
  const queue = names.filter((n) => !exclusive(n));
  const results: CaseResult[] = [];
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      for (let n = queue.shift(); n !== undefined; n = queue.shift()) results.push(await runCase(corpus, n, itgen, absolutePaths));
    }),
  );
  for (const n of names.filter(exclusive)) results.push(await runCase(corpus, n, itgen, absolutePaths));
  return results.sort((a, b) => a.name.localeCompare(b.name));
}

/** Part `index` of `of` of a corpus: every `of`-th case (in name order), starting at the `index`-th. */
export interface Part {
  readonly index: number;
  readonly of: number;
}

/**
 * One part of a corpus of test/regression/ as a test (a corpus is split over several test files so
 * that jest runs the parts side by side, or in shards): every case passes, or is skipped for a tool
 * this machine lacks (said in one line); where .ci/run installs python3-yaml, it must be there.
 */
export function replayCorpusTest(corpus: 'adversarial-2' | 'adversarial-3', absolutePaths: boolean, part: Part): void {
  it(`${corpus} (part ${part.index} of ${part.of}): every case of the earlier audit passes`, async () => {
    const results = await runCorpus(path.join(__dirname, 'regression', corpus, 'corpus'), path.join(REPO, 'bin', 'itgen'), 1, absolutePaths, part);
    expect(results.length).toBeGreaterThan(60 / part.of);
    const failed = results.filter((r) => r.status === 'fail').map((r) => `${r.name}: ${r.reasons.join('; ').slice(0, 1500)}`);
    expect(failed).toEqual([]);
    const skipped = results.filter((r) => r.status === 'skip');
    if (skipped.length > 0) process.stderr.write(`${corpus}: ${skipped.length} skipped (${[...new Set(skipped.flatMap((r) => r.reasons))].join('; ')})\n`);
    if (process.env['ITGEN_REQUIRE_PYTHON3_YAML']) expect(pythonYaml()).toBe(true);
  }, 900_000);
}

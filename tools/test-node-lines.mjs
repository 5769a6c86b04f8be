#!/usr/bin/env node
// Runs the test suite on other active Node LTS lines (default 22 and 24), each taken from the npm
// package `node` (npx -p node@<line>): the startup snapshot is built (or skipped with a note) for
// that node, then jest runs under it, the launcher's fallback included. Prints one line per Node
// line; exit 1 if any suite fails. Usage: node tools/test-node-lines.mjs [22 24 ...]
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lines = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['22', '24'];
let failed = false;
for (const line of lines) {
  const which = spawnSync('npx', ['-y', '-p', `node@${line}`, 'which', 'node'], { encoding: 'utf8', cwd: '/' });
  const node = which.stdout.trim().split('\n').pop();
  if (which.status !== 0 || !node) {
    console.log(`node ${line}: cannot install the npm package node@${line}: ${which.stderr.trim().split('\n').pop()}`);
    failed = true;
    continue;
  }
  const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}` };
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const snapshot = spawnSync(node, [path.join(repo, 'tools', 'build-snapshot.mjs')], { cwd: repo, env, encoding: 'utf8' });
  const t0 = Date.now();
  const jest = spawnSync(node, [path.join(repo, 'node_modules', 'jest', 'bin', 'jest.js')], { cwd: repo, env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const summary =
    `${jest.stdout}${jest.stderr}`
      .split('\n')
      .filter((l) => /^Tests:/.test(l))
      .pop() ?? 'no summary';
  console.log(`node ${version}: ${summary.replace(/\s+/g, ' ')} in ${((Date.now() - t0) / 1000).toFixed(0)} s; snapshot: ${snapshot.stderr.trim() || 'built'}`);
  if (jest.status !== 0) {
    failed = true;
    console.log(
      `${jest.stdout}${jest.stderr}`
        .split('\n')
        .filter((l) => /●.*›/.test(l))
        .join('\n'),
    );
  }
}
// Each build above took over bin/itgen's shortcut (dist/itgen-node.stamp names the blob of the node
// that built last): give it back to the node running this script.
spawnSync(process.execPath, [path.join(repo, 'tools', 'build-snapshot.mjs')], { cwd: repo, stdio: 'ignore' });
process.exitCode = failed ? 1 : 0;

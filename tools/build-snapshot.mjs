#!/usr/bin/env node
// Builds dist/itgen-<node version>.blob, a V8 startup snapshot of the CLI, from dist/itgen.cjs (the
// bundle tools/bundle.mjs makes at build and pack time) with node alone: `npm install` runs this as
// postinstall, and bin/itgen starts from the blob when it matches the running node. The snapshot is
// an optimisation only: any failure here leaves the plain bundle in place and fails nothing.
// Run it again after changing node lines (bin/itgen says so once).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(repo, 'dist');
const bundle = path.join(dist, 'itgen.cjs');
const blob = path.join(dist, `itgen-${process.version}.blob`);
// Why there is no snapshot for this node, for people and for test/launcher.test.ts.
const note = path.join(dist, `itgen-${process.version}.snapshot-skipped`);

function skip(why) {
  console.error(`itgen: startup snapshot skipped (${why}); the CLI runs from dist/itgen.cjs`);
  if (existsSync(dist)) writeFileSync(note, `${why}\n`);
  process.exit(0);
}

// npm runs postinstall before prepare in a clone: nothing is bundled yet, prepare does it next.
if (!existsSync(bundle)) {
  console.error('itgen: startup snapshot not built yet (dist/itgen.cjs is made by npm run build)');
  process.exit(0);
}
if (process.env.ITGEN_NO_SNAPSHOT) skip('ITGEN_NO_SNAPSHOT is set');
// bin/itgen's shortcut to the blob of the node that built last: its name, stamped with that node
// binary's modification time (the launcher compares the time of the first node on PATH with it).
const stamp = path.join(dist, 'itgen-node.stamp');
const stampNames = (name) => {
  try {
    return readFileSync(stamp, 'utf8').trim() === name;
  } catch {
    return false;
  }
};
// Only this node's: a clone may be used with several node lines, each with its own snapshot.
if (stampNames(path.basename(blob))) rmSync(stamp, { force: true });
rmSync(blob, { force: true });
rmSync(note, { force: true });
rmSync(path.join(dist, `itgen-${process.version}.snapshot-hint`), { force: true });
const tmp = `${blob}.tmp`;
const r = spawnSync(process.execPath, ['--snapshot-blob', tmp, '--build-snapshot', bundle], { cwd: dist, encoding: 'utf8' });
if (r.status !== 0) {
  rmSync(tmp, { force: true });
  skip(`node --build-snapshot failed: ${(r.stderr || '').split('\n').find((l) => l.includes('Error')) ?? `exit ${r.status}`}`);
}
// Check the blob answers before installing it.
const probe = spawnSync(process.execPath, ['--snapshot-blob', tmp, 'help'], { encoding: 'utf8' });
if (probe.status !== 0 || !probe.stdout.includes('usage: itgen')) {
  rmSync(tmp, { force: true });
  skip('the snapshot does not start');
}
renameSync(tmp, blob);
try {
  writeFileSync(stamp, `${path.basename(blob)}\n`);
  // touch copies the time to the nanosecond, as the shell's -nt compares it; utimes has only
  // microseconds, and a stamp that differs merely costs the launcher its shortcut.
  if (spawnSync('touch', ['-r', process.execPath, stamp]).status !== 0) {
    const node = statSync(process.execPath);
    utimesSync(stamp, node.atime, node.mtime);
  }
} catch {
  rmSync(stamp, { force: true }); // the launcher asks node its version instead
}

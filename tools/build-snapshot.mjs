#!/usr/bin/env node
// Builds dist/itgen-<node version>.blob, a V8 startup snapshot of the CLI, after `tsc`
// (run by npm's `prepare`). bin/itgen starts from it when it matches the running node; without
// it, bin/itgen runs dist/cli/main.js. The snapshot is an optimisation only: any failure here
// leaves the plain CLI in place and does not fail the install.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(repo, 'dist');
const bundle = path.join(dist, 'itgen-snapshot-entry.js');
const blob = path.join(dist, `itgen-${process.version}.blob`);
// Why there is no snapshot for this node, for people and for test/launcher.test.ts.
const note = path.join(dist, `itgen-${process.version}.snapshot-skipped`);

function skip(why) {
  console.error(`itgen: startup snapshot skipped (${why}); the CLI runs from dist/cli/main.js`);
  if (existsSync(dist)) writeFileSync(note, `${why}\n`);
  process.exit(0);
}

// npm runs postinstall before prepare in a clone: nothing is compiled yet, prepare builds it next.
if (!existsSync(path.join(dist, 'cli', 'snapshot.js'))) {
  console.error('itgen: startup snapshot not built yet (dist/ is compiled by prepare)');
  process.exit(0);
}

if (process.env.ITGEN_NO_SNAPSHOT) skip('ITGEN_NO_SNAPSHOT is set');
let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  skip('esbuild is not installed');
}
// Only this node's: a clone may be used with several node lines, each with its own snapshot.
rmSync(blob, { force: true });
rmSync(note, { force: true });
try {
  // The snapshot builder can only require built-in modules: bundle everything into one file.
  await esbuild.build({
    entryPoints: [path.join(dist, 'cli', 'snapshot.js')],
    bundle: true,
    platform: 'node',
    format: 'iife',
    minify: true,
    keepNames: true,
    target: `node${process.versions.node.split('.')[0]}`,
    outfile: bundle,
    logLevel: 'silent',
    // Handlebars uses source-map only to map precompiled templates, which itgen never asks for;
    // without it Handlebars falls back to its own small code builder.
    external: ['source-map'],
    plugins: [
      {
        // zod bundles every locale's error messages; itgen uses only English, and each locale
        // would be deserialized on every start.
        name: 'zod-english-only',
        setup(build) {
          build.onResolve({ filter: /locales\/index\.c?js$/ }, (args) =>
            /[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'itgen-stub' } : undefined,
          );
          build.onLoad({ filter: /.*/, namespace: 'itgen-stub' }, () => ({
            // zod may sit in this package's node_modules (a clone) or be hoisted beside it (an install).
            contents: `module.exports = { en: require(${JSON.stringify(createRequire(path.join(repo, 'package.json')).resolve('zod/v4/locales/en.cjs'))}).default };`,
            loader: 'js',
            resolveDir: repo,
          }));
        },
      },
    ],
  });
} catch (e) {
  skip(`bundling failed: ${e.message}`);
}
const tmp = `${blob}.tmp`;
const r = spawnSync(process.execPath, ['--snapshot-blob', tmp, '--build-snapshot', bundle], { cwd: dist, encoding: 'utf8' });
rmSync(bundle, { force: true });
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

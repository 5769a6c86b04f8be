#!/usr/bin/env node
// Bundles the compiled dist/bundle.js and everything it imports into dist/itgen.cjs, the file the npm
// package runs, and the libraries only some runs load (zod, Handlebars, the MCP SDK) into
// dist/itgen-libs.cjs beside it: the installed package needs no dependency and no compiler, and
// `npm install` builds the startup snapshot from dist/itgen.cjs with node alone
// (tools/build-snapshot.mjs). Run by `npm run build` (and so by prepare and prepack); needs esbuild,
// a development dependency.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(repo, 'dist');
// The library's export names: the bundle defines them as getters that load it on first use.
const requireDist = createRequire(import.meta.url);
const libraryExports = Object.keys(requireDist(path.join(dist, 'index.js'))).filter((n) => n !== '__esModule');
// The schemas as data for the fast parser (src/schema/fast.ts), so that a sound catalog is read
// without zod: made here from the compiled zod schemas, so it always matches them.
const schemaModel = requireDist(path.join(dist, 'schema', 'model.js')).schemaModel();
// The build's identity: a digest of the compiled sources, which the judge's cache between runs
// (src/load/judged-cache.ts) keys its files by, so that no answer of other code is ever read.
const build = createHash('sha256');
for (const f of readdirSync(dist, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.js'))
  .sort()) {
  build
    .update(f)
    .update('\0')
    .update(readFileSync(path.join(dist, f)))
    .update('\0');
}
const outputSchemas = Object.fromEntries(
  readdirSync(path.join(repo, 'schema', 'output'))
    .filter((f) => f.startsWith('mcp-'))
    .sort()
    .map((f) => [f.replace(/\.schema\.json$/, ''), JSON.parse(readFileSync(path.join(repo, 'schema', 'output', f), 'utf8'))]),
);
// The libraries' own bundle: zod and Handlebars marked when loaded, zod with English messages only.
const libraryPlugins = [
  {
    // Marks the entries of zod and Handlebars, which a sound catalog never needs, so that the
    // snapshot build can tell they were loaded (src/snapshot.ts).
    name: 'mark-lazy-libraries',
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/](zod[\\/]index\.cjs|handlebars[\\/]lib[\\/]index\.js)$/ }, async (args) => ({
        contents: `${await readFile(args.path, 'utf8')}\nglobalThis[Symbol.for('itgen.loaded.${/[\\/]zod[\\/]/.test(args.path) ? 'zod' : 'handlebars'}')] = true;\n`,
        loader: 'js',
        resolveDir: path.dirname(args.path),
      }));
    },
  },
  {
    // zod bundles every locale's error messages; itgen uses only English, and each locale would
    // be deserialized on every start.
    name: 'zod-english-only',
    setup(build) {
      build.onResolve({ filter: /locales\/index\.c?js$/ }, (args) =>
        /[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'itgen-stub' } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'itgen-stub' }, () => ({
        contents: `module.exports = { en: require(${JSON.stringify(createRequire(path.join(repo, 'package.json')).resolve('zod/v4/locales/en.cjs'))}).default };`,
        loader: 'js',
        resolveDir: repo,
      }));
    },
  },
];

/**
 * The libraries only some runs load (zod and its subpaths, Handlebars, the MCP SDK with Ajv) are
 * bundled apart, in dist/itgen-libs.cjs, which the main bundle loads on first use: their source
 * (about 1 MB of the 2) is then no part of the startup snapshot's heap, which every run
 * deserializes. Each import of one of them in the main bundle becomes a stub that takes it from
 * there; the specifiers met are what the second bundle exports.
 */
const APART = /^(zod(\/.*)?|handlebars|@modelcontextprotocol\/sdk\/.+)$/;
const apart = new Set();
const librariesApart = {
  name: 'libraries-apart',
  setup(build) {
    build.onResolve({ filter: APART }, (args) => {
      apart.add(args.path);
      return { path: args.path, namespace: 'itgen-apart' };
    });
    build.onLoad({ filter: /.*/, namespace: 'itgen-apart' }, (args) => ({
      contents: `module.exports = require('itgen-libs-loader')(${JSON.stringify(args.path)});`,
      loader: 'js',
      resolveDir: repo,
    }));
    // Where dist/ is: beside the startup snapshot's blob when running from one (node --snapshot-blob
    // PATH), else beside this bundle.
    build.onResolve({ filter: /^itgen-libs-loader$/ }, () => ({ path: 'loader', namespace: 'itgen-libs-loader' }));
    build.onLoad({ filter: /.*/, namespace: 'itgen-libs-loader' }, () => ({
      contents: `let libs;
module.exports = (spec) => {
  if (libs === undefined) {
    const path = require('node:path');
    const i = process.execArgv.indexOf('--snapshot-blob');
    const dir = i >= 0 && process.execArgv[i + 1] ? path.dirname(path.resolve(process.execArgv[i + 1])) : __dirname;
    libs = require('node:module').createRequire(path.join(dir, 'itgen.cjs'))('./itgen-libs.cjs');
  }
  const lib = libs[spec];
  if (lib === undefined) throw new Error('itgen: ' + spec + ' is not in dist/itgen-libs.cjs');
  return lib;
};
`,
      loader: 'js',
      resolveDir: repo,
    }));
  },
};

/** What both bundles are built with. */
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  minify: !process.env.ITGEN_BUNDLE_READABLE,
  target: 'node20',
  logLevel: 'warning',
  // Handlebars uses source-map only to map precompiled templates, which itgen never asks for;
  // without it Handlebars falls back to its own small code builder.
  external: ['source-map'],
};

await esbuild.build({
  ...common,
  entryPoints: [path.join(dist, 'bundle.js')],
  // No keepNames: esbuild would wrap every function in a call that defines its `name`, 1,700 own
  // properties that the snapshot carries and deserializes on each start (2 ms). itgen reads no
  // function's name; the readable build (ITGEN_BUNDLE_READABLE, for profiles) is not minified and
  // so keeps every name anyway.
  keepNames: false,
  outfile: path.join(dist, 'itgen.cjs'),
  define: {
    ITGEN_LIBRARY_EXPORTS: JSON.stringify(libraryExports),
    ITGEN_SCHEMA_MODEL: JSON.stringify(JSON.stringify(schemaModel)),
    ITGEN_BUILD: JSON.stringify(build.digest('hex')),
    // The MCP tools' output schemas (generated from their types: tools/output-schemas.mjs), which `itgen mcp` publishes.
    ITGEN_OUTPUT_SCHEMAS: JSON.stringify(JSON.stringify(outputSchemas)),
  },
  // node --build-snapshot runs its entry without `module` and `exports`; required as a library, the
  // file has both.
  banner: { js: "'use strict';\nvar module = typeof module === 'object' && module ? module : { exports: {} };\nvar exports = module.exports;" },
  plugins: [librariesApart],
});
// The libraries apart: one bundle exporting each specifier the main bundle met, so that they share
// one copy of zod. Each library loads on first use, not with the others (a schema error needs zod, not the MCP SDK).
writeFileSync(
  path.join(dist, 'itgen-libs-entry.cjs'),
  [...apart]
    .sort()
    .map((spec) => `Object.defineProperty(exports, ${JSON.stringify(spec)}, { enumerable: true, get: () => require(${JSON.stringify(spec)}) });\n`)
    .join(''),
);
await esbuild.build({
  ...common,
  entryPoints: [path.join(dist, 'itgen-libs-entry.cjs')],
  outfile: path.join(dist, 'itgen-libs.cjs'),
  plugins: libraryPlugins,
});
rmSync(path.join(dist, 'itgen-libs-entry.cjs'));
// `require('itgen/stages')`: the compiler's stages, out of the same bundle (src/bundle.ts).
writeFileSync(
  path.join(dist, 'stages.cjs'),
  "'use strict';\n// itgen/stages: the compiler's stages (src/stages.ts), out of the one bundle.\nmodule.exports = require('./itgen.cjs')[Symbol.for('itgen.stages')];\n",
);

/**
 * The file the npm package runs (dist/itgen.cjs, bundled at pack time by tools/bundle.mjs, with the
 * libraries only some runs load apart in dist/itgen-libs.cjs, loaded on first use): the library
 * (`require('itgen')`), the CLI (`main`, which bin/itgen calls) and the entry of the
 * V8 startup snapshot that `npm install` builds with node alone (tools/build-snapshot.mjs). While
 * node builds the snapshot it warms the compiler up and names `main` as what a start runs.
 */
import { startupSnapshot } from 'node:v8';
import type * as Library from './index';
import { prepareSnapshot } from './snapshot';

export { main } from './cli/main';

/** The library's export names, written in by tools/bundle.mjs (absent when this file runs unbundled). */
declare const ITGEN_LIBRARY_EXPORTS: readonly string[] | undefined;

// The library loads on first use of one of its exports, not with the CLI: it exports the zod
// schemas, which a run of the CLI on a sound project never needs (nor its startup snapshot holds).
let library: typeof Library | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const load = (): typeof Library => (library ??= require('./index') as typeof Library);
const names = typeof ITGEN_LIBRARY_EXPORTS === 'undefined' ? Object.keys(load()) : ITGEN_LIBRARY_EXPORTS;
for (const name of names) {
  if (name === 'main' || name === '__esModule') continue;
  Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name as keyof typeof Library] });
}

// `itgen/stages` (dist/stages.cjs, written by tools/bundle.mjs) takes the compiler's stages from
// here, so that the package holds one copy of the code; a symbol, so that it is no name of `itgen`.
// eslint-disable-next-line @typescript-eslint/no-require-imports
Object.defineProperty(exports, Symbol.for('itgen.stages'), { get: () => require('./stages') as unknown });

if (startupSnapshot.isBuildingSnapshot()) prepareSnapshot();

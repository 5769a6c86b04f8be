/**
 * The one file the npm package runs (dist/itgen.cjs, bundled at pack time by tools/bundle.mjs):
 * the library (`require('itgen')`), the CLI (`main`, which bin/itgen calls) and the entry of the
 * V8 startup snapshot that `npm install` builds with node alone (tools/build-snapshot.mjs). While
 * node builds the snapshot it warms the compiler up and names `main` as what a start runs.
 */
import { startupSnapshot } from 'node:v8';
import { prepareSnapshot } from './cli/snapshot';

export * from './index';
export { main } from './cli/main';

if (startupSnapshot.isBuildingSnapshot()) prepareSnapshot();

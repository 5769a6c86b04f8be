/**
 * Every test runs with the fast parser's model installed, as the bundle (tools/bundle.mjs) and so
 * the CLI run with it: made here from the zod schemas, as the bundle makes it.
 */
import { installModel } from '../src/schema/fast';
import { schemaModel } from '../src/schema/model';

installModel(schemaModel());

// The CLI keeps the judge's catalog answers between runs (src/load/judged-cache.ts) under
// $XDG_CACHE_HOME: the CLIs the tests start keep theirs apart from the user's.
import os from 'node:os';
import path from 'node:path';
process.env['XDG_CACHE_HOME'] ??= path.join(os.tmpdir(), 'itgen-test-cache');

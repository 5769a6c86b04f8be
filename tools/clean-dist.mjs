#!/usr/bin/env node
// Removes what tsc compiled from a source that is gone (dist/x.js, x.d.ts of a deleted or moved
// src/x.ts): tsc never deletes an output, and a stale dist/pipeline.js would shadow the
// dist/pipeline/index.js of a module turned into a folder. Run by `npm run build` before tsc.
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(repo, 'dist');
const src = path.join(repo, 'src');
let removed = 0;
function walk(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      walk(p);
      if (readdirSync(p).length === 0) rmSync(p, { recursive: true });
      continue;
    }
    const m = /^(.*)\.(js|d\.ts|js\.map)$/.exec(e.name);
    if (!m) continue;
    const rel = path.relative(dist, path.join(dir, m[1]));
    // The bundle and its entry files are tools/bundle.mjs's, not tsc's.
    if (['itgen', 'stages'].includes(rel) && e.name.endsWith('.cjs')) continue;
    if (!existsSync(path.join(src, `${rel}.ts`))) {
      rmSync(p);
      removed++;
    }
  }
}
if (existsSync(dist) && statSync(dist).isDirectory()) walk(dist);
if (removed > 0) console.error(`clean-dist: removed ${removed} files compiled from sources that are gone`);

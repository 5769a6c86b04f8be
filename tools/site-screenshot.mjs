#!/usr/bin/env node
// The README's screenshot of the catalog explorer: the page of common-instancetypes, filtered to
// 2 to 4 vCPUs and sorted by memory, with two instance types compared, in Debian's chromium.
//   node tools/site-screenshot.mjs   (after npm run build) -> docs/images/explorer.png
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'itgen-shot-'));
try {
  const r = spawnSync(path.join(repo, 'bin', 'itgen'), ['site', '--out', work, '-g', 'generators/common-instancetypes.yaml'], { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 820 }, deviceScaleFactor: 1 });
  await page.goto(`file://${path.join(work, 'index.html')}#cpu=2..4&sort=memory&dir=desc&cmp=u1.large%2Ccx1.large`);
  await page.waitForSelector('html[data-ready="1"]');
  await page.screenshot({ path: path.join(repo, 'docs', 'images', 'explorer.png') });
  await browser.close();
} finally {
  rmSync(work, { recursive: true, force: true });
}

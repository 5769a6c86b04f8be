/**
 * The catalog explorer as a person uses it, in a real browser: Debian's chromium driven by
 * playwright-core (.ci/run installs chromium and sets ITGEN_REQUIRE_CHROMIUM). The page's filters
 * are held to `itgen select`'s (src/site/filter.ts, which the page's script bundles) on the same data.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { selectInstancetypes, type SelectFilter, type SiteData } from '../src/site';
import { runInProcess, SMALL_CATALOG, writeFiles } from './e2e-helpers';

const REPO = path.resolve(__dirname, '..');
const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env['ITGEN_REQUIRE_CHROMIUM']) throw new Error('chromium is required here: apt-get install chromium');
const describeBrowser = available ? describe : describe.skip;

/** The data inline in a page, as the page reads it. */
function dataOf(file: string): SiteData {
  const html = readFileSync(file, 'utf8');
  const m = /<script type="application\/json" id="itgen-data">([^<]*)<\/script>/.exec(html)!;
  return JSON.parse(m[1]!) as SiteData;
}

describeBrowser('the catalog explorer in chromium', () => {
  let browser: Browser;
  let dir: string;
  let upstream: string;
  let hostile: string;
  const errors: string[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-site-'));
    const r = runInProcess(REPO, ['site', '--out', path.join(dir, 'upstream'), '-g', 'generators/common-instancetypes.yaml']);
    expect(r.code).toBe(0);
    upstream = path.join(dir, 'upstream', 'index.html');
    // A catalog a hostile pull request wrote: markup and script in every text it controls.
    const project = path.join(dir, 'hostile');
    writeFiles(project, {
      ...SMALL_CATALOG,
      'catalogs/small/u1.yaml': SMALL_CATALOG['catalogs/small/u1.yaml']!.replace(
        'displayName: Universal',
        'displayName: "<img src=x onerror=\\"window.__pwned=1\\">"',
      ).replace(
        'description: Universal instance types, 2Gi per vCPU',
        'description: "</script><script>window.__pwned=2</script><b onmouseover=alert(1)>bold</b> \\u2028 <!--"',
      ),
      'catalogs/small/preferences.yaml': SMALL_CATALOG['catalogs/small/preferences.yaml']!.replace(
        'displayName: Linux',
        'displayName: "<svg onload=alert(3)>"',
      ),
    });
    const h = runInProcess(project, ['site', '--out', 'site', '--title', '<script>window.__pwned=3</script>']);
    expect(h.code).toBe(0);
    hostile = path.join(project, 'site', 'index.html');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(file: string, hash = '', viewport = { width: 1280, height: 900 }): Promise<Page> {
    const page = await browser.newPage({ viewport, acceptDownloads: true });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => {
      errors.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    await page.goto(`file://${file}${hash}`);
    await page.waitForSelector('html[data-ready="1"]');
    return page;
  }
  const names = (page: Page): Promise<string[]> => page.$$eval('#tbody tr', (rows) => rows.map((r) => r.getAttribute('data-name') ?? ''));
  const expected = (f: SelectFilter): string[] => selectInstancetypes(dataOf(upstream), f).map((r) => r.name);

  it('opens from file:// under its own Content-Security-Policy, with no error, and the page of common-instancetypes is under 300 KB', async () => {
    const page = await open(upstream);
    expect(statSync(upstream).size).toBeLessThan(300 * 1024);
    expect(await page.textContent('h1')).toBe('Instance types of common-instancetypes');
    expect(await page.textContent('#status')).toBe(`${expected({}).length} of 65 instance types`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("filters as itgen select does: ranges, features, a preference's admitted instance types, words", async () => {
    const page = await open(upstream);
    await page.fill('#f-cpu-min', '4');
    await page.fill('#f-cpu-max', '8');
    await page.fill('#f-mem-min', '16');
    expect(await names(page)).toEqual(expected({ cpu: [4, 8], memory: [16 * 2 ** 30, undefined] }));
    await page.check('#f-ded');
    expect(await names(page)).toEqual(expected({ cpu: [4, 8], memory: [16 * 2 ** 30, undefined], dedicated: true }));
    await page.click('#reset');
    await page.selectOption('#f-pref', 'windows.11');
    await page.selectOption('#f-hp', '1Gi');
    expect(await names(page)).toEqual(expected({ preference: 'windows.11', hugepages: '1Gi' }));
    expect((await names(page)).length).toBeGreaterThan(0);
    await page.click('#reset');
    await page.fill('#f-q', 'realtime');
    expect(await names(page)).toEqual(expected({ text: 'realtime' }));
    await page.close();
  });

  it('sorts by a column, both ways, from the keyboard too', async () => {
    const page = await open(upstream);
    await page.click('th button[data-col="memory"]');
    const asc = await page.$$eval('#tbody tr', (rows) => rows.map((r) => r.getAttribute('data-name')));
    const data = dataOf(upstream);
    const mem = (n: string | null): number => data.instancetypes.find((r) => r.name === n)!.memoryBytes;
    expect(asc.map(mem)).toEqual([...asc.map(mem)].sort((a, b) => a - b));
    expect(await page.getAttribute('th:has(button[data-col="memory"])', 'aria-sort')).toBe('ascending');
    await page.focus('th button[data-col="memory"]');
    await page.keyboard.press('Enter');
    const desc = await page.$$eval('#tbody tr', (rows) => rows.map((r) => r.getAttribute('data-name')));
    expect(desc.map(mem)).toEqual([...asc.map(mem)].sort((a, b) => b - a));
    expect(await page.getAttribute('th:has(button[data-col="memory"])', 'aria-sort')).toBe('descending');
    await page.close();
  });

  it('compares 2 to 4 side by side, differences marked, and a shared link opens the same view', async () => {
    const page = await open(upstream);
    await page.fill('#f-cpu-min', '2');
    await page.fill('#f-cpu-max', '2');
    await page.check('tr[data-name="u1.large"] input[type=checkbox]');
    await page.check('tr[data-name="cx1.large"] input[type=checkbox]');
    const cells = await page.$$eval('#compare tr', (rows) =>
      rows.map((r) => [...r.children].map((c) => `${c.textContent ?? ''}${c.classList.contains('diff') ? '*' : ''}`)),
    );
    expect(cells[0]).toEqual(['Attribute', 'u1.large', 'cx1.large']);
    expect(cells.find((r) => r[0] === 'vCPUs')).toEqual(['vCPUs', '2', '2']);
    expect(cells.find((r) => r[0] === 'Dedicated CPUs')).toEqual(['Dedicated CPUs', '*', 'yes*']);
    const link = page.url();
    expect(link).toContain('cpu=2..2');
    expect(link).toContain('cmp=u1.large%2Ccx1.large');
    const again = await open(upstream, link.slice(link.indexOf('#')));
    expect(await names(again)).toEqual(await names(page));
    expect(await again.inputValue('#f-cpu-min')).toBe('2');
    expect(await again.$$eval('#compare th[scope=col]', (th) => th.map((t) => t.textContent))).toEqual(['Attribute', 'u1.large', 'cx1.large']);
    await page.close();
    await again.close();
  });

  it('downloads the rows shown as CSV and JSON, and gives a VM snippet per instance type', async () => {
    const page = await open(upstream, '#fam=u1');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#csv')]);
    const file = path.join(dir, 'rows.csv');
    await download.saveAs(file);
    const lines = readFileSync(file, 'utf8').trim().split('\r\n');
    expect(lines[0]).toBe('name,generator,family,class,cpu,memory,hugepages,dedicatedCpu,gpus,architectures,podCpu,podMemory,deprecated,replacement');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(expected({ families: ['u1'] }));
    const [json] = await Promise.all([page.waitForEvent('download'), page.click('#json')]);
    await json.saveAs(path.join(dir, 'rows.json'));
    expect((JSON.parse(readFileSync(path.join(dir, 'rows.json'), 'utf8')) as unknown[]).length).toBe(lines.length - 1);
    await page.click('tr[data-name="u1.medium"] td button');
    await page.selectOption('#snippet-pref', 'fedora');
    const snippet = await page.textContent('#snippet');
    expect(snippet).toContain('  instancetype:\n    name: "u1.medium"\n  preference:\n    name: "fedora"\n');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('lists each preference with the instance types KubeVirt admits it with, and its reason for the others', async () => {
    const page = await open(upstream);
    const summary = await page.textContent('details[data-preference="windows.11"] summary');
    expect(summary).toMatch(/^windows\.11 — .*admitted with \d+ instance types/);
    await page.click('details[data-preference="windows.11"] summary');
    // The page decides the pairs when the list opens (its toggle event): wait for them.
    await page.waitForSelector('details[data-preference="windows.11"] li');
    const refused = await page.$$eval('details[data-preference="windows.11"] li', (li) => li.map((l) => l.textContent ?? ''));
    expect(refused.some((r) => /u1\.small.*: /.test(r))).toBe(true);
    await page.close();
  });

  it('runs no script a catalog brings: markup in names, descriptions and the title is text', async () => {
    const page = await open(hostile);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await page.textContent('h1')).toBe('<script>window.__pwned=3</script>');
    await page.click('tr[data-name="u1.small"] td button');
    expect(await page.textContent('#details h2')).toBe('u1.small — <img src=x onerror="window.__pwned=1">');
    expect(await page.$$('#details img, #details b, #preferences svg')).toEqual([]);
    await page.hover('#details');
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(errors.filter((e) => e.startsWith('dialog'))).toEqual([]);
    await page.close();
  });

  it('shows the release history the lock records', async () => {
    const project = path.join(dir, 'released');
    writeFiles(project, SMALL_CATALOG);
    expect(runInProcess(project, ['generate']).code).toBe(0);
    expect(runInProcess(project, ['release', '--version', 'v1.0.0']).code).toBe(0);
    expect(runInProcess(project, ['site', '--out', 'site']).code).toBe(0);
    const page = await open(path.join(project, 'site', 'index.html'));
    expect(await page.textContent('#history summary')).toBe('small v1.0.0');
    await page.click('#history summary');
    expect(await page.textContent('#history details p')).toMatch(/^Added: u1\.large \(2 vCPUs, 4Gi\); u1\.small \(1 vCPU, 2Gi\)/);
    await page.close();
  });

  it('fits a phone: nothing wider than the screen but the table, which scrolls', async () => {
    const page = await open(upstream, '', { width: 375, height: 740 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    expect(await page.evaluate("(() => { const w = document.getElementById('table'); return w.scrollWidth > w.clientWidth; })()")).toBe(true);
    await page.close();
  });

  it('refuses to replace an index.html it did not write', () => {
    const other = path.join(dir, 'other');
    writeFiles(other, { 'index.html': '<html>the team page</html>' });
    const r = runInProcess(REPO, ['site', '--out', other, '-g', 'generators/common-instancetypes.yaml']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('IT1010');
    expect(readFileSync(path.join(other, 'index.html'), 'utf8')).toBe('<html>the team page</html>');
    writeFileSync(path.join(other, 'keep.txt'), 'x');
  });
});

describe("the explorer's script", () => {
  it('is what tools/build-explorer.mjs bundles of src/site/explorer.ts and the filter it shares with select', () => {
    const r = spawnSync(process.execPath, [path.join(REPO, 'tools', 'build-explorer.mjs'), '--check'], { encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([0, '']);
  });
});

/**
 * The README and the docs/ pages are walked by newcomers: every relative link names a file of the
 * repository and, with `#anchor`, a heading of it (GitHub's anchors); nothing points outside.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO } from './helpers';

const PAGES = [
  'README.md',
  ...readdirSync(path.join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');

function anchors(file: string): Set<string> {
  const out = new Set<string>();
  let fence = false;
  for (const line of readFileSync(path.join(REPO, file), 'utf8').split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    const m = !fence ? /^#{1,6} (.*)$/.exec(line) : null;
    if (m) out.add(slug(m[1]!));
    // An explicit HTML anchor (`<a id="x"></a>`) names a place too.
    for (const a of line.matchAll(/<a id="([^"]+)"><\/a>/g)) out.add(a[1]!);
  }
  return out;
}

describe('links in the README and docs/', () => {
  it.each(PAGES)('%s: every relative link resolves, and stays inside the repository', (page) => {
    const text = readFileSync(path.join(REPO, page), 'utf8');
    const broken: string[] = [];
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target)) continue;
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
      if (resolved.startsWith('..') || !existsSync(path.join(REPO, resolved))) broken.push(`${target}: no such file`);
      else if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) broken.push(`${target}: no such heading`);
    }
    expect(broken).toEqual([]);
  });

  it('the README is a front door: under about 300 lines', () => {
    expect(readFileSync(path.join(REPO, 'README.md'), 'utf8').split('\n').length).toBeLessThan(320);
  });
});

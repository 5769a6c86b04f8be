/**
 * The review comment is rendered by GitHub from Markdown a pull request can fill with text: every
 * input text goes through `md` (a code span), and a real GitHub-flavoured Markdown renderer
 * (Debian's cmark-gfm with GitHub's table and autolink extensions, which .ci/run installs) must find
 * no element, link, image, mention or reference that the template did not put there, and every
 * table row must keep the header's cell count. fast-check draws hostile names, kinds, values, field
 * paths, titles and diagnostics.
 */
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { diag } from '../src/diagnostics';
import { boundedComment, diffMarkdown, impactMarkdown, md, problemsMarkdown, type ReviewedChange, type VmImpact } from '../src/release/review';
import { notesMarkdown } from '../src/release/notes';
import { runs, toolPresent } from './helpers';

function render(markdown: string): string {
  const r = spawnSync('cmark-gfm', ['--extension', 'table', '--extension', 'autolink', '--extension', 'strikethrough', '--extension', 'tagfilter'], {
    input: markdown,
    encoding: 'utf8',
  });
  if (r.error || r.status !== 0) throw new Error(`cmark-gfm failed (is it installed? apt-get install cmark-gfm): ${r.error?.message ?? r.stderr}`);
  return r.stdout;
}

/** The elements the templates write; anything else came from the input. */
const TEMPLATE_TAGS = new Set([
  'p',
  'strong',
  'code',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'br',
  'details',
  'summary',
  'ul',
  'li',
  'h1',
  'h2',
  'h3',
  'em',
]);

/** What GitHub would turn into a mention, a reference or a link if it stood in text, outside a code element. */
function outsideCode(html: string): string {
  return html.replace(/<code>[\s\S]*?<\/code>/g, '');
}

function expectInert(markdown: string): void {
  const html = render(markdown);
  const tags = [...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)/g)].map((m) => m[1]!.toLowerCase());
  expect(tags.filter((t) => !TEMPLATE_TAGS.has(t))).toEqual([]);
  const text = outsideCode(html);
  expect(text).not.toMatch(/@[A-Za-z0-9]/); // a mention
  expect(text).not.toMatch(/(^|[^&\w])#[0-9]/); // an issue reference
  expect(text).not.toMatch(/https?:|www\.|javascript:|mailto:/i); // a link, bare or not
  for (const table of html.match(/<table>[\s\S]*?<\/table>/g) ?? []) {
    const header = (table.match(/<thead>[\s\S]*?<\/thead>/)?.[0].match(/<th[ >]/g) ?? []).length;
    for (const row of table.match(/<tbody>[\s\S]*?<\/tbody>/)?.[0].match(/<tr>[\s\S]*?<\/tr>/g) ?? [])
      expect((row.match(/<td[ >]/g) ?? []).length).toBe(header);
  }
}

const HOSTILE = [
  '@acme/admins',
  '#1',
  'GH-12',
  '[x](javascript:alert(1))',
  '![i](https://evil.example/t.png)',
  '<img src=https://evil.example/t.png>',
  'https://evil.example/x',
  'www.evil.example',
  'a | b | c',
  '</table><details open>',
  '`',
  '``',
  '&amp;',
  '**bold**',
  '_em_',
  '\\',
  '\n- list item',
  '\u200bu1.medium',
  'u1\u2060.medium',
  '\u202eevil',
  '<script>alert(1)</script>',
  'x@y.example',
];

const hostile = fc.oneof(
  fc.constantFrom(...HOSTILE),
  fc.array(fc.constantFrom(...HOSTILE, 'u1', '.', ' ', '-', '1Gi', 'name'), { minLength: 1, maxLength: 6 }).map((xs) => xs.join('')),
  fc.string({ maxLength: 30 }),
);

const HAVE_CMARK = toolPresent('cmark-gfm', () => runs('cmark-gfm'), 'apt-get install cmark-gfm');

(HAVE_CMARK ? describe : describe.skip)('every input text of the review renders inert (cmark-gfm)', () => {
  it('zero-width characters, which make a spoofed name read like a real one, are shown; &amp; stays literal', () => {
    expect(md('\u200bu1.medium')).toBe('`\\u200bu1.medium`');
    expect(md('u1\u2060.med\ufe0fium')).toBe('`u1\\u2060.med\\ufe0fium`');
    expect(render(md('a &amp; b'))).toBe('<p><code>a &amp;amp; b</code></p>\n');
  });

  it('md alone: one code span, or (empty)', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const html = render(md(s, { table: false }));
        expect(html).toMatch(/^<p>(<code>[\s\S]*<\/code>|\(empty\))<\/p>\n$/);
      }),
      { numRuns: 150 },
    );
  });

  it('the object table, the VM table, the problems and the changelog', () => {
    fc.assert(
      fc.property(hostile, hostile, hostile, hostile, hostile, (name, kind, value, path, title) => {
        const change: ReviewedChange = {
          kind,
          name,
          change: 'changed',
          fields: [{ path, before: value, after: `${value}x` }],
          before: { vcpu: 2, memory: value, hugepages: value },
          after: { vcpu: 4, memory: `${value}2`, hugepages: '1Gi' },
        } as ReviewedChange;
        const impact: VmImpact = {
          file: `vms/${name}.yaml`,
          vm: name,
          touched: [{ kind, name: value, change: 'removed' }],
          fields: [{ path, before: value, after: value }],
          admittedBefore: true,
          admittedAfter: false,
          pinned: false,
        };
        const problems = [diag('IT8301', `VirtualMachine \`${name}\` uses ${kind} \`${value}\``, { file: `vms/${title}.yaml`, line: 1, col: 1 })];
        const comment = boundedComment(
          `### itgen: what this change does\n\n${problemsMarkdown(problems)}\n${diffMarkdown(title, [change])}\n${impactMarkdown([impact], 1)}`,
        );
        expectInert(comment);
        expectInert(notesMarkdown(title, [{ version: 'v1.0.0', added: [], deprecated: [], removed: [], changed: [{ kind, name, detail: value }] }]));
      }),
      { numRuns: 120 },
    );
  });

  it('the corpus case: a memory value carrying an image, a team mention, a reference and table markup', () => {
    const memory = '1Gi <img src=https://evil.example/t.png> @acme/admins #1 | x | y | z </table><details open>';
    const change = {
      kind: 'VirtualMachineClusterInstancetype',
      name: 'u1.large',
      change: 'changed',
      fields: [],
      before: { vcpu: 2, memory: '4Gi' },
      after: { vcpu: 2, memory },
    } as unknown as ReviewedChange;
    expectInert(diffMarkdown('acme', [change]));
  });
});

describe('the comment is bounded', () => {
  it('5,000 VMs and long field paths stay within GitHub’s 65,536 characters, and say they were cut', () => {
    const impacts: VmImpact[] = Array.from({ length: 5000 }, (_, i) => ({
      file: `vms/vm-${i}.yaml`,
      vm: `vm-${i}`,
      touched: [{ kind: 'VirtualMachineClusterInstancetype', name: 'u1.large', change: 'changed' }],
      fields: [{ path: `spec.template.spec.${'x'.repeat(5000)}`, before: 1, after: 2 }],
      admittedBefore: true,
      admittedAfter: true,
      pinned: false,
    }));
    const changes = Array.from(
      { length: 3000 },
      (_, i) =>
        ({
          kind: 'VirtualMachineClusterInstancetype',
          name: `u${i}.large`,
          change: 'changed',
          fields: Array.from({ length: 10 }, (_, j) => ({ path: `spec.${'y'.repeat(3000)}.${j}`, before: 'a'.repeat(1000), after: 'b' })),
          before: { vcpu: 2, memory: '4Gi' },
          after: { vcpu: 2, memory: '8Gi' },
        }) as unknown as ReviewedChange,
    );
    const body = boundedComment(`${diffMarkdown('acme', changes)}\n${impactMarkdown(impacts, 0)}`);
    expect(body.length).toBeLessThanOrEqual(60_000);
    expect(body).toContain('was cut here: the full review is in the workflow run');
    expect(impactMarkdown(impacts, 0)).toContain('… and 4900 more VMs');
  });
});

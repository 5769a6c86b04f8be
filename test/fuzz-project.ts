/**
 * Mutations of a small project for the fuzz test and bench/fuzz.mjs: catalog text edits (lines
 * dropped, duplicated, re-indented, numbers changed, hostile characters and YAML constructs
 * inserted) and layout changes (links out of the project, leftover locks, files where directories
 * go). Each mutation is data, so a failing case prints what was done.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';

export const FUZZ_CATALOG = `kind: Catalog
name: t
---
kind: SizeLadder
name: sizes
sizes:
  - {name: small, cpu: 1}
  - name: large
    cpu: 4
---
kind: Family
name: c
version: 1
displayName: Compute {{name}}
description: Compute for tests.
class: compute
memoryPerCPU: 2Gi
spec:
  cpu:
    dedicatedCPUPlacement: false
---
kind: PreferenceFragment
name: efi
spec:
  firmware:
    preferredEfi: {secureBoot: false}
---
kind: Preference
name: mylinux
displayName: My Linux
include: [efi]
architectures: [amd64, arm64]
spec:
  cpu:
    preferredCPUTopology: spread
  requirements:
    cpu: {guest: 1}
    memory: {guest: 1Gi}
`;
export const FUZZ_GENERATOR = 'catalog: ../catalog\noutput: ../output/t\nvendor: kubevirt.io\n';

const INSERTS = [
  '\u001b[2J',
  '\u0000',
  '\t',
  '&a',
  '*a',
  '!tag ',
  '010',
  '{',
  '[',
  '"',
  "'",
  ': ',
  '- ',
  '---',
  '__proto__: 1',
  'constructor: 2',
  '{{lookup this "x"}}',
  '{{#each}}',
  '\u202e',
  '9'.repeat(40),
  '-1',
  '0',
  'null',
  '~',
  '1e309',
  '0x10',
];

export type Mutation =
  | { readonly op: 'drop' | 'duplicate' | 'indent' | 'dedent'; readonly line: number }
  | { readonly op: 'insert'; readonly line: number; readonly col: number; readonly text: string }
  | { readonly op: 'number'; readonly nth: number; readonly value: number }
  | { readonly op: 'layout'; readonly what: 'link-out' | 'lock-dir' | 'lock-link' | 'output-file' | 'catalog-link' | 'fifo-name' };

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constantFrom('drop' as const, 'duplicate' as const, 'indent' as const, 'dedent' as const), line: fc.nat(60) }),
  fc.record({
    op: fc.constant('insert' as const),
    line: fc.nat(60),
    col: fc.nat(30),
    text: fc.oneof(fc.constantFrom(...INSERTS), fc.string({ maxLength: 6 })),
  }),
  fc.record({
    op: fc.constant('number' as const),
    nth: fc.nat(12),
    value: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom(0, 2 ** 31, 2 ** 53, 4294967296)),
  }),
  fc.record({
    op: fc.constant('layout' as const),
    what: fc.constantFrom(
      'link-out' as const,
      'lock-dir' as const,
      'lock-link' as const,
      'output-file' as const,
      'catalog-link' as const,
      'fifo-name' as const,
    ),
  }),
);

export function mutateText(text: string, m: Mutation): string {
  const lines = text.split('\n');
  const i = 'line' in m ? m.line % lines.length : 0;
  switch (m.op) {
    case 'drop':
      lines.splice(i, 1);
      break;
    case 'duplicate':
      lines.splice(i, 0, lines[i]!);
      break;
    case 'indent':
      lines[i] = `  ${lines[i]}`;
      break;
    case 'dedent':
      lines[i] = lines[i]!.replace(/^ {1,2}/, '');
      break;
    case 'insert': {
      const l = lines[i]!;
      const c = Math.min(m.col, l.length);
      lines[i] = l.slice(0, c) + m.text + l.slice(c);
      break;
    }
    case 'number': {
      let n = -1;
      return text.replace(/\b\d+\b/g, (d) => (++n === m.nth ? String(m.value) : d));
    }
    default:
      break;
  }
  return lines.join('\n');
}

/** Applies a layout mutation to a generated project; `outside` is a directory beside it holding a secret. */
export function mutateLayout(dir: string, outside: string, what: Extract<Mutation, { op: 'layout' }>['what']): void {
  switch (what) {
    case 'link-out':
      symlinkSync(path.join(outside, 'secret.yaml'), path.join(dir, 'catalog', 'linked.yaml'));
      break;
    case 'catalog-link':
      writeFileSync(path.join(dir, 'generators', 't.yaml'), FUZZ_GENERATOR.replace('../catalog', '../linked'));
      symlinkSync(outside, path.join(dir, 'linked'));
      break;
    case 'lock-dir':
      mkdirSync(path.join(dir, 'output', '.t.itgen-lock'), { recursive: true });
      break;
    case 'lock-link':
      symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'output', '.t.itgen-lock'));
      break;
    case 'output-file':
      writeFileSync(path.join(dir, 'generators', 't.yaml'), FUZZ_GENERATOR.replace('../output/t', '../blocker/t'));
      writeFileSync(path.join(dir, 'blocker'), 'a file\n');
      break;
    case 'fifo-name':
      mkdirSync(path.join(dir, 'catalog', 'sub.yaml'));
      break;
  }
}

/** Every file below `dir` but `output/`, with its content: what a run must not change. */
export function snapshotOutsideOutput(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string): void => {
    for (const name of readdirSync(d)) {
      const r = rel ? `${rel}/${name}` : name;
      if (r === 'output') continue;
      const p = path.join(d, name);
      let st;
      try {
        st = statSync(p);
      } catch {
        out[r] = 'dangling';
        continue;
      }
      if (st.isDirectory()) walk(p, r);
      else out[r] = readFileSync(p, 'utf8');
    }
  };
  walk(dir, '');
  return out;
}

/**
 * The fast YAML reader must agree with the `yaml` library (the definition of how catalogs read)
 * whenever it answers: same documents, same values, same node ranges, and it must never answer for
 * text the library complains about. It must answer for the catalogs and generators we ship.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { globSync } from 'glob';
import { LineCounter, isMap, isScalar, isSeq, parseAllDocuments, type Node } from 'yaml';
import { parseFast, type FastNode } from '../src/load/fast-yaml';
import { locate, parseSource, type PathSegment, type SourceDoc } from '../src/load/source';
import { REPO } from './helpers';

function compareNode(fast: FastNode, lib: unknown, path: string, out: string[]): void {
  const type = isMap(lib) ? 'map' : isSeq(lib) ? 'seq' : isScalar(lib) ? 'scalar' : 'none';
  if (type !== fast.type) {
    out.push(`${path}: ${fast.type} here, ${type} in the library`);
    return;
  }
  const range = (lib as Node).range!;
  if (fast.range[0] !== range[0] || fast.range[1] !== range[1]) out.push(`${path}: range ${fast.range.join(',')} here, ${range.join(',')} in the library`);
  if (fast.type === 'map' && isMap(lib)) {
    if (fast.items.length !== lib.items.length) return void out.push(`${path}: ${fast.items.length} pairs here, ${lib.items.length} in the library`);
    fast.items.forEach((p, i) => {
      compareNode(p.key, lib.items[i]!.key, `${path}.key(${String(p.key.value)})`, out);
      compareNode(p.value, lib.items[i]!.value, `${path}.${String(p.key.value)}`, out);
    });
  }
  if (fast.type === 'seq' && isSeq(lib)) {
    if (fast.items.length !== lib.items.length) return void out.push(`${path}: ${fast.items.length} items here, ${lib.items.length} in the library`);
    fast.items.forEach((n, i) => compareNode(n, lib.items[i], `${path}[${i}]`, out));
  }
}

/** undefined when the fast reader declines; otherwise how it differs from the library (nothing, we hope). */
function differences(text: string): string[] | undefined {
  const fast = parseFast(text);
  if (!fast) return undefined;
  const out: string[] = [];
  const lineCounter = new LineCounter();
  const docs = [...parseAllDocuments(text, { lineCounter, uniqueKeys: true, prettyErrors: false, strict: true })];
  const complaints = docs.flatMap((d) => [...d.errors, ...d.warnings]);
  if (complaints.length > 0) out.push(`the library complains: ${complaints.map((e) => e.code).join(', ')}`);
  const withContent = docs
    .map((d, index) => ({ d, index }))
    .filter(({ d }) => !(d.contents === null || (isScalar(d.contents) && d.contents.value === null && (d.contents.source ?? '') === '')));
  if (withContent.length !== fast.docs.length) out.push(`${fast.docs.length} documents here, ${withContent.length} in the library`);
  fast.docs.forEach((fd, k) => {
    const lib = withContent[k];
    if (!lib) return;
    if (lib.index !== fd.index) out.push(`document index ${fd.index} here, ${lib.index} in the library`);
    let value: unknown;
    try {
      value = lib.d.toJS();
    } catch (e) {
      return void out.push(`the library cannot convert document ${k}: ${(e as Error).message}`);
    }
    if (!isDeepStrictEqual(value, fd.value)) out.push(`document ${k}: ${JSON.stringify(fd.value)} here, ${JSON.stringify(value)} in the library`);
    compareNode(fd.contents, lib.d.contents, `doc${k}`, out);
  });
  if (!isDeepStrictEqual(lineCounter.lineStarts, fast.lineStarts)) out.push('line starts differ');
  return out;
}

// FAST_YAML_RUNS=50000 for a longer search.
const RUNS = Number(process.env.FAST_YAML_RUNS ?? 3000);

const corpusFiles = globSync('{catalogs,generators,examples,test/fixtures,output}/**/*.{yaml,yml}', { cwd: REPO, posix: true }).sort();
const corpus = corpusFiles.map((f) => ({ file: f, text: readFileSync(`${REPO}/${f}`, 'utf8') }));

describe('fast YAML reader', () => {
  test('reads every catalog and generator we ship', () => {
    const shipped = corpus.filter((c) => /^(catalogs|generators)\//.test(c.file));
    expect(shipped.length).toBeGreaterThan(10);
    expect(shipped.filter((c) => parseFast(c.text) === undefined).map((c) => c.file)).toEqual([]);
  });

  test('agrees with the library on every YAML file of the repository it reads', () => {
    let read = 0;
    for (const { file, text } of corpus) {
      const d = differences(text);
      if (d === undefined) continue;
      read++;
      expect({ file, differences: d }).toEqual({ file, differences: [] });
    }
    expect(read).toBeGreaterThan(corpus.length * 0.8);
  });

  test('locate() answers the same from the fast nodes as from the library document', () => {
    const paths = (v: unknown, base: PathSegment[] = []): PathSegment[][] => {
      if (Array.isArray(v)) return [base, ...v.flatMap((x, i) => paths(x, [...base, i]))];
      if (v !== null && typeof v === 'object') return [base, ...Object.entries(v).flatMap(([k, x]) => paths(x, [...base, k])), [...base, 'missing']];
      return [base];
    };
    for (const { file, text } of corpus.filter((c) => /^(catalogs|generators)\//.test(c.file))) {
      for (const src of parseSource(file, Buffer.from(text)).docs) {
        expect(src.fast).toBeDefined();
        const { fast: _fast, ...library } = src as SourceDoc;
        for (const p of paths(src.value)) {
          for (const key of [false, true]) expect([p, locate(src, p, { key })]).toEqual([p, locate(library as SourceDoc, p, { key })]);
        }
      }
    }
  });

  test('reads a file of 300,000 lines (no per-line recursion or argument spreading)', () => {
    const text = Array.from({ length: 300_000 }, (_, i) => `k${i}: ${i}\n`).join('');
    const src = parseSource('big.yaml', Buffer.from(text)).docs[0]!;
    expect(src.fast).toBeDefined();
    expect(locate(src, ['k299999'])).toMatchObject({ line: 300_000, col: 10 });
  });

  test('builds the library document only when asked, and it is the same document', () => {
    const src = parseSource('c.yaml', Buffer.from('a: 1\n---\nb: [x]\n')).docs[1]!;
    expect(src.fast).toBeDefined();
    expect(src.doc.toJS()).toEqual({ b: ['x'] });
  });

  test.each([
    ['tabs', 'a:\tb\n'],
    ['anchors and aliases', 'a: &x 1\nb: *x\n'],
    ['tags', 'a: !!str 1\n'],
    ['multi-line plain scalars with a blank line inside', 'a: one\n\n  two\n'],
    ['multi-line plain scalars with a comment line inside', 'a: one\n  # c\n  two\n'],
    ['floats and other numbers', 'a: 1.5\n'],
    ['escapes in double quotes', 'a: "x\\ny"\n'],
    ['folded scalars', 'a: >\n  x\n'],
    ['keep chomping', 'a: |+\n  x\n'],
    ['comments that trail a nested block', 'a:\n  b: 1\n  # here\nc: 2\n'],
    ['duplicate keys', 'a: 1\na: 2\n'],
    ['`__proto__` keys', '__proto__: 1\n'],
    ['documents that are not mappings', '- a\n'],
    ['empty values', 'a:\nb: 1\n'],
    ['no final newline', 'a: 1'],
    ['keys whose colon is more than 1,000 characters on (YAML allows 1,024)', `${'k'.repeat(600)}${' '.repeat(500)}: 1\n`],
  ])('leaves %s to the library', (_what, text) => {
    expect(parseFast(text)).toBeUndefined();
  });

  test('reads a plain scalar folded over the lines under it (kubectl folds long strings) as the library does', () => {
    const texts = [
      'a: one\n  two\n',
      'a: one\n  two\n  three\nb: 1\n',
      'm:\n  message: containers with unready status are waiting for the readiness probe of\n    the application to succeed before traffic\n  reason: x\n',
      '- one\n  two\n- three\n',
      'items:\n- message: a long\n    message: no\n',
      'a: one   \n   two  \n',
      'a: 1\n  2\n',
      'a: true\n  false\n',
      'a: one\n  -two\n',
      'a: one\n\nb: two\n   three\n',
    ];
    const read = texts.filter((t) => {
      const d = differences(t);
      if (d !== undefined) expect([t, d]).toEqual([t, []]);
      return d !== undefined;
    });
    expect(read.length).toBeGreaterThanOrEqual(7);
    expect(parseFast('a: one\n  two\n')!.docs[0]!.value).toEqual({ a: 'one two' });
  });

  test('random folded plain scalars: when it reads them, it reads them as the library does', () => {
    const word = fc.stringMatching(/^[a-z0-9][a-z0-9.:#-]{0,6}$/);
    const doc = fc.record({
      key: fc.constantFrom('a', 'message', 'x-y'),
      nest: fc.nat({ max: 2 }),
      lines: fc.array(fc.tuple(fc.array(word, { minLength: 1, maxLength: 4 }), fc.nat({ max: 4 }), fc.nat({ max: 2 })), { minLength: 1, maxLength: 4 }),
      after: fc.constantFrom('', 'b: 1\n', '  c: 2\n', '- z\n'),
    });
    let read = 0;
    fc.assert(
      fc.property(doc, ({ key, nest, lines, after }) => {
        const pad = '  '.repeat(nest);
        const head = nest > 0 ? Array.from({ length: nest }, (_, i) => `${'  '.repeat(i)}n${i}:\n`).join('') : '';
        const body = lines
          .map(([ws, extra, trailing], i) => (i === 0 ? `${pad}${key}: ` : `${pad}${' '.repeat(1 + extra)}`) + ws.join(' ') + ' '.repeat(trailing))
          .join('\n');
        const text = `${head}${body}\n${after}`;
        const d = differences(text);
        if (d === undefined) return true;
        read++;
        return d.length === 0 || (console.error(text, d), false);
      }),
      { numRuns: 400, seed: 7 },
    );
    expect(read).toBeGreaterThan(50);
  });

  test('random edits of real files: when it reads the result, it reads it as the library does', () => {
    let read = 0;
    const pieces = [
      ' ',
      '  ',
      '\n',
      '\n\n',
      '#',
      ' #',
      ' # c',
      ':',
      ': ',
      '-',
      '- ',
      '"',
      "'",
      '[',
      ']',
      '{',
      '}',
      ',',
      ', ',
      '|',
      '|-',
      '|+',
      '>',
      'a',
      '1',
      '0',
      '-0',
      '1.5',
      'true',
      'null',
      '~',
      '---\n',
      '...\n',
      '# c\n',
      '  # c\n',
      '    # c\n',
      'k: v\n',
      '  k: v\n',
      '- x\n',
      '  - x\n',
      '&a ',
      '*a',
      '!t ',
      '?',
      '%',
      '@',
      '`',
      '\\',
      'x: |\n  t\n',
      '__proto__',
      '0x1',
      '00',
      '+1',
      '=',
      '<<',
    ];
    const edit = fc.record({
      at: fc.nat(),
      op: fc.constantFrom('insert', 'delete', 'replace'),
      piece: fc.constantFrom(...pieces),
      length: fc.integer({ min: 1, max: 3 }),
    });
    fc.assert(
      fc.property(
        fc.nat(corpus.length - 1),
        fc.option(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 25 }))),
        fc.array(edit, { minLength: 1, maxLength: 3 }),
        (i, slice, edits) => {
          let text = corpus[i]!.text;
          if (slice) {
            const lines = text.split('\n');
            text = `${lines.slice(slice[0] % lines.length, (slice[0] % lines.length) + slice[1]).join('\n')}\n`;
          }
          for (const e of edits) {
            const at = e.at % (text.length + 1);
            if (e.op === 'insert') text = text.slice(0, at) + e.piece + text.slice(at);
            else if (e.op === 'delete') text = text.slice(0, at) + text.slice(at + e.length);
            else text = text.slice(0, at) + e.piece + text.slice(at + 1);
          }
          const d = differences(text);
          if (d !== undefined) read++;
          if (d !== undefined && d.length > 0) throw new Error(`${JSON.stringify(text)}\n${d.join('\n')}`);
        },
      ),
      { numRuns: RUNS },
    );
    // The edits must leave enough files readable for the comparison to mean something.
    expect(read).toBeGreaterThan(RUNS / 5);
  });

  test('random documents in any style: when it reads them, it reads them as the library does', () => {
    const scalars = [
      'a',
      'b c',
      'true',
      'False',
      'null',
      '~',
      '1',
      '-1',
      '0',
      '007',
      '+1',
      '-0',
      '1.5',
      '1e3',
      '0x1f',
      '.inf',
      'a: b',
      'a:b',
      'a #b',
      'a#b',
      '#a',
      '- a',
      '-a',
      '--a',
      '--port=8080',
      '---a',
      '--',
      '-- a',
      "it's",
      'say "hi"',
      '[a]',
      '{a}',
      'a, b',
      '',
      ' lead',
      'trail ',
      'https://x.y/z',
      'yes',
      '<<',
      '=',
      '*a',
      '&a',
      '!a',
      '%a',
      '@a',
      '|',
      '>',
      '?',
      ':',
      '-',
      'x]',
      'x}',
      'one\ntwo',
      'one\n\ntwo\n',
      '  indented\nline',
    ];
    type Tree = string | Tree[] | { [k: string]: Tree };
    const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.oneof(
          { weight: 5, arbitrary: fc.constantFrom('a', 'b c', 'x-1', 'Gi.2', '1', '42', 'true', 'null', 'it is', 'q"x', "q'x") },
          { weight: 2, arbitrary: fc.constantFrom(...scalars) },
        ),
        fc.array(tie('tree'), { minLength: 1, maxLength: 3 }),
        fc.dictionary(fc.constantFrom('a', 'b', 'kind', 'x y', 'vm.kubevirt.io/os', '1', 'true', 'q"', "'s'", 'k:'), tie('tree'), { minKeys: 1, maxKeys: 3 }),
      ),
    }));
    const style = fc.record({
      indent: fc.integer({ min: 1, max: 4 }),
      flowAt: fc.integer({ min: 0, max: 4 }),
      quote: fc.constantFrom('plain', 'single', 'double', 'literal'),
      comments: fc.array(fc.tuple(fc.nat(), fc.constantFrom(0, 0, 1, 2, 2, 4, 6), fc.boolean()), { maxLength: 2 }),
      trailing: fc.boolean(),
      compactSeq: fc.boolean(),
    });
    const scalarText = (s: string, quote: string, indent: string): string => {
      if (quote === 'single') return `'${s.replace(/'/g, "''")}'`;
      if (quote === 'double') return JSON.stringify(s);
      if (quote === 'literal' && s.length > 0)
        return `|-\n${s
          .split('\n')
          .map((l) => (l === '' ? '' : `${indent}  ${l}`))
          .join('\n')}`;
      return s;
    };
    const flow = (t: Tree, quote: string): string => {
      if (typeof t === 'string') return scalarText(t, quote === 'literal' ? 'plain' : quote, '');
      if (Array.isArray(t)) return `[${t.map((x) => flow(x, quote)).join(', ')}]`;
      return `{${Object.entries(t)
        .map(([k, v]) => `${k}: ${flow(v, quote)}`)
        .join(', ')}}`;
    };
    const block = (t: Tree, depth: number, s: { indent: number; flowAt: number; quote: string; compactSeq: boolean }, pad: string): string[] => {
      const inner = pad + ' '.repeat(s.indent);
      if (Array.isArray(t)) {
        return t.flatMap((x) => {
          if (typeof x === 'string' || depth + 1 >= s.flowAt) return [`${pad}- ${typeof x === 'string' ? scalarText(x, s.quote, pad) : flow(x, s.quote)}`];
          const lines = block(x, depth + 1, s, `${pad}  `);
          return Array.isArray(x) ? [`${pad}-`, ...lines] : [`${pad}- ${lines[0]!.trimStart()}`, ...lines.slice(1)];
        });
      }
      if (typeof t === 'string') return [`${pad}${scalarText(t, s.quote, pad)}`];
      return Object.entries(t).flatMap(([k, v]) => {
        if (typeof v === 'string') return [`${pad}${k}: ${scalarText(v, s.quote, pad)}`];
        if (depth + 1 >= s.flowAt) return [`${pad}${k}: ${flow(v, s.quote)}`];
        return [`${pad}${k}:`, ...block(v, depth + 1, s, Array.isArray(v) && s.compactSeq ? pad : inner)];
      });
    };
    let read = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.dictionary(fc.constantFrom('a', 'kind', 'name', 'spec'), tree, { minKeys: 1, maxKeys: 3 }), style), {
          minLength: 1,
          maxLength: 2,
        }),
        (documents) => {
          const text = documents
            .map(([t, s]) => {
              const lines = block(t, 0, s, '').join('\n').split('\n');
              for (const [at, indent, blank] of s.comments) lines.splice(at % (lines.length + 1), 0, blank ? '' : `${' '.repeat(indent)}# note`);
              return `${lines.map((l, i) => (s.trailing && i % 2 === 0 && l.trim() !== '' && !l.endsWith(':') ? `${l} # c` : l)).join('\n')}\n`;
            })
            .join('---\n');
          const d = differences(text);
          if (d !== undefined) read++;
          if (d !== undefined && d.length > 0) throw new Error(`${JSON.stringify(text)}\n${d.join('\n')}`);
        },
      ),
      { numRuns: RUNS },
    );
    console.log(`random documents: ${read} of ${RUNS} read by the fast reader and compared`);
    expect(read).toBeGreaterThan(RUNS / 20);
  });
});

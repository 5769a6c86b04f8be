/**
 * What a YAML file's parse found that KubeVirt or a reader would take otherwise: scalars YAML 1.1
 * reads as numbers or booleans, aliases that resolve to nothing, invalid UTF-8, and the salvage of
 * a document after an error, each described at its place.
 */
import { type Document, type LineCounter, isMap, isPair, isScalar, visit } from 'yaml';
import { diag, type Diagnostic, type SourceRange } from '../diagnostics';

/** A plain scalar that YAML 1.1 and 1.2 read differently: `010` (8 or 10), `0o10` (8 or a string). */
export const AMBIGUOUS_NUMBER = /^[-+]?(0[0-9]+|0o[0-7]+)$/;

/** Text that may hold a tag. */
export const TAG_TEXT = /(^|[\s,[{:-])!/m;

/** Text that may hold such a scalar (a cheap test before the fast reader). */
export const AMBIGUOUS_NUMBER_TEXT = /(^|[\s:,[{-])[-+]?(0[0-9]+|0o[0-7]+)(?=\s*($|[,\]}#]))/m;

/**
 * Plain numbers with a leading zero and tags: kubectl, Argo CD and most of the ecosystem read YAML
 * 1.1, where `010` is 8, while YAML 1.2 reads 10; an unknown tag (`!custom`) would be dropped
 * silently. Both are refused where they stand.
 */
export function ambiguousScalars(doc: Document.Parsed, lineCounter: LineCounter, file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const place = (offset: number): SourceRange => {
    const p = lineCounter.linePos(offset);
    return { file, line: p.line, col: p.col };
  };
  visit(doc, {
    Node(_key, node) {
      const tag = (node as { tag?: string }).tag;
      const start = node.range?.[0] ?? 0;
      if (tag !== undefined && !tag.startsWith('tag:yaml.org,2002:')) {
        out.push(
          diag('IT1002', `tag \`${tag}\` is not supported; it would be dropped`, place(start), { hint: 'remove the tag; catalogs and manifests need none' }),
        );
      }
      if (isScalar(node) && node.type === 'PLAIN' && typeof node.source === 'string' && AMBIGUOUS_NUMBER.test(node.source)) {
        const digits = node.source.replace(/^[-+]?0o?/, '');
        const octal = /^[0-7]+$/.test(digits) ? parseInt(digits, 8) : undefined;
        const readings = node.source.includes('o')
          ? `${octal} for YAML 1.2, a string for YAML 1.1`
          : octal === Number(digits)
            ? `${octal} for both, but only by chance: \`010\` would be 10 for one and 8 for the other`
            : `${Number(digits)} for YAML 1.2${octal !== undefined ? `, ${octal} for YAML 1.1` : ''}`;
        out.push(
          diag(
            'IT1203',
            `\`${node.source}\` is a number with a leading zero, read differently by YAML 1.1 (kubectl, Argo CD) and 1.2 readers (${readings})`,
            place(start),
            {
              hint: `write the number without the leading zero, or quote it (\`"${node.source}"\`) if it is text`,
            },
          ),
        );
      }
      return undefined;
    },
  });
  for (const w of doc.warnings) {
    if (w.code === 'TAG_RESOLVE_FAILED' && !out.some((d) => d.location?.line === lineCounter.linePos(w.pos[0]).line)) {
      out.push(diag('IT1002', w.message.split('\n')[0] ?? w.message, place(w.pos[0]), { hint: 'remove the tag; catalogs and manifests need none' }));
    }
  }
  return out;
}

/** Where the alias an "unresolved alias" error names stands. */
export function unresolvedAlias(doc: Document.Parsed, message: string): number | undefined {
  const name = /:\s*(\S+)\s*$/.exec(message.split('\n')[0] ?? '')?.[1];
  let found: number | undefined;
  visit(doc, {
    Alias(_key, node) {
      if (found === undefined && (name === undefined || node.source === name)) found = node.range?.[0];
      return undefined;
    },
  });
  return found;
}

/** The first byte that breaks UTF-8, with its line and column (columns in characters of the valid prefix). */
export function invalidUtf8At(bytes: Buffer): { offset: number; line: number; col: number } {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const n = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (n === 0 || i + n > bytes.length) break;
    let ok = true;
    for (let k = 1; k < n; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) ok = false;
    // Overlong and surrogate forms the decoder refuses.
    if (n === 3 && ((b === 0xe0 && bytes[i + 1]! < 0xa0) || (b === 0xed && bytes[i + 1]! >= 0xa0))) ok = false;
    if (n === 4 && ((b === 0xf0 && bytes[i + 1]! < 0x90) || (b === 0xf4 && bytes[i + 1]! >= 0x90))) ok = false;
    if (!ok) break;
    i += n;
  }
  const before = bytes.subarray(0, i).toString('utf8');
  const lineStart = before.lastIndexOf('\n') + 1;
  return { offset: i, line: before.split('\n').length, col: before.length - lineStart + 1 };
}

/**
 * An error the parser places at the end of the text (an unclosed bracket or quote) is shown at the
 * end of the last line that has something on it, which is where the reader has to look.
 */
export function atEndOfText(text: string, offset: number): { line: number; col: number } | undefined {
  if (text.slice(offset).trim() !== '') return undefined;
  const lines = text.slice(0, offset).split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!.replace(/\r$/, '');
    if (l.trim() !== '') return { line: i + 1, col: l.length + 1 };
  }
  return undefined;
}

/** `kind` and `name` of a document with errors, when they are plain scalars at its top level. */
export function salvage(doc: Document.Parsed): { kind?: string; name?: string } {
  const out: { kind?: string; name?: string } = {};
  if (!isMap(doc.contents)) return out;
  for (const pair of doc.contents.items) {
    if (!isPair(pair) || !isScalar(pair.key) || !isScalar(pair.value)) continue;
    const k = String(pair.key.value);
    const v = pair.value.value;
    if ((k === 'kind' || k === 'name') && typeof v === 'string') out[k] = v;
  }
  return out;
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a sequence';
  return `a ${typeof value}`;
}

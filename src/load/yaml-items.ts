/**
 * A YAML cluster dump that is one List (`kubectl get pods -A -o yaml`) read item by item: the
 * `items:` sequence is cut at its entries (lines starting `- ` at column 1), and each entry is
 * parsed alone as a document (its lines moved two columns left), so that the parse, and what it
 * holds, never grows with the dump: pods are slimmed as they are read, and the parse trees are
 * dropped. Positions are mapped back to the dump's lines and columns (an entry is parsed again when
 * a diagnostic needs a place in it). Anything else (several documents, a document that is not a
 * List, an entry whose lines are not indented under it) is left to the whole-file reader,
 * `yamlDump`, here too.
 */
import type { Diagnostic, SourceRange } from '../diagnostics';
import { parseFast } from './fast-yaml';
import { slimPod } from './json-items';
import { locate, parseSource, type PathSegment, type SourceDoc } from './source';

interface Entry {
  /** 0-based line of its `- `, and the text of its lines moved two columns left. */
  readonly line: number;
  readonly from: number;
  readonly to: number;
}

/** The entries of the List's `items:`, or undefined when the text is not one such List. */
function entriesOf(text: string): Entry[] | undefined {
  const entries: Entry[] = [];
  let line = 0;
  let pos = 0;
  let inItems = false;
  let sawItems = false;
  let list = false;
  let open: { line: number; from: number } | undefined;
  const close = (to: number): void => {
    if (open) entries.push({ line: open.line, from: open.from, to });
    open = undefined;
  };
  while (pos < text.length) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    const c = text.charCodeAt(pos);
    if (pos === end || c === 0x20 || c === 0x23) {
      // Blank, comment or indented: part of the entry open, if any (indented lines outside items belong to a header key).
      if (c === 0x20 && inItems && !open) return undefined;
    } else if (text.startsWith('---', pos) || text.startsWith('...', pos)) {
      if (line !== 0 || !text.startsWith('---', pos)) return undefined;
    } else if (inItems && text.startsWith('- ', pos)) {
      close(pos);
      open = { line, from: pos };
    } else {
      close(pos);
      inItems = false;
      if (/^kind:\s*List\s*$/.test(text.slice(pos, end))) list = true;
      if (text.startsWith('items:', pos) && text.slice(pos + 6, end).trim() === '') {
        if (sawItems) return undefined;
        inItems = sawItems = true;
      }
    }
    pos = end + 1;
    line++;
  }
  close(text.length);
  return sawItems && list ? entries : undefined;
}

/** An entry's lines two columns left (`- a: 1` / `  b: 2` -> `a: 1` / `b: 2`), or undefined when one is not indented so. */
function dedented(text: string, e: Entry): string | undefined {
  const lines = text.slice(e.from, e.to).split('\n');
  const out: string[] = [];
  for (const [i, l] of lines.entries()) {
    if (i === 0) out.push(l.slice(2));
    else if (l.startsWith('  ')) out.push(l.slice(2));
    else if (l.trim() === '' || l.startsWith('#')) out.push('');
    else return undefined;
  }
  const joined = out.join('\n');
  return joined.endsWith('\n') ? joined : `${joined}\n`;
}

/** Where something of an entry is, in the dump: lines after the entry's first, columns two right. */
const shifted = (r: SourceRange, e: Entry, file: string): SourceRange => ({
  ...r,
  file,
  line: r.line + e.line,
  col: r.col + 2,
  ...(r.endLine !== undefined ? { endLine: r.endLine + e.line } : {}),
  ...(r.endCol !== undefined ? { endCol: r.endCol + 2 } : {}),
});

/**
 * The objects of a YAML List dump read entry by entry, its diagnostics placed in the dump, and
 * where each object is; undefined when the text is not one List of entries indented as kubectl
 * writes them.
 */
export function yamlListDump(
  text: string,
  shown: string,
): { objects: Record<string, unknown>[]; diagnostics: Diagnostic[]; at: (index: number, path: readonly PathSegment[]) => SourceRange | undefined } | undefined {
  const entries = entriesOf(text);
  if (entries === undefined) return undefined;
  const parse = (e: Entry): ReturnType<typeof parseSource> | undefined => {
    const body = dedented(text, e);
    return body === undefined ? undefined : parseSource(shown, Buffer.from(body, 'utf8'));
  };
  const objects: Record<string, unknown>[] = [];
  const origins: Entry[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const e of entries) {
    const body = dedented(text, e);
    if (body === undefined) return undefined;
    // The fast reader's values where it reads the entry (most of kubectl's output); else the file
    // reader, with its diagnostics. Either way the parse tree is dropped here.
    const fast = parseFast(body);
    let v: unknown;
    if (fast !== undefined && fast.docs.length === 1) v = fast.docs[0]!.value;
    else {
      const parsed = parseSource(shown, Buffer.from(body, 'utf8'));
      for (const d of parsed.diagnostics) diagnostics.push(d.location ? { ...d, location: shifted(d.location, e, shown) } : d);
      v = parsed.docs.length === 1 ? parsed.docs[0]!.value : undefined;
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) continue;
    const o = v as Record<string, unknown>;
    objects.push(o['kind'] === 'Pod' ? slimPod(o) : o);
    origins.push(e);
  }
  return {
    objects,
    diagnostics,
    at: (index, path) => {
      const e = origins[index];
      const doc = e === undefined ? undefined : parse(e)?.docs[0];
      return e && doc ? shifted(locate(doc, path), e, shown) : undefined;
    },
  };
}

/** A dump read as YAML whole (not one List of entries): its objects, and where each is (its document, and `items`, k for a List). */
export function yamlDump(
  parsed: { docs: SourceDoc[]; diagnostics: Diagnostic[] },
  shown: string,
  items: (v: unknown) => Record<string, unknown>[],
): {
  objects: Record<string, unknown>[];
  shown: string;
  diagnostics: Diagnostic[];
  at: (index: number, path: readonly PathSegment[]) => SourceRange | undefined;
} {
  // Each object's document and path (`items`, k for a List), for placing what is wrong in it.
  const origins: { doc: SourceDoc; path: PathSegment[] }[] = [];
  for (const doc of parsed.docs) {
    const v = doc.value;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) continue;
    const o = v as Record<string, unknown>;
    if (o['kind'] === 'List' && Array.isArray(o['items']))
      (o['items'] as unknown[]).forEach((x, k) => {
        if (x !== null && typeof x === 'object' && !Array.isArray(x)) origins.push({ doc, path: ['items', k] });
      });
    else origins.push({ doc, path: [] });
  }
  return {
    objects: items(parsed.docs.map((d) => d.value)),
    shown,
    diagnostics: parsed.diagnostics,
    at: (index, path) => {
      const o = origins[index];
      return o ? locate(o.doc, [...o.path, ...path]) : undefined;
    },
  };
}

/**
 * YAML read with positions (the fast reader for plain block YAML, the library for the rest) and
 * paths located in the parsed nodes; what the parse found that a reader would take otherwise is
 * source-problems.ts.
 */
import { type Document, LineCounter, isMap, isPair, isScalar, isSeq, parseAllDocuments, type Node } from 'yaml';
import { diag, type Diagnostic, type SourceRange } from '../diagnostics';
import { parseFast, type FastMap, type FastNode, type FastParse } from './fast-yaml';
import { bytesInWords, MAX_DEPTH, MAX_DOCUMENTS, MAX_INPUT_BYTES } from './limits';
import { TAG_TEXT, AMBIGUOUS_NUMBER_TEXT, ambiguousScalars, unresolvedAlias, invalidUtf8At, atEndOfText, salvage, describe } from './source-problems';

/** One YAML document of one file, with what is needed to point back into it. */
export interface SourceDoc {
  readonly file: string;
  /** 0-based index of the document in its file. */
  readonly index: number;
  /** The `yaml` library's document; built on first use when the fast reader read the file. */
  readonly doc: Document.Parsed;
  readonly lineCounter: LineCounter;
  /** Plain JS value; unknown until a schema narrows it. */
  readonly value: unknown;
  /** The fast reader's nodes (load/fast-yaml.ts), which locate() walks instead of `doc`. */
  readonly fast?: FastMap;
  /**
   * Set on stand-ins for documents that could not be read (already reported): what could be
   * salvaged of their `kind` and `name`, or `opaque` when nothing could (a binary file). Later
   * stages use them only to keep references to those declarations from cascading into errors.
   */
  readonly broken?: { readonly kind?: string; readonly name?: string } | 'opaque';
  /**
   * Set on an imported document that a catalog's import entry patches (load/patch.ts): where each
   * part the patch wrote came from, so that locate() points a patched field at its patch.
   */
  readonly patched?: readonly PatchOrigin[];
}

/** A part of a patched document: its path, and where in which document the patch wrote it. */
export interface PatchOrigin {
  readonly path: readonly PathSegment[];
  readonly to: SourceDoc;
  readonly at: readonly PathSegment[];
}

/** A document that had errors, with what could be read of it. */
export interface UnusableDoc {
  readonly index: number;
  readonly kind?: string;
  readonly name?: string;
}

export type PathSegment = string | number;

/** Aliases may be expanded at most this many times per document (billion-laughs guard). */
const MAX_ALIAS_COUNT = 100;

export interface ParsedFile {
  readonly docs: SourceDoc[];
  readonly diagnostics: Diagnostic[];
  /** Documents left out because of errors; `opaque` when the file could not be parsed at all. */
  readonly unusable?: readonly UnusableDoc[] | 'opaque';
}

/**
 * Parse one file's bytes into documents, turning every YAML problem into a diagnostic. The bounds
 * of load/limits.ts apply: bytes, documents per file, nesting per document (deeper documents are
 * dropped with an error where they pass the bound, so nothing later recurses into them).
 */
export function parseSource(file: string, bytes: Buffer, maxBytes = MAX_INPUT_BYTES): ParsedFile {
  const at = (line = 1, col = 1): SourceRange => ({ file, line, col });
  if (bytes.length > maxBytes) {
    return { docs: [], diagnostics: [diag('IT1001', `file is larger than ${bytesInWords(maxBytes)}, the most itgen reads`, at())], unusable: 'opaque' };
  }
  const parsed = parseUnbounded(file, bytes);
  if (parsed.docs.length > MAX_DOCUMENTS) {
    return {
      docs: [],
      diagnostics: [
        diag('IT1001', `file holds ${parsed.docs.length} YAML documents, more than the ${MAX_DOCUMENTS} itgen reads from one file`, at(), {
          hint: 'split it into several files',
        }),
      ],
      unusable: 'opaque',
    };
  }
  let kept: SourceDoc[] | undefined;
  const diagnostics = parsed.diagnostics;
  const unusable = parsed.unusable === 'opaque' ? parsed.unusable : [...(parsed.unusable ?? [])];
  parsed.docs.forEach((d, i) => {
    const deep = tooDeep(d.value);
    if (deep === undefined) {
      kept?.push(d);
      return;
    }
    kept ??= parsed.docs.slice(0, i);
    const where = locate(d, deep);
    diagnostics.push(
      diag(
        'IT1002',
        `document ${d.index + 1} nests deeper than ${MAX_DEPTH} levels`,
        { file, line: where.line, col: where.col },
        { hint: 'no KubeVirt object nests this deep' },
      ),
    );
    const v = d.value as { kind?: unknown; name?: unknown };
    if (Array.isArray(unusable))
      unusable.push({ index: d.index, ...(typeof v.kind === 'string' ? { kind: v.kind } : {}), ...(typeof v.name === 'string' ? { name: v.name } : {}) });
  });
  return kept === undefined ? parsed : { docs: kept, diagnostics, unusable };
}

/**
 * The path to the first node nested deeper than MAX_DEPTH (locate() walks at most that far), found
 * without recursion. Depths only on the way; the path is searched for in the rare document that
 * has one.
 */
function tooDeep(value: unknown): PathSegment[] | undefined {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const v = values.pop();
    const depth = depths.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_DEPTH) return deepPath(value);
    for (const c of Array.isArray(v) ? v : Object.values(v as object)) {
      values.push(c);
      depths.push(depth + 1);
    }
  }
  return undefined;
}

function deepPath(value: unknown): PathSegment[] | undefined {
  const stack: [unknown, PathSegment[]][] = [[value, []]];
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (at.length >= MAX_DEPTH) return at;
    if (Array.isArray(v)) v.forEach((c, i) => stack.push([c, [...at, i]]));
    else for (const [k, c] of Object.entries(v as object)) stack.push([c, [...at, k]]);
  }
  return undefined;
}

/** Over 80 lines: the YAML library's documents turned into SourceDocs with every error placed; one loop over the library's error kinds. */
function parseUnbounded(file: string, bytes: Buffer): ParsedFile {
  const diagnostics: Diagnostic[] = [];
  const at = (line = 1, col = 1): SourceRange => ({ file, line, col });
  if (bytes.includes(0)) {
    return { docs: [], diagnostics: [diag('IT1006', 'file contains NUL bytes; catalog files must be UTF-8 YAML text', at())], unusable: 'opaque' };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const bad = invalidUtf8At(bytes);
    return {
      docs: [],
      diagnostics: [
        diag(
          'IT1006',
          `file is not valid UTF-8 (byte 0x${bytes[bad.offset]!.toString(16).padStart(2, '0')} here); catalog files must be UTF-8 YAML text`,
          at(bad.line, bad.col),
        ),
      ],
      unusable: 'opaque',
    };
  }
  // Numbers with a leading zero read differently in YAML 1.1 (the ecosystem's) and 1.2, and tags
  // must be refused: the fast reader is not asked about such text, the library path checks it.
  const fast = AMBIGUOUS_NUMBER_TEXT.test(text) || TAG_TEXT.test(text) ? undefined : parseFast(text);
  if (fast) return fromFast(file, text, fast);
  const lineCounter = new LineCounter();
  const parsed = parseAllDocuments(text, { lineCounter, ...PARSE_OPTIONS });
  const list = Array.isArray(parsed) ? parsed : [];
  const docs: SourceDoc[] = [];
  const unusable: UnusableDoc[] = [];
  let index = 0;
  for (const doc of list) {
    const i = index++;
    let syntax = false;
    for (const err of doc.errors) {
      const code = err.code === 'DUPLICATE_KEY' ? 'IT1003' : 'IT1002';
      // After the first syntax error of a document the parser's further complaints are echoes of it.
      if (code === 'IT1002' && syntax) continue;
      if (code === 'IT1002') syntax = true;
      const pos = atEndOfText(text, err.pos[0]) ?? lineCounter.linePos(err.pos[0]);
      let message = err.message.split('\n')[0] ?? err.message;
      // The parser recurses per nesting level; a hostile file exhausts the stack rather than the parser.
      if (/call stack/i.test(message)) message = 'the document nests too deeply to parse';
      diagnostics.push(
        diag(code, message, at(pos.line, pos.col), code === 'IT1003' ? { hint: 'each key may appear once per mapping; merge the two entries' } : {}),
      );
    }
    if (doc.errors.length > 0) {
      unusable.push({ index: i, ...salvage(doc) });
      continue;
    }
    // An empty document between separators, or after a trailing `---`, is harmless.
    if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null && (doc.contents.source ?? '') === '')) continue;
    const unsure = ambiguousScalars(doc, lineCounter, file);
    if (unsure.length > 0) {
      diagnostics.push(...unsure);
      unusable.push({ index: i, ...salvage(doc) });
      continue;
    }
    const proto = protoKey(doc.contents);
    if (proto) {
      const pos = lineCounter.linePos(proto.range?.[0] ?? 0);
      diagnostics.push(
        diag('IT1202', 'key `__proto__` is not allowed', at(pos.line, pos.col), {
          hint: 'it names the JavaScript object prototype and would be dropped silently; rename the key',
        }),
      );
      unusable.push({ index: i, ...salvage(doc) });
      continue;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (e) {
      const pos = lineCounter.linePos(doc.contents.range?.[0] ?? 0);
      const message = (e as Error).message;
      if (/unresolved alias/i.test(message)) {
        const alias = unresolvedAlias(doc, message);
        const where = alias ? lineCounter.linePos(alias) : pos;
        diagnostics.push(
          diag('IT1002', message.split('\n')[0] ?? message, at(where.line, where.col), {
            hint: 'an alias (*name) must follow the anchor (&name) it refers to',
          }),
        );
      } else {
        diagnostics.push(
          diag('IT1007', `aliases expand too much: ${message}`, at(pos.line, pos.col), {
            hint: 'catalogs do not need YAML aliases; write the values out or use a fragment',
          }),
        );
      }
      unusable.push({ index: i, ...salvage(doc) });
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      const pos = lineCounter.linePos(doc.contents.range?.[0] ?? 0);
      diagnostics.push(diag('IT1004', `document ${i + 1} is ${describe(value)}, not a mapping with a \`kind\``, at(pos.line, pos.col)));
      continue;
    }
    docs.push({ file, index: i, doc, lineCounter, value });
  }
  if (docs.length === 0 && diagnostics.length === 0) {
    diagnostics.push(diag('IT1005', 'file holds no YAML document', at(), { hint: 'delete the file or add a catalog document' }));
  }
  return { docs, diagnostics, unusable };
}

const PARSE_OPTIONS = { uniqueKeys: true, prettyErrors: false, strict: true } as const;

/**
 * Documents read by the fast reader, which takes only text the library parses without a complaint
 * into the same values and ranges. The library's documents are built only if something asks for
 * them.
 */
function fromFast(file: string, text: string, fast: FastParse): ParsedFile {
  const lineCounter = new LineCounter();
  for (const start of fast.lineStarts) lineCounter.addNewLine(start);
  let library: Document.Parsed[] | undefined;
  const libraryDoc = (index: number): Document.Parsed => {
    library ??= [...parseAllDocuments(text, PARSE_OPTIONS)] as Document.Parsed[];
    return library[index]!;
  };
  const docs = fast.docs.map((d): SourceDoc => {
    const src = { file, index: d.index, lineCounter, value: d.value, fast: d.contents };
    return Object.defineProperty(src, 'doc', { enumerable: true, get: () => libraryDoc(d.index) }) as typeof src & { doc: Document.Parsed };
  });
  return { docs, diagnostics: [], unusable: [] };
}

/**
 * Source range of the node at `path` in a document. With `key: true` the range of the mapping key
 * (where an unknown key should be reported); otherwise the value. Falls back to the nearest
 * ancestor
 * that exists, so a missing key is reported at its parent mapping.
 */
export function locate(src: SourceDoc, path: readonly PathSegment[], opts: { key?: boolean } = {}): SourceRange {
  if (src.patched !== undefined) {
    // The deepest part a patch wrote that holds the path: the field is where the patch says it.
    let from: PatchOrigin | undefined;
    for (const p of src.patched)
      if (p.path.length <= path.length && p.path.every((seg, i) => String(seg) === String(path[i])) && (from === undefined || p.path.length > from.path.length))
        from = p;
    if (from !== undefined) return locate(from.to, [...from.at, ...path.slice(from.path.length)], opts);
  }
  const range = (src.fast ? rangeAt(src.fast, path, opts, FAST_TREE) : rangeAt(src.doc.contents, path, opts, LIBRARY_TREE)) ?? [0, 0, 0];
  const start = src.lineCounter.linePos(range[0]);
  const end = src.lineCounter.linePos(range[1]);
  return { file: src.file, line: start.line, col: start.col, endLine: end.line, endCol: end.col };
}

/** How locate() sees a tree: mappings as key/value pairs, sequences as items. */
interface TreeView<N> {
  pairs(node: N): readonly { readonly key: N | null; readonly value: N | null }[] | undefined;
  items(node: N): readonly (N | null)[] | undefined;
  range(node: N): readonly [number, number, number] | undefined;
  keyText(key: N): string | undefined;
}

const LIBRARY_TREE: TreeView<unknown> = {
  pairs: (n) => (isMap(n) ? n.items.filter(isPair).map((p) => ({ key: p.key, value: p.value })) : undefined),
  items: (n) => (isSeq(n) ? n.items : undefined),
  range: (n) => (n as Node | null)?.range ?? undefined,
  keyText: (k) => (isScalar(k) ? String(k.value) : undefined),
};

const FAST_TREE: TreeView<FastNode> = {
  pairs: (n) => (n.type === 'map' ? n.items : undefined),
  items: (n) => (n.type === 'seq' ? n.items : undefined),
  range: (n) => n.range,
  keyText: (k) => (k.type === 'scalar' ? String(k.value) : undefined),
};

function rangeAt<N>(root: N | null, path: readonly PathSegment[], opts: { key?: boolean }, view: TreeView<N>): readonly [number, number, number] | undefined {
  let node: N | null = root;
  let best: N | null = root;
  for (let i = 0; i < path.length && node; i++) {
    const seg = path[i]!;
    const pairs = view.pairs(node);
    const items = view.items(node);
    if (pairs) {
      const pair = pairs.find((p) => p.key !== null && view.keyText(p.key) === String(seg));
      if (!pair) break;
      if (i === path.length - 1 && opts.key && pair.key) {
        best = pair.key;
        break;
      }
      node = pair.value;
      if (node) best = node;
      else if (pair.key) best = pair.key;
    } else if (items && typeof seg === 'number') {
      const item = items[seg];
      if (!item) break;
      node = item;
      best = item;
    } else {
      break;
    }
  }
  return best ? view.range(best) : undefined;
}

/** The first mapping key `__proto__` anywhere in a document: JavaScript objects cannot hold it as data. */
function protoKey(root: unknown): Node | undefined {
  const stack: unknown[] = [root];
  const seen = new Set<unknown>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node || seen.has(node)) continue;
    seen.add(node);
    if (isMap(node)) {
      for (const pair of node.items) {
        if (isScalar(pair.key) && pair.key.value === '__proto__') return pair.key as Node;
        stack.push(pair.value);
      }
    } else if (isSeq(node)) {
      stack.push(...node.items);
    }
  }
  return undefined;
}

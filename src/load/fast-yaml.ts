/**
 * A fast path for reading catalogs, the counterpart of emit/yaml-writer.ts. It reads the plain
 * block-style YAML catalogs and generators are written in (block mappings and sequences, one-line
 * flow collections, quoted one-line scalars, plain scalars on one line or folded over the lines
 * under it (as kubectl writes long strings), `|` and `|-` literals, comments where they lead the
 * next entry) and gives up on anything else, in which case parseSource uses the `yaml`
 * library, which also reports every error. For what it reads it gives the library's values (core
 * schema) and the library's node ranges, so a diagnostic points at the same line and column either
 * way; test/fast-yaml.test.ts compares both on every YAML file of the repository and on random and
 * mutated documents, so the library stays the definition. It exists because the library, cold
 * in a fresh process, took a fifth of an `itgen generate`.
 *
 * Frozen: the subset above is all it will ever read. Anything else (anchors and aliases, tags,
 * multi-line flow collections, folded `>` scalars, multi-line quoted scalars, plain ones with blank
 * lines or comments inside, explicit `?` keys, directives, complex keys) declines to the `yaml`
 * library; a new YAML feature is never added here, only to the library path. (The one exception,
 * folded plain scalars, was taken in because kubectl writes them in every pod dump: a dump of 32 MB
 * took 50 s on the library's path.) Over 400 lines because a YAML reader that matches the library's
 * values and ranges for that subset is one unit: split, its invariants would span files.
 *
 * Over 400 lines: One hand-written parser for the plain YAML catalogs are written in; its states
 * read best in one place.
 */

/** Offsets as the `yaml` library gives them: start, end of the value, end of the node (with its line's comment). */
export type FastRange = readonly [number, number, number];

export interface FastScalar {
  readonly type: 'scalar';
  readonly range: FastRange;
  readonly value: string | number | boolean | null;
}

export interface FastPair {
  readonly key: FastScalar;
  readonly value: FastNode;
}

export interface FastMap {
  readonly type: 'map';
  readonly range: FastRange;
  readonly items: readonly FastPair[];
  readonly value: Record<string, unknown>;
}

export interface FastSeq {
  readonly type: 'seq';
  readonly range: FastRange;
  readonly items: readonly FastNode[];
  readonly value: unknown[];
}

export type FastNode = FastScalar | FastMap | FastSeq;

export interface FastDocument {
  /** 0-based index of the document in its file, as the library counts them. */
  readonly index: number;
  readonly contents: FastMap;
  readonly value: Record<string, unknown>;
}

export interface FastParse {
  readonly docs: readonly FastDocument[];
  /** Offsets where lines start, as the library's LineCounter records them. */
  readonly lineStarts: readonly number[];
}

class Unsupported extends Error {}

const BLANK = 0;
const COMMENT = 1;
const CONTENT = 2;
const DOC_START = 3;

const SPACE = 0x20;
const HASH = 0x23;
const COLON = 0x3a;
const DASH = 0x2d;
const NEWLINE = 0x0a;

// Characters the fast path leaves to the library: tabs, carriage returns and other control
// characters, byte order marks, and line separators the YAML spec treats specially.
const UNSUPPORTED_CHARS = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff]/;
// Plain scalars that the core schema reads as something other than a string.
const NON_STRING =
  /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;
const SAFE_INT = /^(?:0|-?[1-9][0-9]{0,14})$/;
// First characters of a plain scalar the fast path reads; YAML indicators and anything unusual
// go to the library. A dash is fine before a letter, a digit or one more dash (checked by the caller).
const PLAIN_START = /[A-Za-z0-9_./~+($=<^-]/;
// YAML wants the `:` of an implicit key at most 1024 characters after the key's start; longer
// keys (with some margin for how characters are counted) go to the library.
const MAX_KEY = 1000;

/** The core schema's reading of a plain scalar. */
function resolvePlain(s: string): string | number | boolean | null {
  if (!NON_STRING.test(s)) return s;
  if (s === '~' || s === 'null' || s === 'Null' || s === 'NULL') return null;
  if (s === 'true' || s === 'True' || s === 'TRUE') return true;
  if (s === 'false' || s === 'False' || s === 'FALSE') return false;
  if (SAFE_INT.test(s)) return Number(s);
  throw new Unsupported();
}

/** A block mapping from its first key to the end of its last value. */
function mapNode(items: readonly FastPair[], start: number, value: Record<string, unknown>): FastMap {
  const end = items[items.length - 1]!.value.range[2];
  return { type: 'map', range: [start, end, end], items, value };
}

class Reader {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly indents: number[] = [];
  private readonly kinds: number[] = [];
  /** First line after the current document. */
  private docEnd = 0;

  constructor(private readonly text: string) {
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      let i = start;
      while (i < end && text.charCodeAt(i) === SPACE) i++;
      let kind = CONTENT;
      if (i === end) kind = BLANK;
      else if (text.charCodeAt(i) === HASH) kind = COMMENT;
      else if (i === start && text.startsWith('---', start)) {
        // A document marker with anything after it on its line is left to the library.
        if (end !== start + 3) throw new Unsupported();
        kind = DOC_START;
      } else if (i === start && (text.startsWith('...', start) || text.charCodeAt(start) === 0x25)) throw new Unsupported();
      this.starts.push(start);
      this.ends.push(end);
      this.indents.push(i - start);
      this.kinds.push(kind);
      start = end + 1;
    }
  }

  lineStarts(): number[] {
    const out = [0];
    for (const e of this.ends) if (e < this.text.length) out.push(e + 1);
    return out;
  }

  documents(): FastDocument[] {
    const docs: FastDocument[] = [];
    const n = this.kinds.length;
    let line = 0;
    let index = 0;
    let first = true;
    while (line < n) {
      let end = line;
      while (end < n && this.kinds[end] !== DOC_START) end++;
      const hasContent = this.kinds.slice(line, end).includes(CONTENT);
      if (hasContent) {
        this.docEnd = end;
        const [contents, next] = this.document(line);
        if (next !== end) throw new Unsupported();
        docs.push({ index: index++, contents, value: contents.value });
      } else if (!(first && end < n)) {
        // An empty document (between two markers, or after the last one): the library's business.
        throw new Unsupported();
      }
      first = false;
      line = end + 1;
    }
    if (docs.length === 0) throw new Unsupported();
    return docs;
  }

  private document(line: number): [FastMap, number] {
    const i = this.skip(line);
    if (i >= this.docEnd || this.indents[i] !== 0) throw new Unsupported();
    return this.blockMap(i, 0);
  }

  /**
   * The next content line of the document from `line` on. Comment lines passed over must sit at
   * the indentation of that line (or, at the end of the document, at column 1), which is where the
   * library attaches them to the entry they lead; elsewhere they would change the ranges of the
   * nodes before them, so such files go to the library.
   */
  private skip(line: number): number {
    let i = line;
    while (i < this.docEnd && this.kinds[i] !== CONTENT) i++;
    const want = i < this.docEnd ? this.indents[i] : 0;
    for (let j = line; j < i; j++) if (this.kinds[j] === COMMENT && this.indents[j] !== want) throw new Unsupported();
    return i;
  }

  /**
   * A block mapping whose first key starts at `at` on `line` (after `- ` when the mapping is a
   * sequence entry) and whose other keys start at `indent`.
   */
  private blockMap(line: number, indent: number, at = this.starts[line]! + indent): [FastMap, number] {
    const items: FastPair[] = [];
    const value: Record<string, unknown> = {};
    let i = line;
    let keyAt = at;
    do {
      const [pair, next] = this.entry(i, keyAt, indent, value);
      items.push(pair);
      i = this.skip(next);
      keyAt = this.starts[i]! + indent;
    } while (i < this.docEnd && this.indents[i] === indent);
    if (i < this.docEnd && this.indents[i]! > indent) throw new Unsupported();
    return [mapNode(items, at, value), i];
  }

  /** One `key: value` entry whose key starts at `at` on `line`; returns the line after it. */
  private entry(line: number, at: number, indent: number, into: Record<string, unknown>): [FastPair, number] {
    const text = this.text;
    const end = this.ends[line]!;
    const [key, afterKey] = this.key(at, end);
    if (Object.prototype.hasOwnProperty.call(into, key.value as string) || key.value === '__proto__') throw new Unsupported();
    let p = afterKey + 1;
    while (p < end && text.charCodeAt(p) === SPACE) p++;
    let node: FastNode;
    let next: number;
    if (p === end) {
      [node, next] = this.nestedBlock(line + 1, indent);
    } else {
      [node, next] = this.inlineValue(line, p, indent);
    }
    into[key.value as string] = node.value;
    return [{ key, value: node }, next];
  }

  /** A key at `at`, up to its `:` (which must end the line or precede a space). */
  private key(at: number, end: number): [FastScalar, number] {
    const text = this.text;
    const c = text.charCodeAt(at);
    let keyEnd: number;
    let value: string;
    let colon: number;
    if (c === 0x22 || c === 0x27) {
      [value, keyEnd] = this.quoted(at, end);
      colon = keyEnd;
    } else {
      this.plainStart(at, end);
      colon = at;
      for (;;) {
        colon = this.find(':', colon, end);
        if (colon < 0) throw new Unsupported();
        if (colon + 1 === end || text.charCodeAt(colon + 1) === SPACE) break;
        colon++;
      }
      keyEnd = colon;
      while (text.charCodeAt(keyEnd - 1) === SPACE) keyEnd--;
      const raw = text.slice(at, keyEnd);
      if (raw.includes(' #')) throw new Unsupported();
      const resolved = resolvePlain(raw);
      if (typeof resolved !== 'string') throw new Unsupported();
      value = resolved;
    }
    if (text.charCodeAt(colon) !== COLON || colon - at > MAX_KEY) throw new Unsupported();
    if (colon + 1 !== end && text.charCodeAt(colon + 1) !== SPACE) throw new Unsupported();
    return [{ type: 'scalar', range: [at, keyEnd, keyEnd], value }, colon];
  }

  /** The block node under a `key:` or starting a document: a deeper mapping or a sequence. */
  private nestedBlock(line: number, parentIndent: number): [FastNode, number] {
    const i = this.skip(line);
    if (i >= this.docEnd) throw new Unsupported();
    const indent = this.indents[i]!;
    const at = this.starts[i]! + indent;
    const isSeq = this.text.charCodeAt(at) === DASH && this.text.charCodeAt(at + 1) === SPACE;
    if (isSeq && indent >= parentIndent) return this.blockSeq(i, indent);
    if (!isSeq && indent > parentIndent) return this.blockMap(i, indent);
    throw new Unsupported();
  }

  private blockSeq(line: number, indent: number): [FastSeq, number] {
    const text = this.text;
    const items: FastNode[] = [];
    const value: unknown[] = [];
    let i = line;
    while (i < this.docEnd && this.indents[i] === indent) {
      const dash = this.starts[i]! + indent;
      if (text.charCodeAt(dash) !== DASH || text.charCodeAt(dash + 1) !== SPACE) break;
      let p = dash + 2;
      const end = this.ends[i]!;
      while (p < end && text.charCodeAt(p) === SPACE) p++;
      if (p === end) throw new Unsupported();
      let node: FastNode;
      let next: number;
      if (this.startsEntry(p, end)) {
        // `- key: value` and the lines after it at that key's indentation form one mapping.
        [node, next] = this.blockMap(i, p - this.starts[i]!, p);
      } else {
        [node, next] = this.inlineValue(i, p, indent);
      }
      items.push(node);
      value.push(node.value);
      i = this.skip(next);
    }
    if (items.length === 0) throw new Unsupported();
    if (i < this.docEnd && this.indents[i]! > indent) throw new Unsupported();
    const end = items[items.length - 1]!.range[2];
    return [{ type: 'seq', range: [this.starts[line]! + indent, end, end], items, value }, i];
  }

  /** Whether the text at `p` is `key:` (a mapping entry) rather than a scalar. */
  private startsEntry(p: number, end: number): boolean {
    const text = this.text;
    const c = text.charCodeAt(p);
    if (c === 0x22 || c === 0x27) {
      const close = this.quoted(p, end)[1];
      return text.charCodeAt(close) === COLON;
    }
    if (c === 0x5b || c === 0x7b || c === 0x7c) return false;
    for (let q = this.find(':', p, end); q >= 0; q = this.find(':', q + 1, end)) {
      if (q + 1 === end || text.charCodeAt(q + 1) === SPACE) {
        const hash = this.find(' #', p, end);
        return hash < 0 || hash > q;
      }
    }
    return false;
  }

  /** A value that starts on its key's (or dash's) line at `p`; returns the line after it. */
  private inlineValue(line: number, p: number, indent: number): [FastNode, number] {
    const text = this.text;
    const end = this.ends[line]!;
    const lineEnd = end < text.length ? end + 1 : end;
    const c = text.charCodeAt(p);
    if (c === 0x7c) return this.literal(line, p, indent);
    let node: FastNode;
    let after: number;
    if (c === 0x5b || c === 0x7b) {
      [node, after] = this.flow(p, end);
    } else if (c === 0x22 || c === 0x27) {
      const [value, close] = this.quoted(p, end);
      node = { type: 'scalar', range: [p, close, close], value };
      after = close;
    } else {
      this.plainStart(p, end);
      let stop = this.find(' #', p, end);
      if (stop < 0) stop = end;
      let e = stop;
      while (text.charCodeAt(e - 1) === SPACE) e--;
      const raw = text.slice(p, e);
      // `a: b` inside a value, or a value ending in a colon, is a nested mapping or an error.
      if (raw.includes(': ') || raw.endsWith(':')) throw new Unsupported();
      if (stop === end) {
        const more = this.plainContinuation(line, p, indent, raw);
        if (more) return more;
      }
      node = { type: 'scalar', range: [p, e, e], value: resolvePlain(raw) };
      after = e;
    }
    // After the value: nothing, or a comment.
    let q = after;
    while (q < end && text.charCodeAt(q) === SPACE) q++;
    if (q < end && !(text.charCodeAt(q) === HASH && q > after)) throw new Unsupported();
    return [{ ...node, range: [node.range[0], node.range[1], lineEnd] }, line + 1];
  }

  /**
   * A plain scalar that goes on over the lines after `line` (as kubectl's YAML, which folds long
   * strings at 80 columns, writes them): each line more indented than `indent`, folded into one
   * with single spaces. Undefined when the next line is not such a line. The lines must be
   * consecutive, without comments, `: ` or ` #`, each starting as a plain scalar may; anything else
   * (a blank line folded in, a flow indicator) is left to the library.
   */
  private plainContinuation(line: number, p: number, indent: number, first: string): [FastScalar, number] | undefined {
    const text = this.text;
    let i = line + 1;
    const parts = [first];
    let last = line;
    let valueEnd = 0;
    while (i < this.docEnd && this.kinds[i] === CONTENT && this.indents[i]! > indent) {
      const s = this.starts[i]! + this.indents[i]!;
      let e = this.ends[i]!;
      while (text.charCodeAt(e - 1) === SPACE) e--;
      const part = text.slice(s, e);
      if (!PLAIN_START.test(part[0]!) || part.includes(': ') || part.endsWith(':') || part.includes(' #')) throw new Unsupported();
      parts.push(part);
      last = i;
      valueEnd = e;
      i++;
    }
    if (last === line) return undefined;
    // A blank or comment line, then more of it, is not read here.
    let j = i;
    while (j < this.docEnd && this.kinds[j] !== CONTENT) j++;
    if (j > i && j < this.docEnd && this.indents[j]! > indent) throw new Unsupported();
    const lineEnd = this.ends[last]! < text.length ? this.ends[last]! + 1 : this.ends[last]!;
    return [{ type: 'scalar', range: [p, valueEnd, lineEnd], value: parts.join(' ') }, last + 1];
  }

  /** `|` or `|-` and the lines under it. */
  private literal(line: number, p: number, indent: number): [FastScalar, number] {
    const text = this.text;
    const end = this.ends[line]!;
    const header = text.slice(p, end);
    if (header !== '|' && header !== '|-') throw new Unsupported();
    const first = line + 1;
    if (first >= this.docEnd || this.kinds[first] === BLANK) throw new Unsupported();
    const contentIndent = this.indents[first]!;
    if (contentIndent <= indent) throw new Unsupported();
    const lines: string[] = [];
    let last = first;
    let i = first;
    for (; i < this.docEnd; i++) {
      const s = this.starts[i]!;
      const e = this.ends[i]!;
      if (s === e) {
        lines.push('');
        continue;
      }
      if (this.kinds[i] === BLANK) throw new Unsupported();
      if (this.indents[i]! < contentIndent) break;
      lines.push(text.slice(s + contentIndent, e));
      last = i;
    }
    lines.length = last - first + 1;
    const endOffset = this.ends[last]! < text.length ? this.ends[last]! + 1 : this.ends[last]!;
    const value = lines.join('\n') + (header === '|' ? '\n' : '');
    return [{ type: 'scalar', range: [p, endOffset, endOffset], value }, last + 1];
  }

  /** A one-line quoted scalar at `p`: its value and the offset after the closing quote. */
  private quoted(p: number, end: number): [string, number] {
    const text = this.text;
    const q = text.charCodeAt(p);
    if (q === 0x22) {
      const close = this.find('"', p + 1, end);
      if (close < 0) throw new Unsupported();
      const value = text.slice(p + 1, close);
      if (value.includes('\\')) throw new Unsupported();
      return [value, close + 1];
    }
    let i = p + 1;
    for (;;) {
      const close = this.find("'", i, end);
      if (close < 0) throw new Unsupported();
      if (text.charCodeAt(close + 1) === 0x27) {
        i = close + 2;
        continue;
      }
      return [text.slice(p + 1, close).replace(/''/g, "'"), close + 1];
    }
  }

  private plainStart(p: number, end: number): void {
    const c = this.text[p]!;
    if (p >= end || !PLAIN_START.test(c)) throw new Unsupported();
    // A dash starts a scalar only before a letter or digit (`-1`, `-x`) or another dash (`--port=80`,
    // as command lines in kubectl's pod dumps have; never `---`); before anything else it may be a
    // sequence entry.
    if (c === '-' && (p + 1 >= end || !/[A-Za-z0-9-]/.test(this.text[p + 1]!) || (this.text[p + 1] === '-' && this.text[p + 2] === '-')))
      throw new Unsupported();
  }

  /** A flow collection that opens and closes on this line. */
  private flow(p: number, end: number): [FastMap | FastSeq, number] {
    if (this.text.charCodeAt(p) === 0x5b) {
      const items: FastNode[] = [];
      const value: unknown[] = [];
      const close = this.flowEntries(p + 1, end, 0x5d, (at) => {
        const [node, after] = this.flowNode(at, end, false);
        items.push(node);
        value.push(node.value);
        return after;
      });
      return [{ type: 'seq', range: [p, close + 1, close + 1], items, value }, close + 1];
    }
    const items: FastPair[] = [];
    const value: Record<string, unknown> = {};
    const close = this.flowEntries(p + 1, end, 0x7d, (at) => {
      const [key, afterKey] = this.flowNode(at, end, true);
      if (key.type !== 'scalar' || typeof key.value !== 'string' || key.value === '__proto__') throw new Unsupported();
      if (Object.prototype.hasOwnProperty.call(value, key.value)) throw new Unsupported();
      if (this.text.charCodeAt(afterKey) !== COLON || this.text.charCodeAt(afterKey + 1) !== SPACE || afterKey - at > MAX_KEY) throw new Unsupported();
      const [node, after] = this.flowNode(this.spaces(afterKey + 1, end), end, false);
      items.push({ key, value: node });
      value[key.value] = node.value;
      return after;
    });
    return [{ type: 'map', range: [p, close + 1, close + 1], items, value }, close + 1];
  }

  /**
   * The entries of a flow collection, from after its opening bracket to the `close` bracket, whose
   * offset it returns; `read` reads one entry at an offset and returns the offset after it.
   */
  private flowEntries(from: number, end: number, close: number, read: (at: number) => number): number {
    const text = this.text;
    let i = this.spaces(from, end);
    if (text.charCodeAt(i) === close) return i;
    for (;;) {
      i = this.spaces(read(i), end);
      const c = text.charCodeAt(i);
      if (c === close) return i;
      // Anything but a comma between entries, or a trailing comma, is the library's business.
      if (c !== 0x2c) throw new Unsupported();
      i = this.spaces(i + 1, end);
      if (text.charCodeAt(i) === close) throw new Unsupported();
    }
  }

  /**
   * Offset of `needle` between `from` and `end` (within one line), or -1. Never searches past
   * `end`: a search to the end of the text for every line would make big files quadratic.
   */
  private find(needle: string, from: number, end: number): number {
    const text = this.text;
    const first = needle.charCodeAt(0);
    const second = needle.length > 1 ? needle.charCodeAt(1) : -1;
    for (let i = from; i < end; i++) {
      if (text.charCodeAt(i) === first && (second < 0 || text.charCodeAt(i + 1) === second)) return i;
    }
    return -1;
  }

  private spaces(from: number, end: number): number {
    let i = from;
    while (i < end && this.text.charCodeAt(i) === SPACE) i++;
    return i;
  }

  private flowNode(p: number, end: number, isKey: boolean): [FastNode, number] {
    const text = this.text;
    if (p >= end) throw new Unsupported();
    const c = text.charCodeAt(p);
    if (c === 0x5b || c === 0x7b) {
      if (isKey) throw new Unsupported();
      return this.flow(p, end);
    }
    if (c === 0x22 || c === 0x27) {
      const [value, close] = this.quoted(p, end);
      return [{ type: 'scalar', range: [p, close, close], value }, close];
    }
    this.plainStart(p, end);
    let i = p;
    for (; i < end; i++) {
      const ch = text.charCodeAt(i);
      if (ch === 0x2c || ch === 0x5b || ch === 0x5d || ch === 0x7b || ch === 0x7d || ch === HASH || ch === COLON) break;
    }
    const stop = i < end ? text.charCodeAt(i) : NEWLINE;
    // A colon ends a key (before a space); anywhere else, and any `#`, is left to the library.
    if (stop === HASH || (stop === COLON && !(isKey && text.charCodeAt(i + 1) === SPACE))) throw new Unsupported();
    if (stop !== COLON && isKey) throw new Unsupported();
    let e = i;
    while (text.charCodeAt(e - 1) === SPACE) e--;
    const raw = text.slice(p, e);
    const value = resolvePlain(raw);
    if (isKey && typeof value !== 'string') throw new Unsupported();
    return [{ type: 'scalar', range: [p, e, e], value }, e];
  }
}

/**
 * The documents of `text` with their values and node ranges, or undefined when the text uses
 * anything outside the subset this reader takes (the caller then uses the `yaml` library).
 */
export function parseFast(text: string): FastParse | undefined {
  if (text.length === 0 || text.charCodeAt(text.length - 1) !== NEWLINE || UNSUPPORTED_CHARS.test(text)) return undefined;
  try {
    const reader = new Reader(text);
    const docs = reader.documents();
    return { docs, lineStarts: reader.lineStarts() };
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    // Deep nesting exhausts the stack; the library reports it.
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}

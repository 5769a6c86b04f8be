/**
 * The CEL the generated admission policies are written in, built so that it stays within what
 * kube-apiserver accepts and runs at any catalog size:
 *
 * - every expression under CEL's parser limit (100,000 code points, cel-go's default, which
 *   kube-apiserver keeps): what grows with the catalog (the names, their families, classes and
 *   replacements) is split into several variables of at most EXPRESSION_BUDGET code points, each
 *   a map literal holding a sorted range of names, looked up through a comparison tree on the
 *   ranges' first names (a lookup costs the tree's depth, never the catalog's size);
 * - the did-you-mean within kube-apiserver's per-call cost limit (1,000,000): the candidates are
 *   made from the name itself (each letter dropped, each letter of the catalog's alphabet added at
 *   each place) and looked up, so its cost grows with the name's length (SUGGEST_MAX) and the
 *   alphabet (at most the 38 characters of DNS names), never with the catalog.
 *
 * The result is the same suggestion `nearestName` (src/suggest.ts) gives; the policy corpus holds
 * both to kube-apiserver's own plugin, and test/fixtures/policy-scale/ holds a 10,000-type
 * catalog's policies to its validation and cost limits.
 */
import type { JsonObject } from '../json';
import { SUGGEST_MAX } from '../suggest';

/** At most this many code points in one generated expression (kube-apiserver refuses more than 100,000). */
export const EXPRESSION_BUDGET = 90_000;
/** CEL's parser limit, which kube-apiserver keeps. */
export const CEL_EXPRESSION_LIMIT = 100_000;
/** What etcd stores per object by default (`--max-request-bytes`), which bounds what the API server accepts. */
export const OBJECT_LIMIT_BYTES = 1.5 * 1024 * 1024;

/** A CEL string literal: double-quoted, every character outside printable ASCII escaped. */
export function celString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else out += c > 0xffff ? `\\U${c.toString(16).padStart(8, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}

/**
 * A map from names to CEL values (`entries` sorted by name, values as CEL text), split into
 * variables `<name>0`, `<name>1`, ... of at most EXPRESSION_BUDGET code points.
 */
export interface ChunkedMap {
  readonly variables: JsonObject[];
  /** CEL: whether the name `x` (a CEL expression) is a key. */
  has(x: string): string;
  /** CEL: the value for `x`, or `missing` (CEL) when it is not a key. */
  get(x: string, missing: string): string;
}

export function chunkedMap(name: string, entries: readonly (readonly [string, string])[]): ChunkedMap {
  const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const chunks: (readonly [string, string])[][] = [];
  let size = Infinity;
  for (const e of sorted) {
    const text = `${celString(e[0])}: ${e[1]}, `.length;
    if (size + text > EXPRESSION_BUDGET) {
      chunks.push([]);
      size = 2;
    }
    chunks[chunks.length - 1]!.push(e);
    size += text;
  }
  const variables = chunks.map((c, i) => ({ name: `${name}${i}`, expression: `{${c.map(([k, v]) => `${celString(k)}: ${v}`).join(', ')}}` }));
  // A comparison tree over the chunks' first keys: chunk i holds the keys from its first to the next chunk's first.
  const tree = (x: string, lo: number, hi: number, leaf: (i: number) => string): string => {
    if (hi - lo === 1) return leaf(lo);
    const mid = Math.ceil((lo + hi) / 2);
    return `(${x} < ${celString(chunks[mid]![0]![0])} ? ${tree(x, lo, mid, leaf)} : ${tree(x, mid, hi, leaf)})`;
  };
  return {
    variables,
    has: (x) => (chunks.length === 0 ? 'false' : tree(x, 0, chunks.length, (i) => `(${x} in variables.${name}${i})`)),
    get: (x, missing) =>
      chunks.length === 0 ? missing : tree(x, 0, chunks.length, (i) => `(${x} in variables.${name}${i} ? variables.${name}${i}[${x}] : ${missing})`),
  };
}

/** A set of names: a chunked map to `true`. */
export const chunkedSet = (name: string, names: readonly string[]): ChunkedMap =>
  chunkedMap(
    name,
    [...new Set(names)].map((n) => [n, 'true'] as const),
  );

/** 0 .. SUGGEST_MAX: the places a letter can be dropped from, or added at (CEL has no loop). */
const PLACES = `[${Array.from({ length: SUGGEST_MAX + 1 }, (_, i) => i).join(', ')}]`;

/** CEL: the least string of the list `l` (an identifier; the list is not empty). */
const least = (l: string, a: string, b: string): string => `${l}.filter(${a}, ${l}.all(${b}, ${a} <= ${b}))[0]`;

/**
 * The did-you-mean of one kind as CEL variables: `<which>Suggestion` is nearestName(name, known)
 * when `unknown` (a CEL condition) holds, else "". The steps, as nearestName takes them: the name
 * in lower case; the least known name with one letter more (a letter dropped); the first of the
 * name's deletions that is known (a letter added); at the first place where a known name has
 * another letter or the two letters there swapped, the least such name.
 * (CEL's map macro creates a list per element, which costs 10: candidates are filtered first.)
 */
export function suggestionVariables(which: string, it: string, unknown: string, known: ChunkedMap, alphabet: readonly string[]): JsonObject[] {
  const v = (s: string): string => `variables.${which}${s}`;
  const chars = `[${[...new Set(alphabet)].sort().map(celString).join(', ')}]`;
  const swap = (i: string): string =>
    `${it}.substring(0, ${i}) + ${it}.substring(${i} + 1, ${i} + 2) + ${it}.substring(${i}, ${i} + 1) + ${it}.substring(${i} + 2)`;
  // The known names made by putting each letter of the alphabet between `q[0]` and `q[1]`.
  const between = `${v('Alphabet')}.filter(c, ${known.has('q[0] + c + q[1]')}).map(c, q[0] + c + q[1])`;
  return [
    { name: `${which}Unknown`, expression: unknown },
    { name: `${which}Alphabet`, expression: chars },
    // Each letter dropped, in order of place.
    {
      name: `${which}Deletions`,
      expression: `${v('Unknown')} ? ${PLACES}.filter(i, i < size(${it})).map(i, ${it}.substring(0, i) + ${it}.substring(i + 1)) : []`,
    },
    // Per place, the known names with a letter added there.
    {
      name: `${which}Longer`,
      expression: `${v('Unknown')} && size(${it}) > 0 ? ${PLACES}.filter(j, j <= size(${it})).map(j, [${it}.substring(0, j), ${it}.substring(j)]).map(q, ${between}).filter(l, size(l) > 0).map(l, ${least('l', 'a', 'b')}) : []`,
    },
    // Per place, the known names with the letter there changed, and the name with the letters at place and place + 1 swapped if known.
    {
      name: `${which}Changed`,
      expression: `${v('Unknown')} ? ${PLACES}.filter(i, i < size(${it})).map(i, [${it}.substring(0, i), ${it}.substring(i + 1)]).map(q, ${between}) : []`,
    },
    {
      name: `${which}Swapped`,
      expression: `${v('Unknown')} ? ${PLACES}.filter(i, i < size(${it})).map(i, i + 1 < size(${it}) && ${known.has(swap('i'))} ? ${swap('i')} : "") : []`,
    },
    {
      name: `${which}Edited`,
      expression:
        `${PLACES}.filter(i, i < size(${v('Changed')})).map(i, ${v('Changed')}[i] + (${v('Swapped')}[i] != "" ? [${v('Swapped')}[i]] : []) + ` +
        `(i > 0 && ${v('Swapped')}[i - 1] != "" ? [${v('Swapped')}[i - 1]] : [])).filter(l, size(l) > 0).map(l, ${least('l', 'a', 'b')})`,
    },
    {
      name: `${which}Suggestion`,
      expression:
        `!${v('Unknown')} ? "" : ${known.has(`${it}.lowerAscii()`)} ? ${it}.lowerAscii() : ` +
        `size(${v('Longer')}) > 0 ? ${least(v('Longer'), 'a', 'b')} : ` +
        `${v('Deletions')}.exists(d, ${known.has('d')}) ? ${v('Deletions')}.filter(d, ${known.has('d')})[0] : ` +
        `size(${v('Edited')}) > 0 ? ${v('Edited')}[0] : ""`,
    },
  ];
}

/**
 * A CEL expression broken into lines of at most WRAP characters at spaces outside string literals
 * (a longer word keeps a line of its own): a policy people review in a pull request, where one more
 * instance type changes a line, and a YAML file within yamllint's line length at any indentation
 * the policy has.
 */
const WRAP = 100;
export function wrapCel(expression: string): string {
  // The words: split at spaces outside string literals.
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  for (let i = 0; i < expression.length; i++) {
    const ch = expression[i]!;
    if (quote !== undefined) {
      word += ch;
      if (ch === '\\' && i + 1 < expression.length) word += expression[++i]!;
      else if (ch === quote) quote = undefined;
    } else if (ch === ' ') {
      words.push(word);
      word = '';
    } else {
      if (ch === '"' || ch === "'") quote = ch;
      word += ch;
    }
  }
  words.push(word);
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line !== '' && line.length + 1 + w.length > WRAP) {
      lines.push(line);
      line = w;
    } else line = line === '' ? w : `${line} ${w}`;
  }
  lines.push(line);
  return lines.join('\n');
}

/** What kube-apiserver would refuse in one policy object for its size: its expressions', its own. */
export function policySizeProblems(policy: JsonObject): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  const spec = (policy['spec'] ?? {}) as JsonObject;
  for (const [key, fields] of [
    ['matchConditions', ['expression']],
    ['variables', ['expression']],
    ['validations', ['expression', 'messageExpression']],
  ] as const) {
    const items = spec[key];
    if (!Array.isArray(items)) continue;
    items.forEach((item, i) => {
      for (const f of fields) {
        const e = item !== null && typeof item === 'object' ? (item as JsonObject)[f] : undefined;
        if (typeof e !== 'string') continue;
        const points = [...e].length;
        if (points > CEL_EXPRESSION_LIMIT)
          problems.push({
            field: `spec.${key}[${i}].${f}`,
            message: `${points} code points; CEL's parser in kube-apiserver refuses more than ${CEL_EXPRESSION_LIMIT}`,
          });
      }
    });
  }
  const bytes = Buffer.byteLength(JSON.stringify(policy));
  if (bytes > OBJECT_LIMIT_BYTES)
    problems.push({ field: 'metadata.name', message: `${bytes} bytes as JSON; the API server stores at most ${OBJECT_LIMIT_BYTES} (1.5 MiB) per object` });
  return problems;
}

/**
 * virt-template-engine's `expression` generator (template/generator/expressionvalue.go, v0.2.0 as
 * KubeVirt d923fdb815 vendors it): `[ranges]{length}` parts of `from` replaced, left to right, by
 * random characters of the ranges' alphabet. Transcribed with its quirks: `\a` is letters and
 * digits (its comment says letters), a range is found anywhere in the brackets (`[a--]` is `a`),
 * the length is any word (`{abc}` fails in strconv.Atoi's words), and a generated value is itself
 * searched again for an expression. The randomness is Node's crypto, as the engine's is Go's.
 */
import { randomInt } from 'node:crypto';

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const ALPHANUMERIC = LETTERS + DIGITS;
const SYMBOLS = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const MIN_LENGTH = 1;
const MAX_LENGTH = 255;

/** exprPattern: `\[([a-zA-Z0-9\-\\]+)\](\{(\w+)\})` */
const EXPRESSION = /\[([a-zA-Z0-9\-\\]+)\](\{(\w+)\})/;
/** rangePattern, matched as Go's RE2 does (leftmost, first alternative). */
const RANGE = /(\\w)|(\\d)|(\\a)|(\\A)|(.-.)|([a-zA-Z0-9]+)/g;
const ANY_RANGE = new RegExp(RANGE.source);

export class GeneratorError extends Error {}

/** strconv.Atoi's errors, as Go words them (int64's range). */
function atoi(s: string): bigint {
  if (!/^[+-]?\d+$/.test(s)) throw new GeneratorError(`malformed length syntax: strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  const n = BigInt(s);
  if (n > 2n ** 63n - 1n || n < -(2n ** 63n)) throw new GeneratorError(`malformed length syntax: strconv.Atoi: parsing ${goQuote(s)}: value out of range`);
  return n;
}

/** `[ranges]{length}` split, the length checked (extractRangesAndLength). */
export function rangesAndLength(expr: string): { ranges: string; length: number } {
  const lengthStart = expr.lastIndexOf('{');
  const ranges = expr.slice(1, lengthStart - 1);
  if (!ANY_RANGE.test(ranges)) throw new GeneratorError(`malformed ranges syntax: ${ranges}`);
  const length = atoi(expr.slice(lengthStart + 1, expr.length - 1));
  if (length < MIN_LENGTH || length > MAX_LENGTH) throw new GeneratorError(`range must be within [${MIN_LENGTH}-${MAX_LENGTH}] characters: ${length}`);
  return { ranges, length: Number(length) };
}

function subAlphabet(from: string, to: string): string {
  const left = ALPHANUMERIC.indexOf(from);
  const right = ALPHANUMERIC.indexOf(to);
  if (left === -1) throw new GeneratorError(`invalid start character in range: ${from}`);
  if (right === -1) throw new GeneratorError(`invalid end character in range: ${to}`);
  if (left > right) throw new GeneratorError(`invalid range specified: ${from}-${to}`);
  return ALPHANUMERIC.slice(left, right + 1);
}

/** Every character the ranges allow, deduplicated and sorted by code point (getAlphabetFromRanges). */
export function alphabetOf(ranges: string): string {
  const matches = [...ranges.matchAll(RANGE)];
  if (matches.length === 0) throw new GeneratorError(`malformed ranges syntax: ${ranges}`);
  let b = '';
  for (const [r] of matches) {
    if (r === '\\w') b += LETTERS + DIGITS + '_';
    else if (r === '\\d') b += DIGITS;
    else if (r === '\\a') b += LETTERS + DIGITS;
    else if (r === '\\A') b += SYMBOLS;
    else b += r.length === 3 && r[1] === '-' ? subAlphabet(r[0]!, r[2]!) : r;
  }
  return [...new Set(b)].sort((x, y) => x.codePointAt(0)! - y.codePointAt(0)!).join('');
}

export interface Generated {
  /** The expression it was drawn from. */
  readonly from: string;
  readonly value: string;
  /** Each expression replaced, with its alphabet and length (what a reader can check a value against). */
  readonly parts: readonly { readonly expression: string; readonly alphabet: string; readonly length: number }[];
}

/** GenerateValue: `from` with each expression replaced; `pick` chooses an index below its bound (random by default). */
export function generateValue(from: string, pick: (bound: number) => number = randomInt): Generated {
  let s = from;
  const parts: { expression: string; alphabet: string; length: number }[] = [];
  // The engine loops until no expression is left; a value drawn from `\A` can hold one again. Bounded
  // here (the engine's loop is too, in practice: each round draws fresh characters).
  for (let round = 0; round < 10_000; round++) {
    const m = EXPRESSION.exec(s);
    if (!m) return { from, value: s, parts };
    const expr = m[0];
    const { ranges, length } = rangesAndLength(expr);
    const alphabet = alphabetOf(ranges);
    if (alphabet.length < 1) throw new GeneratorError(`alphabet cannot be empty: ${expr}`);
    let val = '';
    for (let i = 0; i < length; i++) val += alphabet[pick(alphabet.length)];
    const at = s.indexOf(expr);
    s = s.slice(0, at) + val + s.slice(at + expr.length);
    parts.push({ expression: expr, alphabet, length });
  }
  throw new GeneratorError(`expression ${goQuote(from)} keeps producing expressions`);
}

/** A regular expression that every value generateValue can draw from `from` matches (for checking a value of another run). */
export function generatedPattern(from: string): RegExp {
  let out = '';
  let rest = from;
  for (;;) {
    const m = EXPRESSION.exec(rest);
    if (!m) break;
    const { ranges, length } = rangesAndLength(m[0]);
    const alphabet = alphabetOf(ranges);
    out += escapeRegExp(rest.slice(0, m.index)) + `[${[...alphabet].map((c) => `\\u{${c.codePointAt(0)!.toString(16)}}`).join('')}]{${length}}`;
    rest = rest.slice(m.index + m[0].length);
  }
  return new RegExp(`^${out}${escapeRegExp(rest)}$`, 'u');
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** strconv.Quote for the text the engine's errors quote (Go's %q). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c === 7) out += '\\a';
    else if (c === 8) out += '\\b';
    else if (c === 12) out += '\\f';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else if (c === 11) out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c === 0xfffd && ch !== '\ufffd') out += '\\ufffd';
    else if ((c >= 0x80 && c < 0xa0) || c === 0xad || (c >= 0x2028 && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c === 0xfeff)
      out += c > 0xffff ? `\\U${c.toString(16).padStart(8, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + '"';
}

/**
 * A fast path for serializing manifests. The output format is the `yaml` library's, with the
 * options in serialize.ts; this writer reproduces it byte for byte for the plain data manifests
 * are made of (mappings with simple keys, sequences, integers, booleans, simple and multi-line
 * strings) and gives up on anything else, in which case the caller uses the library. Tests compare
 * both on every generated output and on random data, so the library stays the definition of the
 * format. It exists because serialization dominated a cold `itgen generate`.
 */

import { stringify } from 'yaml';
import { holdsUnprintable, WORKFLOW_COMMAND_LINE } from '../printable';
import { readsAsNonString, YAML_OPTIONS } from './yaml-options';

class Unsupported extends Error {}

const quoted = new Map<string, string>();

/** The library's own rendering of a one-line string scalar, when it quotes it on one line. */
function quotedByLibrary(v: string): string {
  const known = quoted.get(v);
  if (known !== undefined) return known;
  if (v.includes('\n') || v.startsWith('---') || v.startsWith('...')) throw new Unsupported();
  const text = stringify(v, YAML_OPTIONS);
  const line = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (line.includes('\n') || !(line.startsWith('"') || line.startsWith("'"))) throw new Unsupported();
  if (quoted.size < 10000) quoted.set(v, line);
  return line;
}

// Strings the library prints as plain scalars unless they read as another type: start with a
// letter or digit, then letters, digits and a few punctuation marks, single spaces between words.
// Conservative on purpose.
// A colon is fine inside a word (URLs), never before a space or at the end.
const PLAIN = /^[A-Za-z0-9](?:[A-Za-z0-9_./()+,=-]|:(?=[^\s]))*(?: (?:[A-Za-z0-9_./()+,=-]|:(?=[^\s]))+)*$/;
const KEY = /^[A-Za-z][A-Za-z0-9_./-]*$/;
// A block literal line the library keeps as is: no leading or trailing whitespace, no tabs or
// other control characters.
const LITERAL_LINE =
  /^(?:[^\s\x00-\x1f\x7f\u0085\u2028\u2029\ufeff](?:[^\t\n\r\x00-\x1f\x7f\u0085\u2028\u2029\ufeff]*[^\s\x00-\x1f\x7f\u0085\u2028\u2029\ufeff])?)?$/;

function scalar(v: unknown): string {
  if (typeof v === 'string') {
    // Plain unless a YAML 1.1 reader would take it for a number, boolean, date...; then the
    // library double-quotes it, and these characters need no escaping inside double quotes.
    if (PLAIN.test(v)) return readsAsNonString(v) ? `"${v}"` : v;
    // Unprintable characters (never in a PLAIN string) are escaped inside double quotes, which serialize.ts's toYaml writes.
    if (holdsUnprintable(v)) throw new Unsupported();
    // Anything the library would not print plain, it quotes the same way in any block context.
    return quotedByLibrary(v);
  }
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v) && !Object.is(v, -0)) return String(v);
    throw new Unsupported();
  }
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null) return 'null';
  throw new Unsupported();
}

function literal(v: string, indent: string): string {
  const m = /\n*$/.exec(v)!;
  const trailing = m[0].length;
  const body = v.slice(0, v.length - trailing);
  if (body.length === 0 || trailing > 1) throw new Unsupported();
  const lines = body.split('\n');
  // A line a CI runner would read as a workflow command: the library writes such strings double-quoted.
  if (lines[0] === '' || holdsUnprintable(v) || !lines.every((l) => LITERAL_LINE.test(l) && !WORKFLOW_COMMAND_LINE.test(l))) throw new Unsupported();
  const head = trailing === 0 ? '|-' : '|';
  return `${head}\n${lines.map((l) => (l === '' ? '' : `${indent}${l}`)).join('\n')}\n`;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

// Keys already found to print plain: manifests repeat the same few dozen keys.
const plainKeys = new Set<string>();

/** `key: value` lines of a mapping at `indent`. */
function mapping(obj: Record<string, unknown>, indent: string, out: string[]): void {
  const keys = Object.keys(obj);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (!plainKeys.has(key)) {
      if (!KEY.test(key) || readsAsNonString(key)) throw new Unsupported();
      if (plainKeys.size < 10000) plainKeys.add(key);
    }
    value(`${indent}${key}:`, obj[key], indent, out);
  }
}

/** Append `prefix` and the value after it; nested collections go on the following lines. */
function value(prefix: string, v: unknown, indent: string, out: string[]): void {
  if (isMap(v)) {
    if (Object.keys(v).length === 0) {
      out.push(`${prefix} {}\n`);
      return;
    }
    out.push(`${prefix}\n`);
    mapping(v, `${indent}  `, out);
    return;
  }
  if (Array.isArray(v)) {
    if (v.length === 0) {
      out.push(`${prefix} []\n`);
      return;
    }
    out.push(`${prefix}\n`);
    const itemIndent = `${indent}  `;
    for (const item of v) {
      if (isMap(item) && Object.keys(item).length > 0) {
        // First key on the dash line, the rest aligned under it.
        const inner: string[] = [];
        mapping(item, `${itemIndent}  `, inner);
        const first = inner[0]!;
        inner[0] = `${itemIndent}- ${first.slice(itemIndent.length + 2)}`;
        out.push(...inner);
      } else if (Array.isArray(item) || (typeof item === 'string' && item.includes('\n'))) {
        throw new Unsupported();
      } else if (isMap(item)) {
        out.push(`${itemIndent}- {}\n`);
      } else {
        out.push(`${itemIndent}- ${scalar(item)}\n`);
      }
    }
    return;
  }
  if (typeof v === 'string' && v.includes('\n')) {
    out.push(`${prefix} ${literal(v, `${indent}  `)}`);
    return;
  }
  out.push(`${prefix} ${scalar(v)}\n`);
}

/** The library's serialization of a non-empty mapping, or undefined when outside the fast path. */
export function writeYamlMapping(obj: Record<string, unknown>): string | undefined {
  if (Object.keys(obj).length === 0) return undefined;
  const out: string[] = [];
  try {
    mapping(obj, '', out);
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
  return out.join('');
}

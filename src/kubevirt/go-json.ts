/**
 * Go's encoding/json as KubeVirt meets text it unmarshals itself (an annotation's value): the
 * syntax error its scanner reports first, in its words (encoding/json/scanner.go), and the type
 * errors of the few targets itgen reads this way. A transcription of the scanner's states, not a
 * JSON parser: it only answers whether Go would refuse the text, and how.
 */

/** scanner.go quoteChar. */
function quoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return "'\"'";
  // strconv.Quote: the named escapes, else \xNN for the other control characters.
  const code = c.charCodeAt(0);
  const named: Readonly<Record<number, string>> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' };
  if (code < 0x20 || code === 0x7f) return `'${named[code] ?? `\\x${code.toString(16).padStart(2, '0')}`}'`;
  return c === '\\' ? "'\\\\'" : `'${c}'`;
}

const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** The scanner's first error for `text`, or undefined when it is one JSON value. */
export function goJsonSyntaxError(text: string): string | undefined {
  let i = 0;
  const n = text.length;
  const end = 'unexpected end of JSON input';
  const bad = (c: string, context: string): string => `invalid character ${quoteChar(c)} ${context}`;
  const skip = (): void => {
    while (i < n && isSpace(text[i]!)) i++;
  };
  // Iterative over a stack of containers, as the scanner's parseState.
  const stack: ('object-key' | 'object-value' | 'array')[] = [];
  const value = (): string | undefined => {
    skip();
    if (i >= n) return end;
    const c = text[i]!;
    if (c === '{') {
      i++;
      skip();
      if (i >= n) return end;
      if (text[i] === '}') {
        i++;
        return undefined;
      }
      stack.push('object-key');
      return undefined;
    }
    if (c === '[') {
      i++;
      skip();
      if (i >= n) return end;
      if (text[i] === ']') {
        i++;
        return undefined;
      }
      stack.push('array');
      return 'again';
    }
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    for (const lit of ['true', 'false', 'null']) {
      if (c !== lit[0]) continue;
      for (let k = 1; k < lit.length; k++) {
        // At the end, Go's scanner feeds a space (scanner.eof): inside a literal that is the error.
        if (i + k >= n) return bad(' ', `in literal ${lit} (expecting ${quoteChar(lit[k]!)})`);
        if (text[i + k] !== lit[k]) return bad(text[i + k]!, `in literal ${lit} (expecting ${quoteChar(lit[k]!)})`);
      }
      i += lit.length;
      return undefined;
    }
    return bad(c, 'looking for beginning of value');
  };
  const string = (): string | undefined => {
    i++;
    while (i < n) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return undefined;
      }
      if (c === '\\') {
        i++;
        if (i >= n) return bad(' ', 'in string escape code');
        const e = text[i]!;
        if (e === 'u') {
          for (let k = 1; k <= 4; k++) {
            if (i + k >= n) return bad(' ', 'in \\u hexadecimal character escape');
            if (!/[0-9a-fA-F]/.test(text[i + k]!)) return bad(text[i + k]!, 'in \\u hexadecimal character escape');
          }
          i += 5;
          continue;
        }
        if (!'"\\/bfnrt'.includes(e)) return bad(e, 'in string escape code');
        i++;
        continue;
      }
      if (c < ' ') return bad(c, 'in string literal');
      i++;
    }
    return end;
  };
  const number = (): string | undefined => {
    if (text[i] === '-') {
      i++;
      if (i >= n) return bad(' ', 'in numeric literal');
      if (!(text[i]! >= '0' && text[i]! <= '9')) return bad(text[i]!, 'in numeric literal');
    }
    if (text[i] === '0') i++;
    else while (i < n && text[i]! >= '0' && text[i]! <= '9') i++;
    if (i < n && text[i] === '.') {
      i++;
      if (i >= n) return bad(' ', 'after decimal point in numeric literal');
      if (!(text[i]! >= '0' && text[i]! <= '9')) return bad(text[i]!, 'after decimal point in numeric literal');
      while (i < n && text[i]! >= '0' && text[i]! <= '9') i++;
    }
    if (i < n && (text[i] === 'e' || text[i] === 'E')) {
      i++;
      if (i < n && (text[i] === '+' || text[i] === '-')) i++;
      if (i >= n) return bad(' ', 'in exponent of numeric literal');
      if (!(text[i]! >= '0' && text[i]! <= '9')) return bad(text[i]!, 'in exponent of numeric literal');
      while (i < n && text[i]! >= '0' && text[i]! <= '9') i++;
    }
    return undefined;
  };
  let err = value();
  for (;;) {
    if (err === 'again') err = value();
    if (err !== undefined && err !== 'again') return err;
    if (err === 'again') continue;
    const top = stack[stack.length - 1];
    if (top === undefined) break;
    skip();
    if (i >= n) return end;
    const c = text[i]!;
    if (top === 'object-key') {
      if (c !== '"') return bad(c, 'looking for beginning of object key string');
      err = string();
      if (err !== undefined) return err;
      skip();
      if (i >= n) return end;
      if (text[i] !== ':') return bad(text[i]!, 'after object key');
      i++;
      stack[stack.length - 1] = 'object-value';
      err = value();
      continue;
    }
    if (top === 'object-value') {
      if (c === ',') {
        i++;
        stack[stack.length - 1] = 'object-key';
        continue;
      }
      if (c === '}') {
        i++;
        stack.pop();
        continue;
      }
      return bad(c, 'after object key:value pair');
    }
    // array
    if (c === ',') {
      i++;
      err = value();
      continue;
    }
    if (c === ']') {
      i++;
      stack.pop();
      continue;
    }
    return bad(c, 'after array element');
  }
  skip();
  if (i < n) return bad(text[i]!, 'after top-level value');
  return undefined;
}

const kindOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v;

/**
 * hooks.UnmarshalHookSidecarList: the `hooks.kubevirt.io/hookSidecars` annotation into a list of
 * HookSidecar, or Go's error (syntax first, then the first value of a type the list cannot hold).
 */
export function hookSidecarListError(text: string): string | undefined {
  const syntax = goJsonSyntaxError(text);
  if (syntax !== undefined) return syntax;
  const v = JSON.parse(text) as unknown;
  if (v === null) return undefined;
  if (!Array.isArray(v)) return `json: cannot unmarshal ${kindOf(v)} into Go value of type hooks.HookSidecarList`;
  const fields: Readonly<Record<string, 'string' | 'strings' | 'object'>> = {
    image: 'string',
    imagePullPolicy: 'string',
    command: 'strings',
    args: 'strings',
    configMap: 'object',
    pvc: 'object',
  };
  for (const item of v) {
    if (item === null) continue;
    if (typeof item !== 'object' || Array.isArray(item)) return `json: cannot unmarshal ${kindOf(item)} into Go value of type hooks.HookSidecar`;
    for (const [k, x] of Object.entries(item as Record<string, unknown>)) {
      const want = fields[k];
      if (want === undefined || x === null) continue;
      if (want === 'string' && typeof x !== 'string')
        return `json: cannot unmarshal ${kindOf(x)} into Go struct field HookSidecar.${k} of type ${k === 'imagePullPolicy' ? 'v1.PullPolicy' : 'string'}`;
      if (want === 'strings') {
        if (!Array.isArray(x)) return `json: cannot unmarshal ${kindOf(x)} into Go struct field HookSidecar.${k} of type []string`;
        const badItem = x.find((e) => e !== null && typeof e !== 'string');
        if (badItem !== undefined) return `json: cannot unmarshal ${kindOf(badItem)} into Go struct field HookSidecar.${k} of type string`;
      }
      if (want === 'object' && (typeof x !== 'object' || Array.isArray(x)))
        return `json: cannot unmarshal ${kindOf(x)} into Go struct field HookSidecar.${k} of type hooks.${k === 'pvc' ? 'PVC' : 'ConfigMap'}`;
    }
  }
  return undefined;
}

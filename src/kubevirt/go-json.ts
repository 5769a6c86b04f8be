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

type Container = 'object-key' | 'object-value' | 'array';
const END = 'unexpected end of JSON input';
const bad = (c: string, context: string): string => `invalid character ${quoteChar(c)} ${context}`;
const digit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** scanner.go's states over one text: `at` moves as it reads; each step returns Go's error, or undefined. */
class Scanner {
  at = 0;
  readonly stack: Container[] = [];
  constructor(private readonly text: string) {}

  private get c(): string | undefined {
    return this.text[this.at];
  }

  skip(): void {
    while (this.at < this.text.length && isSpace(this.text[this.at]!)) this.at++;
  }

  /** A value; `again` when it opened an array whose first value is next. */
  value(): string | undefined {
    this.skip();
    const c = this.c;
    if (c === undefined) return END;
    if (c === '{' || c === '[') {
      this.at++;
      this.skip();
      if (this.c === undefined) return END;
      if (this.c === (c === '{' ? '}' : ']')) {
        this.at++;
        return undefined;
      }
      this.stack.push(c === '{' ? 'object-key' : 'array');
      return c === '[' ? 'again' : undefined;
    }
    if (c === '"') return this.string();
    if (c === '-' || digit(c)) return this.number();
    for (const lit of ['true', 'false', 'null']) if (c === lit[0]) return this.literal(lit);
    return bad(c, 'looking for beginning of value');
  }

  private literal(lit: string): string | undefined {
    for (let k = 1; k < lit.length; k++) {
      const c = this.text[this.at + k];
      // At the end, Go's scanner feeds a space (scanner.eof): inside a literal that is the error.
      if (c !== lit[k]) return bad(c ?? ' ', `in literal ${lit} (expecting ${quoteChar(lit[k]!)})`);
    }
    this.at += lit.length;
    return undefined;
  }

  string(): string | undefined {
    this.at++;
    while (this.c !== undefined) {
      const c = this.c;
      this.at++;
      if (c === '"') return undefined;
      if (c === '\\') {
        const e = this.c;
        if (e === undefined) return bad(' ', 'in string escape code');
        if (e === 'u') {
          for (let k = 1; k <= 4; k++) {
            const h = this.text[this.at + k];
            if (h === undefined) return bad(' ', 'in \\u hexadecimal character escape');
            if (!/[0-9a-fA-F]/.test(h)) return bad(h, 'in \\u hexadecimal character escape');
          }
          this.at += 5;
        } else if (!'"\\/bfnrt'.includes(e)) return bad(e, 'in string escape code');
        else this.at++;
      } else if (c < ' ') return bad(c, 'in string literal');
    }
    return END;
  }

  private number(): string | undefined {
    if (this.c === '-') {
      this.at++;
      if (!digit(this.c)) return bad(this.c ?? ' ', 'in numeric literal');
    }
    if (this.c === '0') this.at++;
    else while (digit(this.c)) this.at++;
    if (this.c === '.') {
      this.at++;
      if (!digit(this.c)) return bad(this.c ?? ' ', 'after decimal point in numeric literal');
      while (digit(this.c)) this.at++;
    }
    if (this.c === 'e' || this.c === 'E') {
      this.at++;
      const sign = this.text[this.at];
      if (sign === '+' || sign === '-') this.at++;
      if (!digit(this.c)) return bad(this.c ?? ' ', 'in exponent of numeric literal');
      while (digit(this.c)) this.at++;
    }
    return undefined;
  }

  /** After a value inside the innermost container: the next key, value or close; `again` when a value is next. */
  next(): string | undefined {
    const top = this.stack[this.stack.length - 1]!;
    this.skip();
    const c = this.c;
    if (c === undefined) return END;
    if (top === 'object-key') {
      if (c !== '"') return bad(c, 'looking for beginning of object key string');
      const err = this.string();
      if (err !== undefined) return err;
      this.skip();
      if (this.c === undefined) return END;
      if (this.c !== ':') return bad(this.c, 'after object key');
      this.at++;
      this.stack[this.stack.length - 1] = 'object-value';
      return 'again';
    }
    const close = top === 'array' ? ']' : '}';
    if (c === ',') {
      this.at++;
      if (top === 'object-value') this.stack[this.stack.length - 1] = 'object-key';
      return top === 'array' ? 'again' : undefined;
    }
    if (c === close) {
      this.at++;
      this.stack.pop();
      return undefined;
    }
    return bad(c, top === 'array' ? 'after array element' : 'after object key:value pair');
  }
}

/** The scanner's first error for `text`, or undefined when it is one JSON value. */
export function goJsonSyntaxError(text: string): string | undefined {
  const s = new Scanner(text);
  let step = s.value();
  for (;;) {
    while (step === 'again') step = s.value();
    if (step !== undefined) return step;
    if (s.stack.length === 0) break;
    step = s.next();
  }
  s.skip();
  return s.at < text.length ? bad(text[s.at]!, 'after top-level value') : undefined;
}

/** encoding/json's name for the kind of a JSON value (`number`, `string`, `bool`, `array`, `object`, `null`). */
export const goJsonKind = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v;

/**
 * encoding/json's UnmarshalTypeError.Error(): `value` (a JSON kind, or `number 2.5`) where the Go
 * `type` takes none, at a struct's field (`Struct.path.to.field`) or at the top.
 */
export function unmarshalTypeError(value: string, type: string, field?: string): string {
  return field !== undefined
    ? `json: cannot unmarshal ${value} into Go struct field ${field} of type ${type}`
    : `json: cannot unmarshal ${value} into Go value of type ${type}`;
}

/**
 * hooks.UnmarshalHookSidecarList: the `hooks.kubevirt.io/hookSidecars` annotation into a list of
 * HookSidecar, or Go's error (syntax first, then the first value of a type the list cannot hold).
 */
export function hookSidecarListError(text: string): string | undefined {
  const syntax = goJsonSyntaxError(text);
  if (syntax !== undefined) return syntax;
  const v = JSON.parse(text) as unknown;
  if (v === null) return undefined;
  if (!Array.isArray(v)) return unmarshalTypeError(goJsonKind(v), 'hooks.HookSidecarList');
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
    if (typeof item !== 'object' || Array.isArray(item)) return unmarshalTypeError(goJsonKind(item), 'hooks.HookSidecar');
    for (const [k, x] of Object.entries(item as Record<string, unknown>)) {
      const want = fields[k];
      if (want === undefined || x === null) continue;
      if (want === 'string' && typeof x !== 'string')
        return unmarshalTypeError(goJsonKind(x), k === 'imagePullPolicy' ? 'v1.PullPolicy' : 'string', `HookSidecar.${k}`);
      if (want === 'strings') {
        if (!Array.isArray(x)) return unmarshalTypeError(goJsonKind(x), '[]string', `HookSidecar.${k}`);
        const badItem = x.find((e) => e !== null && typeof e !== 'string');
        if (badItem !== undefined) return unmarshalTypeError(goJsonKind(badItem), 'string', `HookSidecar.${k}`);
      }
      if (want === 'object' && (typeof x !== 'object' || Array.isArray(x)))
        return unmarshalTypeError(goJsonKind(x), `hooks.${k === 'pvc' ? 'PVC' : 'ConfigMap'}`, `HookSidecar.${k}`);
    }
  }
  return undefined;
}

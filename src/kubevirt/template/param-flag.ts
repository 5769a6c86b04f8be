/**
 * `virtctl template process -p`: the values of a pflag StringToString flag, as
 * pkg/virtctl/template/process/process.go declares `--param, -p` (KubeVirt d923fdb815). Transcribed
 * from spf13/pflag string_to_string.go `Set` (a value with one `=` is one pair, its quotes trimmed;
 * one with more is a CSV record: `-p A=1,B=2` is two) and Go's encoding/csv `readRecord` (the first
 * record of the value, comma-separated, `"` quoting, byte columns in its errors), with the words
 * pflag's FlagSet.Parse wraps a bad value in. Each -p merges into the map of the ones before.
 */
import { goQuote } from './generator';

const BARE_QUOTE = 'bare " in non-quoted-field';
const QUOTE = 'extraneous or missing " in quoted-field';
const NL = 0x0a;
const CR = 0x0d;
const QUOTE_BYTE = 0x22;
const COMMA = 0x2c;

/** encoding/csv: the first record of `text` (Reader with its defaults), or its error as Go words it. */
// Over 80 lines: readRecord transcribed in its shape (its line reader, then field by field, quoted or not), to be read beside it.
export function csvRecord(text: string): { fields: string[] } | { error: string } {
  const b = Buffer.from(text, 'utf8');
  let offset = 0;
  let numLine = 0;
  // readLine: up to and with '\n'; at the end without one, a trailing '\r' dropped; "\r\n" read as "\n".
  const readLine = (): { line: Buffer; eof: boolean } => {
    numLine++;
    if (offset >= b.length) return { line: Buffer.alloc(0), eof: true };
    const nl = b.indexOf(NL, offset);
    let line = b.subarray(offset, nl < 0 ? b.length : nl + 1);
    offset = nl < 0 ? b.length : nl + 1;
    if (nl < 0 && line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
    const n = line.length;
    if (n >= 2 && line[n - 2] === CR && line[n - 1] === NL) line = Buffer.concat([line.subarray(0, n - 2), Buffer.from('\n')]);
    return { line, eof: false };
  };
  const lengthNL = (l: Buffer): number => (l.length > 0 && l[l.length - 1] === NL ? 1 : 0);
  let { line, eof } = readLine();
  // Empty lines are skipped; nothing but them is the end of the input.
  while (!eof && line.length === lengthNL(line)) ({ line, eof } = readLine());
  if (eof) return { error: 'EOF' };
  const recLine = numLine;
  const pos = { line: numLine, col: 1 };
  // The record's bytes as chunks (no spread of a long line into arguments), each field's end offset.
  const record: Buffer[] = [];
  let length = 0;
  const append = (b: Buffer): void => {
    record.push(b);
    length += b.length;
  };
  const ends: number[] = [];
  const parseError = (lineNo: number, col: number, err: string): { error: string } => ({
    error:
      recLine !== lineNo
        ? `record on line ${recLine}; parse error on line ${lineNo}, column ${col}: ${err}`
        : `parse error on line ${lineNo}, column ${col}: ${err}`,
  });
  for (;;) {
    if (line.length === 0 || line[0] !== QUOTE_BYTE) {
      const i = line.indexOf(COMMA);
      const field = i >= 0 ? line.subarray(0, i) : line.subarray(0, line.length - lengthNL(line));
      const j = field.indexOf(QUOTE_BYTE);
      if (j >= 0) return parseError(numLine, pos.col + j, BARE_QUOTE);
      append(field);
      ends.push(length);
      if (i < 0) break;
      line = line.subarray(i + 1);
      pos.col += i + 1;
      continue;
    }
    line = line.subarray(1);
    pos.col += 1;
    let fieldDone = false;
    let recordDone = false;
    while (!fieldDone) {
      const i = line.indexOf(QUOTE_BYTE);
      if (i >= 0) {
        append(line.subarray(0, i));
        line = line.subarray(i + 1);
        pos.col += i + 1;
        if (line.length > 0 && line[0] === QUOTE_BYTE) {
          append(Buffer.from('"'));
          line = line.subarray(1);
          pos.col += 1;
        } else if (line.length > 0 && line[0] === COMMA) {
          line = line.subarray(1);
          pos.col += 1;
          ends.push(length);
          fieldDone = true;
        } else if (lengthNL(line) === line.length) {
          ends.push(length);
          fieldDone = recordDone = true;
        } else return parseError(numLine, pos.col - 1, QUOTE);
      } else if (line.length > 0) {
        // A quoted field goes on over the line's end.
        append(line);
        pos.col += line.length;
        ({ line } = readLine());
        if (line.length > 0) {
          pos.line++;
          pos.col = 1;
        }
      } else return parseError(pos.line, pos.col, QUOTE);
    }
    if (recordDone) break;
  }
  const bytes = Buffer.concat(record);
  return { fields: ends.map((end, k) => bytes.subarray(k === 0 ? 0 : ends[k - 1], end).toString('utf8')) };
}

/** The parameters of the `-p` values, merged in order, or the error pflag stops the command with. */
export function paramFlags(values: readonly string[]): { params: Map<string, string> } | { error: string } {
  const params = new Map<string, string>();
  const invalid = (value: string, why: string): { error: string } => ({ error: `invalid argument ${goQuote(value)} for "-p, --param" flag: ${why}` });
  for (const value of values) {
    const equals = value.split('=').length - 1;
    if (equals === 0) return invalid(value, `${value} must be formatted as key=value`);
    let pairs: string[];
    if (equals === 1) pairs = [value.replace(/^"+|"+$/g, '')];
    else {
      const read = csvRecord(value);
      if ('error' in read) return invalid(value, read.error);
      pairs = read.fields;
    }
    // The pairs of one value go in together: one that is no pair refuses the whole value.
    const out = new Map<string, string>();
    for (const pair of pairs) {
      const eq = pair.indexOf('=');
      if (eq < 0) return invalid(value, `${pair} must be formatted as key=value`);
      out.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    for (const [k, v] of out) params.set(k, v);
  }
  return { params };
}

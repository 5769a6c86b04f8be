/**
 * What itgen prints is built from input a pull request controls (names, keys, values, file names,
 * the committed output). These functions keep such text from acting on the terminal or the CI log
 * that shows it. Below every stage: the emitters use WORKFLOW_COMMAND_LINE too.
 */

/**
 * Terminal controls (C0 but tab and newline, DEL, C1) and bidirectional overrides, which could
 * retitle or clear a terminal or reorder what a reviewer reads. User text reaches messages (keys,
 * values, file names), so every format prints it through `printable`.
 */
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `s` with every control character written as a visible `\u001b`-style escape; file names also lose tabs and newlines. */
export function printable(s: string, inline = false): string {
  const escape = (ch: string): string => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  const out = s.replace(UNPRINTABLE, escape);
  return inline ? out.replace(/[\t\n]/g, escape) : out;
}

/** A line a GitHub Actions runner would read as a workflow command (`::error ...`, `::stop-commands::`), or an Azure-style `##[` one; runners ignore leading whitespace. */
export const WORKFLOW_COMMAND_LINE = /^\s*(?:::|##\[)/;

/** Our own colours, the only escape sequences text output may carry. */
const SGR = /\x1b\[[0-9;]*m/g;

/**
 * The last guard before a byte is printed, for every command and format: control characters
 * (but tab, newline and, when colouring, our own SGR colours) become visible escapes, and a line
 * that a CI runner would take for a workflow command gets its first character escaped. Workflow
 * commands itgen means (`--format github`) are printed through `Io.workflow`, not through here.
 */
export function guardOutput(text: string, color: boolean): string {
  let out: string;
  if (color && text.includes('\x1b')) {
    const parts: string[] = [];
    let last = 0;
    for (const m of text.matchAll(SGR)) {
      parts.push(printable(text.slice(last, m.index)), m[0]);
      last = m.index + m[0].length;
    }
    parts.push(printable(text.slice(last)));
    out = parts.join('');
  } else out = printable(text);
  if (!out.includes('::') && !out.includes('##[')) return out;
  return out
    .split('\n')
    .map((line) =>
      WORKFLOW_COMMAND_LINE.test(line)
        ? line.replace(/^(\s*)([:#])/, (_m, ws: string, ch: string) => `${ws}\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
        : line,
    )
    .join('\n');
}

/** Whether a multi-line string holds a line that a CI runner would read as a workflow command: YAML writers quote such strings on one line. */
export function holdsWorkflowCommand(s: string): boolean {
  return /[\n\r\u2028\u2029]/.test(s) && s.split(/\r\n|[\n\r\u2028\u2029]/).some((line) => WORKFLOW_COMMAND_LINE.test(line));
}

/** Whether `s` holds a character `printable` would escape (a control other than tab and newline, a bidirectional mark). */
export function holdsUnprintable(s: string): boolean {
  UNPRINTABLE.lastIndex = 0;
  const found = UNPRINTABLE.test(s);
  UNPRINTABLE.lastIndex = 0;
  return found;
}

/**
 * YAML text whose unprintable characters, all inside double-quoted scalars (the writers quote every
 * string that holds one), are written as YAML's `\uXXXX` escapes: the same value, in bytes a
 * terminal, a reviewer and every consumer read alike. `build`, `fn` and the base on disk then agree.
 */
export function escapeInDoubleQuoted(yamlText: string): string {
  return yamlText.replace(UNPRINTABLE, (ch) => `\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/**
 * Characters that show nothing, or look like others' absence, which make a spoofed name read like
 * a real one (zero-width spaces and joiners, soft hyphen, variation selectors, fillers).
 */
const INVISIBLE = new RegExp(
  [
    0xad, 0x34f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180b, 0x180c, 0x180d, 0x180e, 0x180f, 0x200b, 0x200c, 0x200d, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x3164,
    0xfeff, 0xffa0,
  ]
    .concat(Array.from({ length: 16 }, (_, i) => 0xfe00 + i))
    .map((c) => `\\u${c.toString(16).padStart(4, '0')}`)
    .join('|'),
  'g',
);

/**
 * The one way text from the input reaches Markdown: a code span. Inside one, GitHub-flavoured
 * Markdown makes no HTML, link, image, emphasis or autolink, and GitHub no @mention or #reference;
 * entities stay literal, so nothing is entity-escaped. The text is one line with control,
 * bidirectional and invisible characters written as visible escapes, backticks (which would end
 * the span) as quotes, cut to `max` characters, and in a table cell its pipes escaped (GFM reads
 * `\|` inside a span as a pipe). test/markdown.test.ts holds it to cmark-gfm's rendering.
 */
export function md(s: string, opts: { readonly max?: number; readonly table?: boolean } = {}): string {
  const max = opts.max ?? 200;
  let t = printable(s, true)
    .replace(INVISIBLE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/`/g, "'");
  if (t.length > max) t = `${t.slice(0, max - 1)}…`;
  if (opts.table ?? true) t = t.replace(/\|/g, '\\|');
  // An empty span, or one of spaces only, is not a span in CommonMark.
  if (t.trim() === '') return '(empty)';
  return `\`${t}\``;
}

import { createHash } from 'node:crypto';
import type { Diagnostic } from './diagnostics';
import { printable } from './printable';

export { guardOutput, printable, WORKFLOW_COMMAND_LINE } from './printable';

export type OutputFormat = 'text' | 'json' | 'github' | 'gitlab';

/** Source lines by file, for excerpts under diagnostics. */
export type SourceLines = (file: string) => readonly string[] | undefined;

/**
 * A diagnostic whose every text is printable on one line: names, keys and values from the input
 * reach messages, and a line break in one would start a line of output the reader (or a CI runner
 * reading workflow commands) takes for itgen's own.
 */
function printableDiagnostic(d: Diagnostic): Diagnostic {
  const place = <T extends { file: string }>(l: T): T => ({ ...l, file: printable(l.file, true) });
  return {
    ...d,
    message: printable(d.message, true),
    ...(d.hint !== undefined ? { hint: printable(d.hint, true) } : {}),
    ...(d.location ? { location: place(d.location) } : {}),
    ...(d.related ? { related: d.related.map((r) => ({ message: printable(r.message, true), location: place(r.location) })) } : {}),
  };
}

/** Characters of a source line shown at most: a long line is shown around the column, marked with `…`. */
const SHOWN = 160;

/** The part of `line` shown for column `col`, and the column in it. */
function sourceWindow(line: string, col: number): { text: string; col: number } {
  if (line.length <= SHOWN) return { text: line, col };
  const start = Math.max(0, Math.min(col - 1 - 40, line.length - SHOWN));
  const end = Math.min(line.length, start + SHOWN);
  const head = start > 0 ? '…' : '';
  return { text: `${head}${line.slice(start, end)}${end < line.length ? '…' : ''}`, col: col - start + head.length };
}

/** `file:line:col severity CODE message`, then the source line and a caret, then the hint. */
export function formatText(all: readonly Diagnostic[], lines: SourceLines, color = false): string {
  const diagnostics = all.map(printableDiagnostic);
  const c = (code: string, s: string): string => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const out: string[] = [];
  for (const [i, d] of diagnostics.entries()) {
    const loc = d.location ? `${d.location.file}:${d.location.line}:${d.location.col} ` : '';
    const sev = d.severity === 'error' ? c('31;1', 'error') : c('33;1', 'warning');
    out.push(`${loc}${sev} ${d.code} ${d.message}`);
    if (d.location) {
      const whole = lines(all[i]!.location!.file)?.[d.location.line - 1];
      // A long line (a one-line JSON file, a folded annotation) is shown around the column only.
      const window = whole === undefined ? undefined : sourceWindow(whole, d.location.col);
      const src = window?.text;
      // A binary file's "line" would only garble the terminal.
      if (window !== undefined && src !== undefined && printable(src) === src && !src.includes('\ufffd')) {
        const gutter = String(d.location.line).padStart(4);
        out.push(`${gutter} | ${src}`);
        const sameLine = d.location.endLine === undefined || d.location.endLine === d.location.line;
        const width = sameLine && d.location.endCol !== undefined ? Math.max(1, d.location.endCol - d.location.col) : 1;
        out.push(
          `${' '.repeat(gutter.length)} | ${' '.repeat(Math.max(0, window.col - 1))}${c('32', '^'.repeat(Math.min(width, 80, src.length - window.col + 2)))}`,
        );
      }
    }
    for (const r of d.related ?? []) out.push(`  note: ${r.message} at ${r.location.file}:${r.location.line}:${r.location.col}`);
    if (d.hint) out.push(`  hint: ${d.hint}`);
  }
  return out.join('\n');
}

/** `--format json`: the run's diagnostics, each at its file, line and column. */
export interface DiagnosticsJson {
  readonly diagnostics: readonly Diagnostic[];
}

export function formatJson(diagnostics: readonly Diagnostic[]): string {
  // JSON escapes C0 controls itself, but not DEL, C1 or bidirectional overrides.
  const doc: DiagnosticsJson = { diagnostics: diagnostics.map(printableDiagnostic) };
  return JSON.stringify(doc, null, 2);
}

function escapeGithub(s: string, property = false): string {
  let r = s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  if (property) r = r.replace(/:/g, '%3A').replace(/,/g, '%2C');
  return r;
}

/** GitHub Actions workflow commands: annotations on the pull request diff. */
export function formatGithub(diagnostics: readonly Diagnostic[]): string {
  return diagnostics
    .map(printableDiagnostic)
    .map((d) => {
      const props: string[] = [];
      if (d.location) {
        props.push(`file=${escapeGithub(d.location.file, true)}`, `line=${d.location.line}`, `col=${d.location.col}`);
        if (d.location.endLine !== undefined) props.push(`endLine=${d.location.endLine}`);
      }
      props.push(`title=${escapeGithub(d.code, true)}`);
      const msg = d.hint ? `${d.message}\n${d.hint}` : d.message;
      return `::${d.severity === 'error' ? 'error' : 'warning'} ${props.join(',')}::${escapeGithub(msg)}`;
    })
    .join('\n');
}

export function summary(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  return `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
}

/**
 * A GitLab Code Quality report (the JSON array GitLab shows inline on a merge request, from a job's
 * `artifacts:reports:codequality`): one issue per diagnostic, `description` the message (and hint),
 * `check_name` the code, `severity` major for errors and minor for warnings, the location's path
 * and line, and a `fingerprint` that stays the same for the same finding in the same place, so
 * GitLab tells new findings from old. Text goes through printableDiagnostic like every format.
 */
export function formatGitlab(diagnostics: readonly Diagnostic[]): string {
  const issues = diagnostics.map(printableDiagnostic).map((d) => ({
    type: 'issue',
    check_name: d.code,
    description: d.hint ? `${d.message} (${d.hint})` : d.message,
    categories: ['Bug Risk'],
    severity: d.severity === 'error' ? 'major' : 'minor',
    fingerprint: createHash('sha256')
      .update(`${d.code}\u0000${d.location?.file ?? ''}\u0000${d.location?.line ?? 0}\u0000${d.message}`)
      .digest('hex'),
    location: { path: d.location?.file ?? '.', lines: { begin: d.location?.line ?? 1 } },
  }));
  return JSON.stringify(issues, null, 2);
}

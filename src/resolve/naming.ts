/** Object names from patterns (`{family}{version}.{size}`), and the check that they are valid Kubernetes names. */
import { diag, type Diagnostic, type SourceRange } from '../diagnostics';
import { DNS_SUBDOMAIN_RE } from '../schema/names';

/** `{placeholder}` name patterns (structure, not free text: no Handlebars here). */
export function expandPattern(pattern: string, vars: Readonly<Record<string, string | undefined>>): { ok: true; text: string } | { ok: false; error: string } {
  let error: string | undefined;
  const text = pattern.replace(/\{([^{}]*)\}/g, (_m, name: string) => {
    if (!Object.hasOwn(vars, name)) {
      error ??= `unknown placeholder \`{${name}}\`; known: ${Object.keys(vars)
        .map((k) => `{${k}}`)
        .join(', ')}`;
      return '';
    }
    const v = vars[name];
    if (v === undefined) {
      error ??= `placeholder \`{${name}}\` has no value here`;
      return '';
    }
    return v;
  });
  return error !== undefined ? { ok: false, error } : { ok: true, text };
}

/** A generated name that is a valid Kubernetes object name; IT2011 where the pattern is written otherwise. */
export function checkName(name: string, out: Diagnostic[], at: SourceRange, pattern: string): boolean {
  if (name.length <= 253 && DNS_SUBDOMAIN_RE.test(name)) return true;
  out.push(
    diag('IT2011', `name \`${name}\` (from pattern \`${pattern}\`) is not a valid Kubernetes object name`, at, {
      hint: 'object names are lowercase letters, digits, `-` and `.`, at most 253 characters',
    }),
  );
  return false;
}

/**
 * The series a family's instance types show to users, read off their names with the size taken
 * out (`gn1.xlarge.a10` and `gn1.large.a10` give `gn1.a10`; `u1.medium` gives `u1`), so tables label
 * a family as users see it rather than by the catalog's internal key (`gna101`). `fallback` when the
 * names do not agree on one.
 */
export function seriesLabel(members: readonly { readonly name: string; readonly size: string }[], fallback: string): string {
  const labels = new Set<string>();
  for (const m of members) {
    const at = m.size === '' ? -1 : m.name.indexOf(m.size);
    if (at < 0) return fallback;
    const rest = `${m.name.slice(0, at)}.${m.name.slice(at + m.size.length)}`.replace(/[.\-_]{2,}/g, (s) => s[0]!).replace(/^[.\-_]+|[.\-_]+$/g, '');
    if (rest === '') return fallback;
    labels.add(rest);
  }
  return labels.size === 1 ? [...labels][0]! : fallback;
}

import type { Diagnostic } from '../diagnostics';
import { diag, shownNames } from '../diagnostics';
import { API_RULES } from './rules-api';
import { CATALOG_RULES } from './rules-catalog';
import { KUBEVIRT_RULES } from './rules-kubevirt';
import type { Finding, ObjectRuleContext, Rule, RuleContext, Subject } from './context';

export type { Finding, ObjectRuleContext, Rule, RuleContext, RuleInstancetype, RulePreference } from './context';

export const RULES: readonly Rule[] = [...API_RULES, ...KUBEVIRT_RULES, ...CATALOG_RULES];

/** Run every rule; a rule that throws is a bug in itgen, reported as such rather than crashing. */
export function runRules<C extends ObjectRuleContext = RuleContext>(ctx: C, rules: readonly Rule<C>[] = RULES as unknown as readonly Rule<C>[]): Diagnostic[] {
  const out: Finding[] = [];
  for (const rule of rules) {
    try {
      out.push(...rule.check(ctx));
    } catch (e) {
      out.push(diag('IT9001', `rule \`${rule.name}\` failed: ${(e as Error).message}`));
    }
  }
  return mergeSubjects(out);
}

/**
 * The same finding at the same place about several objects (every size of a family inherits the
 * family's spec) becomes one diagnostic naming them all: one mistake, one report.
 */
export function mergeSubjects(findings: readonly Finding[]): Diagnostic[] {
  const groups = new Map<string, { diagnostic: Diagnostic; subject: Subject }[]>();
  const order: (Diagnostic | string)[] = [];
  for (const { subject: s, ...d } of findings) {
    if (!s) {
      order.push(d);
      continue;
    }
    const key = JSON.stringify([d.code, d.severity, d.location, d.hint, d.related, s.what, s.rest]);
    const list = groups.get(key);
    if (list) list.push({ diagnostic: d, subject: s });
    else {
      groups.set(key, [{ diagnostic: d, subject: s }]);
      order.push(key);
    }
  }
  return order.map((entry) => {
    if (typeof entry !== 'string') return entry;
    const list = groups.get(entry)!;
    const { diagnostic: first, subject: s } = list[0]!;
    if (list.length === 1) return first;
    const shown = shownNames([...new Set(list.map((f) => f.subject.name))].sort());
    return { ...first, message: `${s.what === 'instance type' ? 'instance types' : 'preferences'} ${shown}${s.rest}` };
  });
}

import type { Diagnostic } from '../diagnostics';
import { diag } from '../diagnostics';
import { API_RULES } from './rules-api';
import { CATALOG_RULES } from './rules-catalog';
import { KUBEVIRT_RULES } from './rules-kubevirt';
import type { Rule, RuleContext } from './context';

export type { Rule, RuleContext } from './context';

export const RULES: readonly Rule[] = [...API_RULES, ...KUBEVIRT_RULES, ...CATALOG_RULES];

/** Run every rule; a rule that throws is a bug in itgen, reported as such rather than crashing. */
export function runRules(ctx: RuleContext, rules: readonly Rule[] = RULES): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const rule of rules) {
    try {
      out.push(...rule.check(ctx));
    } catch (e) {
      out.push(diag('IT9001', `rule \`${rule.name}\` failed: ${(e as Error).message}`));
    }
  }
  return out;
}

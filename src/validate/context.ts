import { diag, type Diagnostic, type DiagnosticCode, type Severity, type SourceRange } from '../diagnostics';
import { locate, type SourceDoc } from '../load/source';
import type { RenderedObject } from '../render/manifests';
type ResolvedObject = RuleObject;
import { originOf } from '../resolve/leaves';
import type { ResolvedCatalog } from '../resolve/types';
import type { Leaves, Origin } from '../resolve/leaves';
import type { JsonObject } from '../json';
import type { Architecture } from '../schema/common';
import type { Scope } from '../schema/names';
import type { RenderedManifest } from '../render/manifests';
import type { WrittenGenerator } from '../schema/generator';

/**
 * What a rule about KubeVirt's API or behaviour reads of an object (house style 36): its kind, name
 * and spec, where each spec field was written (`leaves`, `origin`), and what the spec says of its
 * size and architecture. A resolved catalog object and a manifest of a cluster both provide it, so
 * `validate FILE` runs the same rules on manifests without forging catalog objects.
 */
interface RuleObjectBase {
  readonly name: string;
  readonly spec: JsonObject;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly leaves: Leaves;
  readonly origin: Origin;
}
export interface RuleInstancetype extends RuleObjectBase {
  readonly kind: 'instancetype';
  /** spec.cpu.guest and spec.memory.guest in bytes (0 when unset or unreadable). */
  readonly cpu: number;
  readonly memoryBytes: number;
  /** The architectures it is meant for, when its catalog says (a manifest says none). */
  readonly architectures?: readonly Architecture[] | undefined;
}
export interface RulePreference extends RuleObjectBase {
  readonly kind: 'preference';
  /** The architecture its catalog made it for, when it says (a manifest says none). */
  readonly architecture?: Architecture | undefined;
}
export type RuleObject = RuleInstancetype | RulePreference;

/** The context of the rules that judge objects by KubeVirt's API and behaviour (API_RULES, KUBEVIRT_RULES). */
export interface ObjectRuleContext {
  readonly catalog: {
    readonly defaultArchitecture: Architecture;
    readonly instancetypes: readonly RuleInstancetype[];
    readonly preferences: readonly RulePreference[];
  };
  readonly objects: readonly { readonly manifest: RenderedManifest; readonly source: RuleObject; readonly scope: Scope }[];
  readonly generator: WrittenGenerator;
  /** The generator document, for diagnostics about generator settings. */
  readonly generatorSrc?: SourceDoc | undefined;
}

/** The context of every rule: the catalog rules also read what only a catalog knows (families, sizes). */
export interface RuleContext extends ObjectRuleContext {
  readonly catalog: ResolvedCatalog;
  readonly objects: readonly RenderedObject[];
}

/** A named semantic check. Rules are pure: context in, diagnostics out. */
export interface Rule<C extends ObjectRuleContext = RuleContext> {
  readonly name: string;
  readonly description: string;
  readonly check: (ctx: C) => Finding[];
}

/** The object a diagnostic is about, and what it says apart from naming the object. */
export interface Subject {
  readonly what: 'instance type' | 'preference';
  readonly name: string;
  readonly rest: string;
}

/**
 * A rule's diagnostic, with its subject when it is about one object, so that runRules can merge
 * the same finding about every size of a family into one diagnostic at the line that causes it
 * (`mergeSubjects`, which also drops the subject: it never reaches the output).
 */
/** A rule's finding: the object it is about and, where code branches on it, a reason tag (house style 35). */
export type Finding = Diagnostic & { readonly subject?: Subject; readonly reason?: string };

function about(d: Diagnostic, obj: ResolvedObject, rest: string): Finding {
  return { ...d, subject: { what: obj.kind === 'instancetype' ? 'instance type' : 'preference', name: obj.name, rest } };
}

/** Diagnostic about one spec field of a resolved object, placed where that field was written. */
export function fieldDiag(
  code: DiagnosticCode,
  obj: ResolvedObject,
  path: readonly string[],
  message: string,
  extra: { hint?: string; severity?: Severity; related?: Diagnostic['related']; reason?: string } = {},
): Finding {
  const l = path.length > 0 ? originOf(obj.leaves, path) : undefined;
  const location = l ? locate(l.origin.src, l.origin.path) : locate(obj.origin.src, obj.origin.path);
  const what = obj.kind === 'instancetype' ? 'instance type' : 'preference';
  const field = path.length > 0 ? ` \`spec.${path.join('.')}\`` : '';
  const { reason, ...rest } = extra;
  const found = about(diag(code, `${what} \`${obj.name}\`${field}: ${message}`, location, rest), obj, `${field}: ${message}`);
  return reason !== undefined ? { ...found, reason } : found;
}

/** Diagnostic about a resolved object as a whole, placed at its declaration. */
export function objectDiag(
  code: DiagnosticCode,
  obj: ResolvedObject,
  message: string,
  extra: { hint?: string; severity?: Severity; related?: Diagnostic['related'] } = {},
): Finding {
  const what = obj.kind === 'instancetype' ? 'instance type' : 'preference';
  return about(diag(code, `${what} \`${obj.name}\`: ${message}`, locate(obj.origin.src, obj.origin.path), extra), obj, `: ${message}`);
}

/** Where a spec field of a resolved object was written (or the object itself, when nothing set it). */
export function fieldLocation(obj: ResolvedObject, path: readonly string[]): SourceRange {
  const l = path.length > 0 ? originOf(obj.leaves, path) : undefined;
  return l ? locate(l.origin.src, l.origin.path) : locate(obj.origin.src, obj.origin.path);
}

/** Items grouped by a key, groups in order of first appearance. */
export function groupBy<T>(items: readonly T[], key: (t: T) => string): T[][] {
  const m = new Map<string, T[]>();
  for (const i of items) {
    const k = key(i);
    const list = m.get(k);
    if (list) list.push(i);
    else m.set(k, [i]);
  }
  return [...m.values()];
}

/** `f` with its answers kept by argument, for one rule's run over many objects that share their strings. */
export function memoized<R>(f: (s: string) => R): (s: string) => R {
  const answers = new Map<string, R>();
  return (s) => {
    if (answers.has(s)) return answers.get(s) as R;
    const r = f(s);
    answers.set(s, r);
    return r;
  };
}

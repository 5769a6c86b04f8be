/**
 * Which instance types and preferences a resize may move to: a matcher named as the user writes it (`u1.large`, `VirtualMachinePreference/fedora`), and the options a VM has, each planned.
 */
import { obj, type JsonObject } from '../json';
import { KINDS_OF, kindByName, kubectlNames, type ManifestKind } from '../schema/kubevirt-api';
import { type ResizePlan, type ResizeContext, resizePlan } from './resize';

/**
 * A matcher from a command-line NAME: a cluster-wide object, or `KIND/NAME` with kubectl's
 * resource names (`virtualmachineinstancetype/big`, `vmf/big`); an error for a kind of the other
 * matcher or none KubeVirt knows.
 */
export function matcherFromName(text: string, which: 'instancetype' | 'preference'): JsonObject | { error: string } {
  const slash = text.indexOf('/');
  if (slash < 0) return { name: text };
  const kind = kindByName(text.slice(0, slash));
  const name = text.slice(slash + 1);
  const kinds: readonly ManifestKind[] = [KINDS_OF[which].namespaced, KINDS_OF[which].cluster];
  if (!kind) return { error: `unknown kind \`${text.slice(0, slash)}\`: one of ${kubectlNames(kinds).join(', ')}` };
  if (!kinds.includes(kind))
    return {
      error: `\`${text.slice(0, slash)}\` names a ${which === 'instancetype' ? 'preference' : 'instancetype'}, not a${which === 'instancetype' ? 'n instance type' : ' preference'}`,
    };
  return { name, kind };
}

/** Every instance type of the store as a resize target of `stored`, grouped by outcome (`--plan`). */
export function resizeOptions(stored: JsonObject, ctx: ResizeContext): { name: string; kind: string; plan: ResizePlan }[] {
  const ns = String(obj(stored['metadata'])?.['namespace'] ?? 'default');
  const seen = new Set<string>();
  return ctx.store.specObjects
    .filter((o) => o.kind === KINDS_OF.instancetype.cluster || (o.kind === KINDS_OF.instancetype.namespaced && (o.namespace ?? ns) === ns))
    .filter((o) => (seen.has(`${o.kind}/${o.name}`) ? false : (seen.add(`${o.kind}/${o.name}`), true)))
    .map((o) => ({ name: o.name, kind: o.kind, plan: resizePlan(stored, { instancetype: { name: o.name, kind: o.kind } }, ctx) }));
}

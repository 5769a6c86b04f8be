/**
 * What to do about a VM KubeVirt refuses for its references: the object meant (another scope, another
 * namespace, a near name), or the smallest instance type that meets the preference.
 */
import { obj, type JsonObject } from '../json';
import { parseQuantity } from '../quantity';
import { compareText } from '../order';
import { spreadProblem } from '../kubevirt/topology';
import { meetsRequirements, requirementsOf } from '../kubevirt/requirements';
import type { References, SpecObject } from './model';
import { suggestionFor, type ObjectStore, type ReferenceError } from './references';

/**
 * What to do about a reference that cannot be resolved: the kind to write when the name exists in
 * the other scope (or the namespace it lives in), else a did-you-mean over the objects of the kind
 * the VM names, else where objects come from.
 */
export function referenceHint(e: ReferenceError, store: ObjectStore): string {
  const revision = /^controllerrevisions\.apps "([^"]+)" not found$/.exec(e.message)?.[1];
  if (revision !== undefined)
    return `a stored VM runs on the ControllerRevision its matcher names: export it with the VM (kubectl get controllerrevisions ${revision} -o yaml, in the VM's namespace) and pass it with --with FILE`;
  const which = e.field.startsWith('spec.preference') ? 'preference' : 'instancetype';
  const plural = which === 'preference' ? 'preferences' : 'instance types';
  const ofWhich = store.specObjects.filter((o) => (which === 'preference' ? /Preference$/ : /Instancetype$/).test(o.kind));
  const wanted = e.notFound;
  if (wanted) {
    const namedSo = ofWhich.filter((o) => o.name === wanted.name);
    const otherKind = namedSo.find((o) => o.kind !== wanted.kind);
    if (otherKind) {
      const cluster = otherKind.kind.includes('Cluster');
      return `\`${wanted.name}\` is a ${otherKind.kind}${cluster ? '' : ' (namespaced)'}, not a ${wanted.kind}: set spec.${which}.kind: ${otherKind.kind}${cluster ? ' (or leave kind out: it is the default)' : ''}`;
    }
    const elsewhere = namedSo.find((o) => o.namespace !== undefined && o.namespace !== wanted.namespace);
    if (elsewhere)
      return `a ${wanted.kind} \`${wanted.name}\` exists in namespace \`${elsewhere.namespace}\`, not in the VM's \`${wanted.namespace ?? ''}\`: a VM uses namespaced ${plural} of its own namespace only`;
    // The suggestion the catalog's admission policy gives for the same name.
    const meant = suggestionFor(store, wanted.kind, wanted.name);
    if (meant !== undefined) return meant;
  }
  return ofWhich.length === 0
    ? 'no instance types or preferences were given: generate the project (its objects are read from the generators), or pass them with --with FILE'
    : `${new Set(ofWhich.map((o) => o.name)).size} ${plural} are known (from the project and --with files); pass the object with --with FILE if it lives elsewhere`;
}

/**
 * For a VM refused because its instance type is too small for the preference's requirements: the
 * smallest instance type of the same series (the part of the name before the first `.`) that meets
 * them and the spread, as the matrix would pair them; else the smallest of any series.
 */
export function biggerSizeHint(c: { message: string; reason?: string }, refs: References, store: ObjectStore): { hint?: string } {
  const it = refs.instancetype;
  const pref = refs.preference?.spec;
  if (!it || !pref || c.reason !== 'requirements-instancetype') return {};
  const cpuOf = (spec: JsonObject): number => (typeof obj(spec['cpu'])?.['guest'] === 'number' ? (obj(spec['cpu'])!['guest'] as number) : 0);
  const memOf = (spec: JsonObject): number => parseQuantity(String(obj(spec['memory'])?.['guest'] ?? 0)) ?? 0;
  const req = requirementsOf(pref);
  const fits = (o: SpecObject): boolean => {
    if (o.kind !== it.kind) return false;
    const met = meetsRequirements(req, { cpu: cpuOf(o.spec), memoryBytes: memOf(o.spec) });
    if (!met.cpu || !met.memory) return false;
    try {
      return spreadProblem(cpuOf(o.spec), pref) === undefined;
    } catch {
      return false; // a spread KubeVirt cannot compute fits nothing
    }
  };
  const series = (n: string): string => n.split('.')[0]!;
  const candidates = store.specObjects
    .filter(fits)
    .sort((a, b) => cpuOf(a.spec) - cpuOf(b.spec) || memOf(a.spec) - memOf(b.spec) || compareText(a.name, b.name));
  const same = candidates.find((o) => series(o.name) === series(it.name));
  const pick = same ?? candidates[0];
  if (!pick) return { hint: "no instance type known here meets the preference's requirements" };
  return { hint: `the smallest ${same ? `${series(it.name)} size` : 'instance type'} that meets the preference's requirements: \`${pick.name}\`` };
}

import { diag, hasErrors, type Diagnostic } from '../diagnostics';
import { manifestObjects } from '../expand/documents';
import type { JsonObject } from '../json';
import type { Project } from '../project';
import { diffObjects, type KubeObject } from '../release/diff';
import { judgeVms, vmImpact } from '../release/review';
import { catalogOfObjects } from '../render/objects';
import { isManifestKind } from '../schema/kubevirt-api';
import type { DiffReport } from './diff';

/** The instance types and preferences of one bundle file (or `kubectl get -o yaml`), and what reading it found. */
function bundleObjects(project: Project, file: string): { objects: KubeObject[]; diagnostics: Diagnostic[] } {
  const read = project.manifests([file]);
  const objects = manifestObjects(read.docs)
    .map((f) => f.value)
    .filter((o) => isManifestKind(o['kind'])) as unknown as KubeObject[];
  if (objects.length === 0 && !hasErrors(read.diagnostics))
    return {
      objects,
      diagnostics: [
        diag('IT7301', `${file} holds no instance types or preferences (instancetype.kubevirt.io objects)`, undefined, {
          hint: "pass the platform's release bundles, or kubectl get virtualmachineclusterinstancetypes,virtualmachineclusterpreferences -o yaml",
        }),
      ],
    };
  return { objects, diagnostics: read.diagnostics };
}

/** Label keys every object of both bundles carries and whose value is a release version: not a change of an object. */
function versionLabels(before: readonly KubeObject[], after: readonly KubeObject[]): string[] {
  const all = [...before, ...after];
  const labels = (o: KubeObject): Record<string, unknown> => {
    const l = o.metadata['labels'];
    return l !== null && typeof l === 'object' && !Array.isArray(l) ? l : {};
  };
  const keys = new Set(all.flatMap((o) => Object.keys(labels(o))));
  return [...keys].filter((k) => /version$/.test(k) && !k.startsWith('instancetype.kubevirt.io/') && all.every((o) => labels(o)[k] !== undefined));
}

/**
 * `itgen diff --from OLD --to NEW`: two published bundles (the platform's v1.0.0 and v1.1.0),
 * object by object, and with `vms` what each VM gets: which objects it loses or sees deprecated,
 * what it becomes at its next start, and whether KubeVirt still admits it. Needs no project.
 */
export function diffBundles(project: Project, opts: { readonly from: string; readonly to: string; readonly vms?: readonly string[] }): DiffReport {
  const empty = { sections: [], resizes: [], changed: false, notes: [] };
  const before = bundleObjects(project, opts.from);
  const after = bundleObjects(project, opts.to);
  const read = [...before.diagnostics, ...after.diagnostics];
  if (hasErrors(read)) return { ...empty, failed: true, diagnostics: read };
  const diffs = diffObjects(before.objects, after.objects, versionLabels(before.objects, after.objects));
  // Deprecation and replacements as the bundles' own labels and annotations record them.
  const old = catalogOfObjects(before.objects as unknown as JsonObject[], 'from');
  const now = catalogOfObjects(after.objects as unknown as JsonObject[], 'to');
  const deprecatedBefore = new Set(old.objects.filter((o) => o.source.deprecated).map((o) => `${o.manifest.kind}/${o.manifest.metadata.name}`));
  const replacement = new Map<string, string>(
    [...old.objects, ...now.objects].flatMap((o) =>
      o.source.deprecated?.replacement !== undefined
        ? [[`${o.manifest.kind}/${o.manifest.metadata.name}`, o.source.deprecated.replacement] as [string, string]]
        : [],
    ),
  );
  const problems: Diagnostic[] = [...read];
  const vmDirs = opts.vms ?? [];
  let impact: DiffReport['sections'][number]['impact'];
  if (vmDirs.length > 0) {
    const vms = project.manifests(vmDirs);
    problems.push(...vms.diagnostics);
    const i = vmImpact(vms.docs, before.objects, after.objects, {
      deprecatedEarlier: (kind, name) => deprecatedBefore.has(`${kind}/${name}`),
      replacementOf: (kind, name) => replacement.get(`${kind}/${name}`),
    });
    problems.push(...i.diagnostics, ...judgeVms(vms.docs, after.objects, { configs: project.configs(), defaultsOnly: !project.kubevirt().config }, i.impacts));
    impact = { impacts: i.impacts, unaffected: i.unaffected };
  }
  return {
    sections: [
      { generator: `${opts.from} -> ${opts.to}`, against: opts.from, diffs, before: before.objects, after: after.objects, ...(impact ? { impact } : {}) },
    ],
    resizes: [],
    changed: diffs.length > 0,
    failed: false,
    diagnostics: problems,
    notes: [`objects of ${opts.from} and ${opts.to}`],
  };
}

/**
 * The VMs of documents judged under several configurations (the releases a catalog targets): the
 * one judge's findings (documents.ts) merged, each said once or with the releases that give it.
 */
import type { Diagnostic } from '../diagnostics';
import { gateNamedIn, withEveryGate, type ClusterDefaults } from '../kubevirt/config';
import { NEWEST_RELEASE } from '../kubevirt/releases';
import type { SourceDoc } from '../load/source';
import { expandDocuments, type ExpandOutcome } from './documents';
import type { ExpandOptions } from './expand';
import type { ObjectStore } from './references';

/** What VMs are judged under (Project.configs), and whether those are the releases' defaults (no KubeVirt CR given). */
export interface Judging {
  readonly configs: readonly ClusterDefaults[];
  readonly defaultsOnly: boolean;
  /** What else the VMs may reference besides the project's objects: the `--with` files' (bundles, PVCs, nodes). */
  readonly besides?: ObjectStore;
}

/**
 * The VMs of `docs` judged under each of `configs` (the releases a catalog targets, or the one
 * given): a finding every release gives is said once; one that only some give names them. Without
 * the cluster's KubeVirt CR (`defaultsOnly`), each configuration is that release's defaults, what a
 * fresh install runs, and a refusal that a cluster enabling every feature gate would not give says
 * which gate and how to give the cluster's own configuration.
 */
export function judgeDocuments(
  docs: readonly SourceDoc[],
  store: ObjectStore,
  options: Omit<ExpandOptions, 'kubevirt' | 'cluster'> & { readonly admission: boolean },
  { configs, defaultsOnly }: Judging,
  keep: (o: ExpandOutcome) => boolean = () => true,
): Diagnostic[] {
  const key = (d: Diagnostic): string => `${d.code}|${d.location?.file}:${d.location?.line}:${d.location?.col}|${d.message}`;
  const seen = new Map<string, { d: Diagnostic; releases: string[] }>();
  for (const config of configs) {
    const release = config.release ?? NEWEST_RELEASE;
    const found = expandDocuments(docs, store, { ...options, kubevirt: config })
      .outcomes.filter(keep)
      .flatMap((o) => o.diagnostics);
    const refusal = (d: Diagnostic): boolean => d.severity === 'error' && (d.code === 'IT8003' || d.code === 'IT8008');
    const gated =
      defaultsOnly && found.some(refusal)
        ? new Set(
            expandDocuments(docs, store, { ...options, kubevirt: withEveryGate(config) })
              .outcomes.flatMap((o) => o.diagnostics)
              .filter(refusal)
              .map(key),
          )
        : undefined;
    for (const d of found) {
      const judged = gated && refusal(d) && !gated.has(key(d)) ? { ...d, hint: gateHint(d.message, release) } : d;
      const k = key(judged);
      const entry = seen.get(k);
      if (entry) entry.releases.push(release);
      else seen.set(k, { d: judged, releases: [release] });
    }
  }
  return [...seen.values()].map(({ d, releases }) =>
    releases.length === configs.length || configs.length < 2 ? d : { ...d, message: `${d.message} (KubeVirt ${releases.join(', ')})` },
  );
}

/** What to do about a refusal the cluster's configuration decides, naming the feature gate when KubeVirt's words name one. */
function gateHint(message: string, release: string): string {
  const gate = gateNamedIn(message);
  return `KubeVirt ${release}'s default configuration (no --kubevirt) refuses it: ${
    gate !== undefined
      ? `a cluster whose KubeVirt CR enables the ${gate} feature gate`
      : 'a cluster whose KubeVirt CR enables the feature (a feature gate, or permittedHostDevices)'
  } (spec.configuration.developerConfiguration.featureGates) would not; pass the cluster's CR with --kubevirt for its verdict`;
}

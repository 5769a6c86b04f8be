/**
 * What a GitOps tool of the project does with a generated base: Flux Kustomizations and Argo CD
 * Applications found in the project that sync a generator's output. A base whose namespaced kinds
 * carry no namespace, synced without a target namespace, fails: Flux's server-side dry run refuses
 * a namespaced object without one (IT5011).
 */
import { diag, type Diagnostic } from '../diagnostics';
import { locate, type SourceDoc } from '../load/source';
import { KIND_DIRS } from '../emit/layout';
import type { CompileResult } from '../pipeline';

const normal = (p: string): string => p.replace(/^\.\//, '').replace(/\/+$/, '');

/** IT5011 for each Flux Kustomization or Argo CD Application in `docs` that syncs a base whose namespaced objects have no namespace, without giving them one. */
export function syncWarnings(results: readonly CompileResult[], docs: readonly SourceDoc[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const src of docs) {
    const o = src.value as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown }; spec?: Record<string, unknown> };
    const api = String(o.apiVersion ?? '');
    const flux = o.kind === 'Kustomization' && api.startsWith('kustomize.toolkit.fluxcd.io/');
    const argo = o.kind === 'Application' && api.startsWith('argoproj.io/');
    if (!flux && !argo) continue;
    const source = argo ? (o.spec?.['source'] as Record<string, unknown> | undefined) : o.spec;
    const target = flux ? o.spec?.['targetNamespace'] : (o.spec?.['destination'] as Record<string, unknown> | undefined)?.['namespace'];
    if (typeof source?.['path'] !== 'string' || (typeof target === 'string' && target !== '')) continue;
    const synced = normal(source['path']);
    for (const r of results) {
      if (!r.generator) continue;
      const base = normal(r.generator.outputDir);
      // The whole base, or one kind directory of it (an overlay may take the namespaced kinds alone).
      const kindDir = synced.startsWith(`${base}/`) ? synced.slice(base.length + 1) : synced === base ? undefined : null;
      if (kindDir === null) continue;
      const bare = r.objects.filter(
        (x) =>
          x.scope === 'namespaced' &&
          (kindDir === undefined || KIND_DIRS[x.manifest.kind] === kindDir) &&
          (x.manifest.metadata as { namespace?: string }).namespace === undefined,
      ).length;
      if (bare === 0) continue;
      const name = String(o.metadata?.name ?? '');
      out.push(
        diag(
          'IT5011',
          `${flux ? 'Flux Kustomization' : 'Argo CD Application'} \`${name}\` syncs ${synced}, whose ${bare} namespaced object${bare === 1 ? ' has' : 's have'} no namespace, and gives them none`,
          locate(src, argo ? ['spec', 'source', 'path'] : ['spec', 'path']),
          {
            severity: 'warning',
            hint: flux
              ? 'set spec.targetNamespace (and create the namespace), or `namespace:` in the generator; Flux refuses namespaced objects without one'
              : 'set spec.destination.namespace, or `namespace:` in the generator',
          },
        ),
      );
    }
  }
  return out;
}

import type { RenderedManifest, RenderedObject } from './manifests';

type NamespacedMetadata = RenderedManifest['metadata'] & { readonly namespace: string };

/**
 * The generator's target namespace, set as `metadata.namespace` on namespaced kinds only. Setting
 * it on the objects (rather than with `namespace:` in a kustomization) keeps the base, the
 * release bundles and the KRM function output the same objects, and never touches the
 * cluster-scoped kinds, which kustomize's `namespace:` would (it treats unknown kinds as
 * namespaced).
 */
export function applyNamespace(objects: readonly RenderedObject[], namespace: string | undefined): RenderedObject[] {
  if (namespace === undefined) return [...objects];
  return objects.map((o) => {
    if (o.scope !== 'namespaced') return o;
    // Keys stay sorted (annotations, labels, name, namespace): the serializer keeps this order.
    const metadata: NamespacedMetadata = { ...o.manifest.metadata, namespace };
    return { ...o, manifest: { ...o.manifest, metadata } };
  });
}

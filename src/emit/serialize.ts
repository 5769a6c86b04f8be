import { stringify } from 'yaml';
import type { RenderedManifest } from '../render/manifests';
import { YAML_OPTIONS } from './yaml-options';
import { writeYamlMapping } from './yaml-writer';

export function toYaml(value: unknown): string {
  return stringify(value, YAML_OPTIONS);
}

/** The same bytes as `toYaml`, through the fast writer when it can answer. */
export function mappingToYaml(value: Record<string, unknown>): string {
  return writeYamlMapping(value) ?? toYaml(value);
}

/**
 * `apiVersion`, `kind`, `metadata` first, then `spec`; keys below are already sorted by the
 * renderer. The body is serialized without apiVersion/kind so the cluster and namespaced twins of
 * an object can share one serialization.
 */
export function serializeBody(manifest: RenderedManifest): string {
  return mappingToYaml({ metadata: manifest.metadata, spec: manifest.spec });
}

export function serializeManifest(manifest: RenderedManifest, body: string = serializeBody(manifest)): string {
  return `apiVersion: ${manifest.apiVersion}\nkind: ${manifest.kind}\n${body}`;
}

/** Multi-document stream; every document starts with `---` (yamllint's document-start rule). */
export function serializeStream(docs: readonly string[]): string {
  return docs.map((d) => `---\n${d.endsWith('\n') ? d : `${d}\n`}`).join('');
}

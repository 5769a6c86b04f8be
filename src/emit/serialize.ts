import { isNode, Scalar, stringify } from 'yaml';
import { holdsWorkflowCommand } from '../printable';
import type { RenderedManifest } from '../render/manifests';
import { YAML_OPTIONS } from './yaml-options';
import { writeYamlMapping } from './yaml-writer';

export function toYaml(value: unknown): string {
  const quoted = quoteRiskyText(value);
  // A double-quoted string the library would otherwise break across lines stays on one.
  return stringify(quoted, quoted === value ? YAML_OPTIONS : { ...YAML_OPTIONS, doubleQuotedMinMultiLineLength: Number.MAX_SAFE_INTEGER });
}

/**
 * `value` with every multi-line string that holds a line a CI runner would read as a workflow
 * command (`::error ...`, see printable.ts) made a double-quoted scalar: a block literal would put
 * that line at the start of a line of `itgen build` or `itgen expand` output. Same value, other
 * spelling; copies only the containers on the way to such a string.
 */
function quoteRiskyText(value: unknown): unknown {
  if (typeof value === 'string') {
    if (!holdsWorkflowCommand(value)) return value;
    const scalar = new Scalar(value);
    scalar.type = 'QUOTE_DOUBLE';
    return scalar;
  }
  if (value === null || typeof value !== 'object' || isNode(value)) return value;
  const stack: unknown[] = [value];
  let risky = false;
  while (stack.length > 0 && !risky) {
    const v = stack.pop();
    if (typeof v === 'string') risky = holdsWorkflowCommand(v);
    else if (v !== null && typeof v === 'object') for (const child of Array.isArray(v) ? v : Object.values(v as object)) stack.push(child);
  }
  if (!risky) return value;
  if (Array.isArray(value)) return value.map(quoteRiskyText);
  return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, quoteRiskyText(v)]));
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

import { Document, stringify, visit } from 'yaml';
import { escapeInDoubleQuoted, holdsUnprintable, holdsWorkflowCommand } from '../printable';
import type { RenderedManifest } from '../render/manifests';
import { YAML_OPTIONS } from './yaml-options';
import { writeYamlMapping } from './yaml-writer';

export function toYaml(value: unknown): string {
  if (!holdsRiskyText(value)) return stringify(value, YAML_OPTIONS);
  // Every scalar, key or value, that holds a risky string is double-quoted, on one line (the
  // library would otherwise break it across lines); then what the library leaves raw inside the
  // quotes (a bidirectional mark) becomes an escape.
  const doc = new Document(value, YAML_OPTIONS);
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && risky(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  return escapeInDoubleQuoted(doc.toString({ ...YAML_OPTIONS, doubleQuotedMinMultiLineLength: Number.MAX_SAFE_INTEGER }));
}

/**
 * A string YAML must write double-quoted: a multi-line one holding a line a CI runner would read as
 * a workflow command (`::error ...`, see printable.ts; a block literal would put that line at the
 * start of a line of `itgen build` or `itgen expand` output), or one holding an unprintable
 * character (a right-to-left mark), which is then escaped. Same value, other spelling.
 */
const risky = (s: string): boolean => holdsWorkflowCommand(s) || holdsUnprintable(s);

/** Whether any key or string value of `value` is risky. */
function holdsRiskyText(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (risky(v)) return true;
    } else if (v !== null && typeof v === 'object') {
      if (Array.isArray(v)) stack.push(...v);
      else for (const [k, child] of Object.entries(v as object)) stack.push(k, child);
    }
  }
  return false;
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

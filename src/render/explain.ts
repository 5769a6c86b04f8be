import { Document, isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import { locate } from '../load/source';
import { holdsWorkflowCommand } from '../printable';
import { leafKey } from '../resolve/leaves';
import type { RenderedObject } from './manifests';

function where(o: { src: Parameters<typeof locate>[0]; path: Parameters<typeof locate>[1] }): string {
  const l = locate(o.src, o.path);
  return `${l.file}:${l.line}:${l.col}`;
}

/**
 * The rendered object as YAML with, on every spec field, the catalog file, line and column it
 * came from and why (which fragment, base, size or override); derived metadata says so.
 */
export function explainObject(obj: RenderedObject): string {
  const doc = new Document(obj.manifest);
  const src = obj.source;
  const meant =
    src.kind === 'instancetype' && src.architectures !== undefined
      ? `\n# meant for ${src.architectures.join(', ')} only: paired with preferences of ${src.architectures.length === 1 ? 'that architecture' : 'those architectures'}`
      : '';
  const header = `${obj.manifest.kind} ${obj.manifest.metadata.name}: declared by ${src.origin.what} at ${where(src.origin)}${meant}`;
  const visit = (node: unknown, path: string[]): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair) || !isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        const p = [...path, key];
        const value = pair.value as Node | null;
        if (path[0] === 'spec' && p.length > 1) {
          const l = src.leaves.get(leafKey(p.slice(1)));
          if (l && value) {
            const note = ` ${where(l.origin)} (${l.origin.what})`;
            if (isScalar(value) || isSeq(value) || (isMap(value) && value.items.length === 0)) {
              // An empty mapping printed as `{}` keeps its comment on the same line.
              if (isMap(value)) value.flow = true;
              value.comment = note;
              continue;
            }
          }
        }
        if (value && isScalar(value) && typeof value.value === 'string' && holdsWorkflowCommand(value.value)) value.type = 'QUOTE_DOUBLE';
        if (path.length === 2 && path[0] === 'metadata' && value && isScalar(value)) {
          value.comment = path[1] === 'labels' ? ' derived' : ' rendered';
        }
        visit(value, p);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => visit(item, [...path, String(i)]));
    }
  };
  visit(doc.contents, []);
  return `# ${header}\n${doc.toString({ lineWidth: 0, indentSeq: true, doubleQuotedMinMultiLineLength: Number.MAX_SAFE_INTEGER })}`;
}

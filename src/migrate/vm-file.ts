/**
 * The rewritten VM as a file: the document it came from, edited in place through the `yaml`
 * library, so that every comment, key order and field the migration does not touch stays as the
 * team wrote it.
 */
import { type Json } from '../json';
import { Document, isMap, type Node } from 'yaml';

import type { FoundObject } from '../expand/documents';
import type { SpecPath, VmPlan } from './mapping';

export interface Matchers {
  readonly instancetype?: { readonly kind: string; readonly name: string } | undefined;
  readonly preference?: { readonly kind: string; readonly name: string } | undefined;
}

const TEMPLATE_SPEC = ['spec', 'template', 'spec'];

function removeWithEmptyParents(doc: Document, path: readonly (string | number)[]): void {
  if (!doc.hasIn(path)) return;
  doc.deleteIn(path);
  for (let i = path.length - 1; i > TEMPLATE_SPEC.length; i--) {
    const parent = doc.getIn(path.slice(0, i), true);
    if (isMap(parent) && parent.items.length === 0) doc.deleteIn(path.slice(0, i));
    else break;
  }
}

/** The VM document with the plan applied and the instance type and preference named. */
export function rewriteVmText(vm: FoundObject, plan: VmPlan, matchers: Matchers): string {
  const node = vm.path.length === 0 ? vm.src.doc.contents : (vm.src.doc.getIn(vm.path, true) as Node | undefined);
  const doc = new Document();
  doc.contents = (node as Node).clone() as never;
  if (vm.path.length === 0) doc.commentBefore = vm.src.doc.commentBefore;
  const spec = (p: SpecPath): string[] => [...TEMPLATE_SPEC, ...p];
  for (const p of plan.remove) removeWithEmptyParents(doc, spec(p));
  for (const a of plan.add) {
    doc.setIn(spec(a.path), doc.createNode(a.value as Json));
    // A flow mapping on the way (`devices: {}`) would print what is added on one line.
    for (let i = 1; i <= spec(a.path).length; i++) {
      const n = doc.getIn(spec(a.path).slice(0, i), true);
      if (isMap(n)) n.flow = false;
    }
  }
  const specNode = doc.getIn(['spec'], true);
  if (isMap(specNode)) {
    // Matchers go first in spec, where a reader looks for them.
    const entries: [string, { kind: string; name: string } | undefined][] = [
      ['preference', matchers.preference],
      ['instancetype', matchers.instancetype],
    ];
    for (const [key, m] of entries) {
      if (!m) continue;
      specNode.delete(key);
      specNode.items.unshift(doc.createPair(key, { kind: m.kind, name: m.name }) as never);
    }
  }
  return doc.toString({ lineWidth: 0 });
}

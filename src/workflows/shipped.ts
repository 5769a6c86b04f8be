import { currentObjects, currentTemplates, type CurrentObject } from '../release/lock';
import type { CompileResult } from '../pipeline';

/** What a generator publishes, as its release lock records it: the catalog's objects and the templates its `templates:` ships. */
export function shippedObjects(r: Pick<CompileResult, 'objects' | 'templates'>): CurrentObject[] {
  return [...currentObjects(r.objects), ...currentTemplates(r.templates, () => undefined)];
}

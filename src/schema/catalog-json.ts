/**
 * The JSON Schema of catalog documents (`itgen schema catalog`), made from the zod schemas, with
 * each kind a named definition editors complete from.
 */
import { z } from 'zod';

import {
  catalogDocSchema,
  sizeLadderDocSchema,
  familyDocSchema,
  instancetypeFragmentDocSchema,
  preferenceFragmentDocSchema,
  preferenceDocSchema,
} from './catalog';

/** JSON Schema of one catalog document (any kind), for editors. */
export function catalogJsonSchema(): Record<string, unknown> {
  const any = z.discriminatedUnion('kind', [
    catalogDocSchema,
    sizeLadderDocSchema,
    familyDocSchema,
    instancetypeFragmentDocSchema,
    preferenceFragmentDocSchema,
    preferenceDocSchema,
  ]);
  const schema = z.toJSONSchema(any, { io: 'input', unrepresentable: 'any', reused: 'ref' }) as Record<string, unknown>;
  return { ...namedDefinitions(schema), title: 'itgen catalog document', $id: 'https://itgen.dev/schema/catalog.json' };
}

/**
 * zod names the definitions it shares `__schema0`, `__schema1`...: an editor shows those names.
 * Each
 * is renamed after the first place that uses it (`familySpecCpu`, `preferenceInherits`), numbered
 * only when two places share a name.
 */
export function namedDefinitions(schema: Record<string, unknown>): Record<string, unknown> {
  const defs = (schema['$defs'] ?? {}) as Record<string, unknown>;
  const names = new Map<string, string>();
  const taken = new Set<string>();
  const camel = (parts: readonly string[]): string =>
    parts
      .filter((p) => /^[A-Za-z]/.test(p))
      .map((p, i) => (i === 0 ? p.charAt(0).toLowerCase() + p.slice(1) : p.charAt(0).toUpperCase() + p.slice(1)))
      .join('')
      .replace(/[^A-Za-z0-9]/g, '') || 'definition';
  // The document kind a schema is of: its `kind` property's constant, written inline or shared.
  const kindOf = (node: unknown): string | undefined => {
    const k = ((node as { properties?: Record<string, { const?: unknown; $ref?: unknown }> } | undefined)?.properties ?? {})['kind'];
    const shared = typeof k?.$ref === 'string' ? (defs[k.$ref.replace('#/$defs/', '')] as { const?: unknown } | undefined) : undefined;
    const value = k?.const ?? shared?.const;
    return typeof value === 'string' ? value : undefined;
  };
  const visit = (node: unknown, at: string[]): void => {
    if (Array.isArray(node)) node.forEach((n) => visit(n, at));
    else if (node !== null && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      const here = kindOf(o) !== undefined ? [kindOf(o)!] : at;
      const ref = typeof o['$ref'] === 'string' ? /^#\/\$defs\/(__schema\d+)$/.exec(o['$ref'])?.[1] : undefined;
      if (ref !== undefined && !names.has(ref)) {
        // A document kind names its own definition (`Family`); anything else the path to it.
        const ownKind = kindOf(defs[ref]);
        const path = typeof ownKind === 'string' ? [ownKind] : here;
        const base = typeof ownKind === 'string' ? ownKind : camel(path.slice(-3));
        let name = base;
        for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
        taken.add(name);
        names.set(ref, name);
        visit(defs[ref], path);
      }
      for (const [k, v] of Object.entries(o))
        if (k !== '$defs')
          visit(
            v,
            k === 'properties' || k === 'items' || k === 'anyOf' || k === 'oneOf' || k === 'allOf' || k === 'additionalProperties' ? here : [...here, k],
          );
    }
  };
  visit(schema, []);
  const rename = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rename);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node as Record<string, unknown>).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string'
          ? v.replace(/^#\/\$defs\/(__schema\d+)$/, (m, id: string) => (names.has(id) ? `#/$defs/${names.get(id)}` : m))
          : rename(v),
      ]),
    );
  };
  const renamed = rename(schema) as Record<string, unknown>;
  const newDefs: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(defs)) newDefs[names.get(k) ?? k] = rename(v);
  return { ...renamed, $defs: newDefs };
}

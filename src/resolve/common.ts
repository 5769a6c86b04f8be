/**
 * What the family and preference resolvers share: the diagnostic sink, conflicts between sources
 * at one level, free text rendered or reported, and the leaves of included fragments.
 */
import { type JsonObject } from '../json';
import { diag, didYouMean, type Diagnostic } from '../diagnostics';
import { locate, type PathSegment } from '../load/source';
import { renderText, type TextContext } from './text';
import { mayBeDeclared, type Declared, type WrittenModel } from '../schema/documents';
import { toLeaves, type Conflict, type Leaves } from './leaves';

export type Sink = Diagnostic[];

export function conflictDiagnostic(c: Conflict, objectWhat: string): Diagnostic {
  const field = c.path.join('.');
  return diag(
    'IT2004',
    `\`${field}\` is set to ${JSON.stringify(c.first.value)} by ${c.first.origin.what} and to ${JSON.stringify(c.second.value)} by ${c.second.origin.what}, both merged into ${objectWhat}`,
    locate(c.second.origin.src, c.second.origin.path),
    {
      hint: `sources at the same level must agree; set \`${field}\` in ${objectWhat} itself to decide, or remove it from one source`,
      related: [{ message: `${c.first.origin.what} sets it here`, location: locate(c.first.origin.src, c.first.origin.path) }],
    },
  );
}

export function renderOr(template: string, ctx: TextContext, out: Sink, src: Declared<unknown>['src'], path: PathSegment[]): string {
  const r = renderText(template, ctx);
  if (r.ok) return r.text;
  out.push(
    diag('IT2009', `template error: ${r.error}`, locate(src, path), {
      hint: `free text may use only these variables: ${Object.keys(ctx)
        .filter((k) => ctx[k] !== undefined)
        .map((k) => `{{${k}}}`)
        .join(', ')}`,
    }),
  );
  return template;
}

export function renderMap(
  map: Readonly<Record<string, string>> | undefined,
  ctx: TextContext,
  out: Sink,
  src: Declared<unknown>['src'],
  path: PathSegment[],
  into: Record<string, string>,
): void {
  if (!map) return;
  for (const k of Object.keys(map)) into[k] = renderOr(map[k]!, ctx, out, src, [...path, k]);
}

export function fragmentLeaves(
  model: WrittenModel,
  names: readonly string[] | undefined,
  owner: Declared<unknown>,
  includePath: PathSegment[],
  out: Sink,
  kind: 'instancetype' | 'preference',
): Leaves[] {
  const layers: Leaves[] = [];
  const table = kind === 'instancetype' ? model.instancetypeFragments : model.preferenceFragments;
  (names ?? []).forEach((n, i) => {
    const f = table.get(n);
    if (!f && mayBeDeclared(model, kind === 'instancetype' ? 'InstancetypeFragment' : 'PreferenceFragment', n)) return;
    if (!f) {
      out.push(
        diag('IT2002', `unknown ${kind === 'instancetype' ? 'InstancetypeFragment' : 'PreferenceFragment'} \`${n}\``, locate(owner.src, [...includePath, i]), {
          hint: didYouMean(n, table.keys()) ?? `declared: ${[...table.keys()].sort().join(', ') || 'none'}`,
        }),
      );
      return;
    }
    layers.push(toLeaves(f.value.spec as JsonObject, f.src, ['spec'], `fragment \`${n}\``));
  });
  return layers;
}

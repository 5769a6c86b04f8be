/** Preference inheritance: bases and fragments merged at one level, cycles and disagreements reported. */
import { type JsonObject } from '../json';
import { diag, didYouMean } from '../diagnostics';
import { locate, type PathSegment } from '../load/source';
import type { WrittenPreference } from '../schema/catalog';
import { mayBeDeclared, type WrittenModel } from '../schema/documents';
import { mergeLevel, overlay, toLeaves, type Leaves } from './leaves';
import { conflictDiagnostic, fragmentLeaves, type Sink } from './common';

/** A preference as its objects start from: spec and metadata with everything inherited. */
export interface PrefBase {
  readonly leaves: Leaves;
  readonly icon: string | undefined;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly vars: Readonly<Record<string, string>>;
}

/**
 * A preference with what it inherits: its bases (resolved once each, cycles reported) and
 * fragments merged at one level, its own spec over them, and its metadata. Lives for one
 * resolution.
 */
export class Inheritance {
  private readonly memo = new Map<string, PrefBase | null>();
  private readonly visiting: string[] = [];

  constructor(
    private readonly model: WrittenModel,
    private readonly out: Sink,
  ) {}

  /**
   * The preference `name` with its bases; null when something it needs is missing or cyclic (reported).
   *
   * Over 80 lines: inheritance is one recursive walk with its cycle and conflict checks.
   */
  resolve(name: string): PrefBase | null {
    const done = this.memo.get(name);
    if (done !== undefined) return done;
    const decl = this.model.preferences.get(name)!;
    const p: WrittenPreference = decl.value;
    this.visiting.push(name);
    const what = `preference \`${name}\``;
    const layers: Leaves[] = [];
    const icons = new Set<string>();
    const labels: Record<string, string> = {};
    const annotations: Record<string, string> = {};
    const vars: Record<string, string> = {};
    const iconFrom = new Map<string, { base: string; index: number }>();
    const metaFrom = new Map<string, { value: string; base: string; index: number }>();
    const metaConflicts: {
      field: 'labels' | 'annotations' | 'vars';
      key: string;
      first: { value: string; base: string; index: number };
      second: { value: string; base: string; index: number };
    }[] = [];
    let failed = false;
    (p.inherits ?? []).forEach((b, i) => {
      if (!this.model.preferences.has(b) && mayBeDeclared(this.model, 'Preference', b)) {
        failed = true;
        return;
      }
      if (!this.model.preferences.has(b)) {
        this.out.push(
          diag(
            'IT2001',
            `${what} inherits unknown preference \`${b}\``,
            locate(decl.src, typeof (decl.src.value as Record<string, unknown>)['inherits'] === 'string' ? ['inherits'] : ['inherits', i]),
            {
              // Never the preference itself, which inheriting cannot mean.
              hint:
                didYouMean(
                  b,
                  [...this.model.preferences.keys()].filter((k) => k !== p.name),
                ) ?? 'inherit from a declared Preference',
            },
          ),
        );
        failed = true;
        return;
      }
      if (this.visiting.includes(b)) {
        const cycle = [...this.visiting.slice(this.visiting.indexOf(b)), b].join(' -> ');
        this.out.push(
          diag('IT2003', `inheritance cycle: ${cycle}`, locate(decl.src, ['inherits']), {
            hint: 'a preference cannot inherit from itself, directly or through its bases',
          }),
        );
        failed = true;
        return;
      }
      const base = this.resolve(b);
      if (!base) {
        failed = true;
        return;
      }
      layers.push(base.leaves);
      if (base.icon !== undefined) {
        icons.add(base.icon);
        if (!iconFrom.has(base.icon)) iconFrom.set(base.icon, { base: b, index: i });
      }
      for (const [field, into, from] of [
        ['labels', labels, base.labels],
        ['annotations', annotations, base.annotations],
        ['vars', vars, base.vars],
      ] as const) {
        for (const [k, v] of Object.entries(from)) {
          const key = `${field}\u0000${k}`;
          const earlier = metaFrom.get(key);
          if (earlier && earlier.value !== v) metaConflicts.push({ field, key: k, first: earlier, second: { value: v, base: b, index: i } });
          else if (!earlier) metaFrom.set(key, { value: v, base: b, index: i });
          into[k] = earlier ? earlier.value : v;
        }
      }
    });
    // Bases at one level must agree on metadata as on spec, unless the preference decides.
    const inheritsPath = (index: number): PathSegment[] =>
      typeof (decl.src.value as Record<string, unknown>)['inherits'] === 'string' ? ['inherits'] : ['inherits', index];
    const own: Record<string, Readonly<Record<string, string>> | undefined> = { labels: p.labels, annotations: p.annotations, vars: p.vars };
    for (const c of metaConflicts) {
      if (own[c.field]?.[c.key] !== undefined) continue;
      this.out.push(
        diag(
          'IT2004',
          `\`${c.field}.${c.key}\` is set to ${JSON.stringify(c.first.value)} by base \`${c.first.base}\` and to ${JSON.stringify(c.second.value)} by base \`${c.second.base}\`, both inherited by ${what}`,
          locate(decl.src, inheritsPath(c.second.index)),
          {
            hint: `bases at one level must agree; set \`${c.field}.${c.key}\` in ${what} itself to decide`,
            related: [{ message: `\`${c.first.base}\` is inherited here`, location: locate(decl.src, inheritsPath(c.first.index)) }],
          },
        ),
      );
    }
    if (p.icon === undefined && icons.size > 1) {
      const [a, b] = [...iconFrom.entries()];
      this.out.push(
        diag(
          'IT2004',
          `\`icon\` is ${JSON.stringify(a![0])} from base \`${a![1].base}\` and ${JSON.stringify(b![0])} from base \`${b![1].base}\`, both inherited by ${what}`,
          locate(decl.src, inheritsPath(b![1].index)),
          {
            hint: `set \`icon\` in ${what} itself to decide`,
            related: [{ message: `\`${a![1].base}\` is inherited here`, location: locate(decl.src, inheritsPath(a![1].index)) }],
          },
        ),
      );
    }
    layers.push(...fragmentLeaves(this.model, p.include, decl, ['include'], this.out, 'preference'));
    const merged = mergeLevel(layers);
    for (const c of merged.conflicts) this.out.push(conflictDiagnostic(c, what));
    const leaves = overlay(merged.leaves, toLeaves(p.spec as JsonObject | undefined, decl.src, ['spec'], what));
    Object.assign(labels, p.labels ?? {});
    Object.assign(annotations, p.annotations ?? {});
    Object.assign(vars, p.vars ?? {});
    this.visiting.pop();
    const result: PrefBase | null = failed ? null : { leaves, icon: p.icon ?? (icons.size === 1 ? [...icons][0] : undefined), labels, annotations, vars };
    this.memo.set(name, result);
    return result;
  }
}

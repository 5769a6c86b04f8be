/**
 * The functions the catalog schemas run besides their shapes (transforms and refinements), kept
 * here, apart from zod, so that the fast parser (schema/fast.ts) runs the very same functions
 * without loading zod. schema/model.ts finds each one in the schemas by identity, or by the tag a
 * refinement zod hides in a closure (`superRefine`) carries.
 */
import { isQuantity } from '../quantity';

/** Variables every preference's free text already has; `vars` may not redefine them. */
export const PREFERENCE_TEXT_VARIABLES = ['name', 'catalogName', 'displayName', 'arch', 'variant'] as const;

/**
 * Metadata itgen derives from the spec and the catalog (src/render/manifests.ts). Writing one of
 * these by hand could only contradict what is derived (a `deprecated` label on an object that is
 * not, a `cpu` label that disagrees with the spec), so catalogs and generators may not.
 */
export const DERIVED_LABELS: ReadonlySet<string> = new Set(
  [
    'vendor',
    'class',
    'version',
    'icon-pf',
    'size',
    'cpu',
    'memory',
    'hugepages',
    'dedicatedCPUPlacement',
    'isolateEmulatorThread',
    'numa',
    'realtime',
    'gpus',
    'deprecated',
    'os-type',
    'arch',
    'preferred-architecture',
    'required-architecture',
    'required-cpu',
    'required-memory',
  ].map((k) => `instancetype.kubevirt.io/${k}`),
);
export const DERIVED_ANNOTATIONS: ReadonlySet<string> = new Set([
  'instancetype.kubevirt.io/displayName',
  'instancetype.kubevirt.io/description',
  'openshift.io/display-name',
  'iconClass',
]);

/** What a refinement may report through: the part of zod's refinement context these functions use. */
export interface IssueSink {
  addIssue(issue: { code: 'custom'; path: PropertyKey[]; message: string }): void;
}

function derivedKeys(reserved: ReadonlySet<string>, what: string): (map: Record<string, string>, ctx: IssueSink) => void {
  return (map, ctx) => {
    for (const key of Object.keys(map)) {
      if (reserved.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `${what} \`${key}\` is derived by itgen (from the spec, the family or the preference); it cannot be written by hand`,
        });
      } else if (kubevirtOwned(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `${what} \`${key}\` is KubeVirt's own (virt-operator and KubeVirt set the \`kubevirt.io/\` keys and the common-instancetypes version on what they deploy); written by hand it makes these objects pass for theirs`,
        });
      }
    }
  };
}

/** Keys KubeVirt owns on the objects it deploys: its `kubevirt.io/` namespace, and the version label virt-operator puts on common-instancetypes (a bundle's version label is set by `bundle.versionLabel`, never by hand). */
function kubevirtOwned(key: string): boolean {
  return key.startsWith('kubevirt.io/') || key === 'instancetype.kubevirt.io/common-instancetypes-version';
}

/** Every such function, by the name schema/model.ts records for it. */
export const HOOKS = {
  /** Transform: a quantity or version written as a number becomes text. */
  text: (v: string | number): string => String(v),
  /** Refinement: a Kubernetes quantity. */
  isQuantity: (v: string): boolean => isQuantity(v),
  /** Transform: `inherits` as one name or a list, always a list. */
  list: (v: string | string[] | undefined): string[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v : [v]),
  /** Refinement: a text variable name that is not one itgen sets itself. */
  ownVariable: (k: string): boolean => !(PREFERENCE_TEXT_VARIABLES as readonly string[]).includes(k),
  /** Refinements with issues (`superRefine`): no derived label or annotation written by hand. */
  authoredLabels: derivedKeys(DERIVED_LABELS, 'label'),
  authoredAnnotations: derivedKeys(DERIVED_ANNOTATIONS, 'annotation'),
} as const;

export type HookName = keyof typeof HOOKS;

const tags = new WeakMap<object, HookName>();

/** Marks a schema whose refinement zod keeps in a closure (`superRefine`) with the hook it runs. */
export function tagged<T extends object>(schema: T, hook: HookName): T {
  tags.set(schema, hook);
  return schema;
}

export function tagOf(schema: object): HookName | undefined {
  return tags.get(schema);
}

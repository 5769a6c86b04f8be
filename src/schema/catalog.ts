/**
 * The zod model of the six catalog documents: one schema per document kind. The JSON Schema made
 * from them is catalog-json.ts.
 */
import { z } from 'zod';
import { UPSTREAM_RELEASE } from '../version';
import { HOOKS, PREFERENCE_TEXT_VARIABLES } from './hooks';
import { instancetypeSpecPatchSchema, preferenceSpecSchema } from './manifest';
import {
  architectureSchema,
  freeText,
  deprecationSchema,
  familyNameSchema,
  objectNameSchema,
  positiveIntSchema,
  quantityStringSchema,
  sizeNameSchema,
  authoredAnnotationsSchema,
  authoredLabelsSchema,
  versionSchema,
} from './common';

export { PREFERENCE_TEXT_VARIABLES };

/**
 * Template variables a preference (or a variant) defines for its own free text and for the
 * catalog-wide metadata templates, so that one template can say what differs per preference
 * (`tags: "hidden,kubevirt,{{tags}}"`). Values are Handlebars themselves: a variant's value sees
 * the
 * preference's (`"{{tags}},dpdk"`).
 */
export const textVariableNameSchema = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'a variable name is letters, digits and `_`, starting with a letter (like `tags`)')
  .refine(HOOKS.ownVariable, {
    message: `a variable name must not be one itgen sets itself (${PREFERENCE_TEXT_VARIABLES.join(', ')})`,
  });

export const textVariablesSchema = z
  .record(textVariableNameSchema, z.string())
  .describe(
    "Template variables (Handlebars `{{name}}`) for this preference's free text and the catalog's preference metadata; inherited, the preference overriding its bases",
  );

/** Labels and annotations a catalog adds on top of the derived ones; values may use Handlebars. */
const metadataExtrasSchema = z.strictObject({
  labels: authoredLabelsSchema.optional(),
  annotations: authoredAnnotationsSchema.optional(),
});

export const catalogDocSchema = z
  .strictObject({
    $schema: z.string().optional(),
    kind: z.literal('Catalog'),
    name: objectNameSchema,
    description: freeText().optional(),
    follows: z
      .string()
      .regex(UPSTREAM_RELEASE, '`main` or a release like `v1.7.0`, optionally with `@` and a commit')
      .optional()
      .describe(
        'The kubevirt/common-instancetypes release this catalog reproduces (`main`, or the release a KubeVirt release deploys, like `v1.7.0`), optionally `@<commit>`; said in the generated README beside what each targeted KubeVirt release deploys, and by a catalog that imports this one',
      ),
    defaultLadder: objectNameSchema
      .optional()
      .describe(
        "The size ladder of this catalog's families that name none, when it declares several; an imported catalog's families keep the one ladder their catalog declares",
      ),
    naming: z
      .strictObject({
        instancetype: z
          .string()
          .default('{family}{version}.{size}')
          .describe(
            'Instance type name pattern: {family}, {version}, {size}, {variant} (a variant placed here names a series of its own; without it the variant is appended to the size)',
          ),
        preference: z.string().default('{name}').describe('Preference name pattern: {name}'),
        architecture: z.string().default('{name}.{arch}').describe('Name of a non-default architecture variant: {name} (the preference name), {arch}'),
        architectureDisplayName: freeText().default('{{displayName}} ({{arch}})').describe('Display name of a non-default architecture variant (Handlebars)'),
        defaultArchitectureDisplayName: z
          .string()
          .optional()
          .describe(
            'Display name of the default-architecture object of a preference with `architectures` (Handlebars: {{displayName}}, {{arch}}); default: the plain display name',
          ),
        variant: z
          .string()
          .default('{name}.{variant}')
          .describe('Name of a preference variant: {name} (the preference name, with its architecture suffix), {variant} (the fragment name)'),
        variantDisplayName: z
          .string()
          .default('{{displayName}} ({{variant}})')
          .describe('Display name of a preference variant whose fragment sets no `variant.displayName` (Handlebars)'),
      })
      .prefault({})
      .describe('How object names are formed'),
    defaultArchitecture: architectureSchema.default('amd64'),
    words: z
      .strictObject({
        intents: z
          .record(
            z.string().regex(/^[a-z][a-z0-9-]*$/, 'an intent word: lowercase letters, digits and `-`, like `web` or `dedicated-compute`'),
            z
              .strictObject({
                classes: z.array(z.string().min(1)).optional().describe('Instance type classes it means (`general.purpose`)'),
                families: z.array(z.string().min(1)).optional().describe('Families it means (`u1`, or `u`)'),
              })
              .describe('What the word means'),
          )
          .optional()
          .describe('Needs people name (general, compute, memory...) and the classes or families they mean'),
        os: z
          .record(
            z.string().regex(/^[a-z0-9][a-z0-9 .-]*$/, 'an OS word: lowercase letters, digits, spaces, `.` and `-`, like `windows 11`'),
            objectNameSchema.describe('The preference it names (without an architecture suffix)'),
          )
          .optional()
          .describe('Guest OS names people use (`rhel`, `windows 11`) and the preference each names'),
      })
      .optional()
      .describe('`itgen select` and `itgen mcp`: the words people and agents use for needs and guest OSes; an unknown word is refused with these'),
    imports: z
      .array(
        z.strictObject({
          path: z.string().min(1).optional().describe('Another catalog directory, relative to this file (inside the project)'),
          package: z
            .string()
            .regex(/^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/, 'an npm package name')
            .optional()
            .describe("An installed npm package (in the project's node_modules) that ships the catalog"),
          catalog: z.string().min(1).optional().describe('With package: the catalog directory inside the package, like `catalogs/common-instancetypes`'),
          version: z
            .string()
            .min(1)
            .optional()
            .describe(
              'With package: the package version the import is pinned to; when another version is installed (an upgrade moved the catalog), it is an error until the pin is updated after review',
            ),
          base: z
            .boolean()
            .optional()
            .describe(
              'Take the import as a base only: its size ladders and fragments, and its preferences as abstract ones to inherit from; none of its families or preferences ships (nor do its Catalog defaults matter)',
            ),
          exclude: z
            .strictObject({
              families: z.array(z.string()).optional().describe('Families not to take (name, or name and version like `u1`)'),
              preferences: z.array(z.string()).optional().describe('Preferences not to take'),
            })
            .optional(),
          patches: z
            .array(
              z.strictObject({
                target: z
                  .strictObject({
                    kind: z.enum(['SizeLadder', 'Family', 'InstancetypeFragment', 'PreferenceFragment', 'Preference']),
                    name: z.string().min(1),
                    version: versionSchema.optional().describe('With kind Family: the version, when the import has several'),
                  })
                  .describe('The imported document to change, by kind and name'),
                patch: z
                  .record(z.string(), z.unknown())
                  .describe('A JSON merge patch (RFC 7386) on the document: mappings merge, `null` deletes a key, lists and values replace'),
              }),
            )
            .optional()
            .describe('Changes to imported documents without copying them (deprecate a family, relabel a preference, drop sizes)'),
        }),
      )
      .optional()
      .describe(
        "Catalogs this one builds on: their documents (but their Catalog) join this catalog's; a document of this catalog with the same kind and name replaces the imported one. Not transitive.",
      ),
    instancetypes: metadataExtrasSchema.optional().describe('Extra metadata for every instance type'),
    preferences: metadataExtrasSchema.optional().describe('Extra metadata for every preference'),
  })
  .describe('The catalog itself: naming and catalog-wide metadata. Exactly one per catalog.');

export const sizeLadderDocSchema = z
  .strictObject({
    $schema: z.string().optional(),
    kind: z.literal('SizeLadder'),
    name: objectNameSchema.describe('Name of the size ladder, which families name in `ladder`'),
    sizes: z
      .array(
        z.strictObject({
          name: sizeNameSchema,
          cpu: positiveIntSchema.describe('vCPUs of this size, the same in every family'),
          memory: quantityStringSchema
            .optional()
            .describe(
              "Guest memory of this size in every family, instead of vCPUs x the family's memoryPerCPU (small sizes below the ratio, like `nano: 512Mi`)",
            ),
        }),
      )
      .min(1)
      .describe('Sizes from smallest to largest'),
  })
  .describe('Named sizes with their vCPU counts, smallest first');

/** What `fromSize` can copy into a spec field. */
export const SIZE_QUANTITIES = ['cpu', 'memory'] as const;

const sizeOverrideSchema = z.strictObject({
  cpu: positiveIntSchema.optional().describe('vCPUs, when this family departs from the ladder'),
  memory: quantityStringSchema.optional().describe('Guest memory, when it departs from the family ratio'),
  spec: instancetypeSpecPatchSchema.optional(),
  deprecated: deprecationSchema.optional().describe('Deprecate this size of the family only (and its variants)'),
});

export const variantSchema = z.strictObject({
  name: sizeNameSchema.describe('Variant suffix, appended to the size name (`1gi` gives `cx1.large1gi`)'),
  sizes: z.array(sizeNameSchema).optional().describe('Sizes that get this variant; default all of the family'),
  include: z.array(objectNameSchema).optional(),
  spec: instancetypeSpecPatchSchema.optional(),
  displayName: freeText().optional(),
  description: freeText().optional(),
  architectures: z
    .array(architectureSchema)
    .min(1)
    .optional()
    .describe("Architectures this variant is meant for, instead of the family's (an arm64-only variant, say)"),
});

export const familyDocSchema = z
  .strictObject({
    $schema: z.string().optional(),
    kind: z.literal('Family'),
    name: familyNameSchema,
    version: versionSchema.optional(),
    displayName: freeText().min(1).describe('Human name of the family (Handlebars)'),
    description: freeText().min(1).describe('What the family is for (Handlebars)'),
    class: z
      .string()
      .regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/, 'a class is lowercase words joined by `.` or `-`, like `general.purpose`')
      .describe('Class label value'),
    icon: z
      .string()
      .regex(/^[a-z0-9-]+$/)
      .optional()
      .describe('PatternFly icon class'),
    memoryPerCPU: quantityStringSchema.describe('Guest memory per vCPU (the family ratio)'),
    architectures: z
      .array(architectureSchema)
      .min(1)
      .optional()
      .describe(
        'Architectures the family is meant for; the pairing checks, the compatibility matrix and the docs pair it only with preferences of these. Default: every architecture',
      ),
    ladder: objectNameSchema.optional().describe('Size ladder to use; optional when the catalog has one'),
    sizes: z.array(sizeNameSchema).min(1).optional().describe('Sizes offered; default every size of the ladder'),
    overrides: z.record(sizeNameSchema, sizeOverrideSchema).optional().describe('Per-size departures'),
    fromSize: z
      .record(
        z.string().regex(/^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)+$/, 'a spec path is field names joined by `.`, like `cpu.maxSockets`'),
        z.enum(SIZE_QUANTITIES),
      )
      .optional()
      .describe('Spec fields set from each size: `cpu` (its vCPU count) or `memory` (its guest memory), keyed by dotted spec path (`cpu.maxSockets: cpu`)'),
    naming: z.string().optional().describe('Name pattern for this family, overriding the catalog'),
    include: z.array(objectNameSchema).optional().describe('Instance type fragments to add'),
    spec: instancetypeSpecPatchSchema.optional().describe('Instance type spec added to every size'),
    variants: z.array(variantSchema).optional(),
    labels: authoredLabelsSchema.optional(),
    annotations: authoredAnnotationsSchema.optional(),
    deprecated: deprecationSchema.optional(),
  })
  .describe('A family (series) of instance types: one per size');

export const instancetypeFragmentDocSchema = z
  .strictObject({
    $schema: z.string().optional(),
    kind: z.literal('InstancetypeFragment'),
    name: objectNameSchema.describe('Name of the fragment, which families name in `include`'),
    description: freeText().optional(),
    spec: instancetypeSpecPatchSchema,
  })
  .describe('A reusable piece of instance type spec that families include');

export const preferenceFragmentDocSchema = z
  .strictObject({
    $schema: z.string().optional(),
    kind: z.literal('PreferenceFragment'),
    name: objectNameSchema.describe('Name of the fragment, which preferences name in `include`'),
    description: freeText().optional(),
    spec: preferenceSpecSchema,
    variant: z
      .strictObject({
        displayName: freeText()
          .min(1)
          .optional()
          .describe(
            "Display name of the variant (Handlebars: {{displayName}} is the preference's, {{variant}}, {{arch}}, and its vars); default: the catalog's `naming.variantDisplayName`",
          ),
        architectureDisplayName: freeText()
          .min(1)
          .optional()
          .describe(
            "How an architecture is added to the variant's display name (Handlebars: {{displayName}}, {{arch}}); default: the catalog's patterns; `{{displayName}}` leaves it out",
          ),
        architectures: z
          .array(architectureSchema)
          .min(1)
          .optional()
          .describe('For a preference with `architectures`: which of them get this variant; default: the catalog default architecture only'),
        vars: textVariablesSchema.optional(),
      })
      .optional()
      .describe('How a preference that lists this fragment in `variants` names the extra object and where it applies'),
  })
  .describe('A reusable piece of preference spec that preferences include, or add as a variant');

const archVariantSchema = z.strictObject({
  displayName: freeText().optional(),
  spec: preferenceSpecSchema.optional(),
  include: z.array(objectNameSchema).optional(),
});

export const preferenceDocSchema = z
  .strictObject({
    $schema: z.string().optional(),
    kind: z.literal('Preference'),
    name: objectNameSchema,
    abstract: z.boolean().optional().describe('A base only: inherited from, never emitted'),
    inherits: z
      .union([objectNameSchema, z.array(objectNameSchema)])
      .optional()
      .transform(HOOKS.list)
      .describe('Base preferences, merged at one level; the preference overrides them'),
    include: z.array(objectNameSchema).optional().describe('Preference fragments, at the same level as the bases'),
    displayName: freeText().min(1).optional().describe('openshift.io/display-name; required unless abstract; never inherited'),
    icon: z.string().optional().describe('iconClass annotation; inherited'),
    architectures: z
      .array(architectureSchema)
      .min(1)
      .optional()
      .describe('Emit one object per architecture; the catalog default architecture keeps the plain name'),
    architectureOverrides: z.partialRecord(architectureSchema, archVariantSchema).optional().describe('Per-architecture additions'),
    variants: z
      .array(objectNameSchema)
      .min(1)
      .optional()
      .describe(
        'PreferenceFragments each making one more object: this preference with the fragment on top, named `{name}.{variant}` (`windows.10.virtio`); not inherited',
      ),
    vars: textVariablesSchema.optional(),
    labels: authoredLabelsSchema.optional(),
    annotations: authoredAnnotationsSchema.optional(),
    spec: preferenceSpecSchema.optional(),
    deprecated: deprecationSchema.optional(),
  })
  .describe('A guest OS preference');

export const CATALOG_KINDS = {
  Catalog: catalogDocSchema,
  SizeLadder: sizeLadderDocSchema,
  Family: familyDocSchema,
  InstancetypeFragment: instancetypeFragmentDocSchema,
  PreferenceFragment: preferenceFragmentDocSchema,
  Preference: preferenceDocSchema,
} as const;

export type CatalogKind = keyof typeof CATALOG_KINDS;
export type WrittenCatalog = z.infer<typeof catalogDocSchema>;
export type WrittenSizeLadder = z.infer<typeof sizeLadderDocSchema>;
export type WrittenFamily = z.infer<typeof familyDocSchema>;
export type WrittenVariant = z.infer<typeof variantSchema>;
export type WrittenInstancetypeFragment = z.infer<typeof instancetypeFragmentDocSchema>;
export type WrittenPreferenceFragment = z.infer<typeof preferenceFragmentDocSchema>;
export type WrittenPreference = z.infer<typeof preferenceDocSchema>;

import { z } from 'zod';
import { GENERATOR_API_VERSION, GENERATOR_KIND, SCOPES } from './names';
export { bundleSettings, GENERATOR_API_VERSION, GENERATOR_KIND, SCOPES, type Scope } from './names';
import { architectureSchema, authoredAnnotationsSchema, authoredLabelsSchema, stringMapSchema } from './common';

/** The label upstream common-instancetypes stamps on every object of a release bundle. */

const DNS_LABEL = '[a-z0-9]([a-z0-9-]*[a-z0-9])?';
const namespaceSchema = z
  .string()
  .max(63)
  .regex(new RegExp(`^${DNS_LABEL}$`), 'a namespace is a DNS label: lowercase letters, digits and `-`, like `tenant-a`');

const affixSchema = z
  .string()
  .min(1)
  .max(63)
  .regex(/^[a-z0-9.-]+$/, 'a name prefix or suffix is lowercase letters, digits, `-` and `.`');

/** Label keys are `[prefix/]name`; the value of this option is a key, not a value. */
const labelKeySchema = z
  .string()
  .regex(/^([a-z0-9]([a-z0-9.-]*[a-z0-9])?\/)?[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$/, 'a label key like `example.com/catalog-version`');

/** `*` matches any run of characters; everything else is literal. */
const patternSchema = z
  .string()
  .min(1)
  .regex(/^[a-z0-9.*-]+$/, 'a name or a pattern with `*`, like `windows.*`');

const selectionSchema = z
  .strictObject({
    families: z.array(patternSchema).optional().describe('Family names (`m`) or family and version (`m1`)'),
    sizes: z.array(patternSchema).optional().describe('Size names (`large`) or sizes with their variant (`large1gi`)'),
    preferences: z
      .array(patternSchema)
      .optional()
      .describe('Preference names as declared (`fedora`, every architecture), with architecture (`fedora.arm64`) or as emitted (`os.fedora`)'),
    architectures: z.array(architectureSchema).optional().describe('Architectures of preferences; architecture-neutral preferences are always kept'),
  })
  .describe('Lists of names; `*` is a wildcard');

export type WrittenSelection = z.infer<typeof selectionSchema>;

const bundleSchema = z
  .strictObject({
    versionLabel: labelKeySchema
      .optional()
      .describe(
        'Label stamped with the release version on every object of a bundle; default itgen.dev/<generator>-version (upstream: instancetype.kubevirt.io/common-instancetypes-version)',
      ),
    filePrefix: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and `-`')
      .optional()
      .describe(
        'Bundle file names start with this; default the generator name (`common` gives upstream names like common-instancetypes-all-bundle-v1.0.0.yaml)',
      ),
  })
  .describe('Release bundles (`itgen bundle`)');

/** A directory path: control characters (NUL above all) are never part of a real one. */
const projectPath = z
  .string()
  .min(1)
  .regex(/^[^\u0000-\u001f\u007f]*$/, { message: 'a path may not hold control characters (NUL, newline, escape...)' });

/** One rule, so that a bad entry gets one diagnostic (a class, family or name: no pattern). */
const profileEntrySchema = z.array(z.string().regex(/^[a-z0-9.-]+$/, 'a class, family or name, without `*`')).optional();

const policySchema = z
  .strictObject({
    deprecated: z
      .enum(['warn', 'deny'])
      .default('warn')
      .describe('What a VM naming a deprecated instance type or preference gets: a warning naming the replacement, or a denial'),
    requireInstancetype: z.boolean().default(false).describe('Deny a VM that names no instance type (VMs may still declare their own devices)'),
    requirePreference: z.boolean().default(false).describe('Deny a VM that names no preference'),
    otherNames: z
      .array(z.string().regex(/^[a-z0-9][a-z0-9.-]*\*?$/, 'a name, or a prefix ending in `*` like `u1.*`'))
      .optional()
      .describe(
        "Cluster-wide instance types and preferences something else deploys (virt-operator's common-instancetypes, another base): names, or prefixes ending in `*` (`u1.*`); VMs may name them",
      ),
    profiles: z
      .record(
        z
          .string()
          .regex(new RegExp(`^${DNS_LABEL}$`), 'a profile name is a DNS label, like `gold`')
          .max(50),
        z.strictObject({
          classes: profileEntrySchema.describe('Instance type classes (`general`, `compute`)'),
          families: profileEntrySchema.describe('Families (`u1`, `cx1`)'),
          names: profileEntrySchema.describe('Instance type names'),
        }),
      )
      .optional()
      .describe(
        'Allow-lists: VMs in a namespace labelled itgen.dev/instancetype-profile=<profile> may name only these instance types (a ConfigMap per profile, in paramsNamespace, that cluster administrators may edit)',
      ),
    kubevirtNamespace: namespaceSchema
      .default('kubevirt')
      .describe("KubeVirt's namespace: its service accounts there are never judged (openshift-cnv on OpenShift)"),
    paramsNamespace: namespaceSchema.optional().describe("Where the profiles' ConfigMaps live; default kubevirtNamespace"),
  })
  .describe(
    'Kubernetes ValidatingAdmissionPolicies (1.30+) generated from this catalog, written to <output>/policy/ as a kustomize base of its own for cluster administrators to apply',
  );

export type WrittenPolicy = z.infer<typeof policySchema>;

const templatesSchema = z
  .strictObject({
    preferences: z
      .array(patternSchema)
      .min(1)
      .describe('The preferences that get a VirtualMachineTemplate, as emitted or declared (`windows.*`, `rhel.9`); one template each'),
    families: z
      .array(patternSchema)
      .optional()
      .describe("Instance type families the INSTANCETYPE parameter's default is chosen from (default: every family, least specialised first)"),
    namespace: namespaceSchema
      .optional()
      .describe("The templates' namespace (VirtualMachineTemplates are namespaced); default the generator's namespace, else `default`"),
    dataSourceNamespace: namespaceSchema
      .default('kubevirt-os-images')
      .describe("DATA_SOURCE_NAMESPACE's default: where the boot images' DataSources are (openshift-virtualization-os-images on OpenShift)"),
    storage: z
      .string()
      .regex(/^[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti)$/, 'a size like `30Gi`')
      .default('30Gi')
      .describe("The root disk's size, cloned from the DataSource"),
  })
  .describe(
    'VirtualMachineTemplates (template.kubevirt.io) shipped with the catalog, written to <output>/templates/ as a kustomize base of its own: one per preference, its instance type a parameter whose default KubeVirt admits with the preference',
  );

export type WrittenTemplates = z.infer<typeof templatesSchema>;

const releaseSchema = z.string().regex(/^v?(0|[1-9]\d*)\.(0|[1-9]\d*)(\.(0|[1-9]\d*))?$/, 'a KubeVirt release like `v1.9`');

export const generatorSchema = z
  .strictObject({
    $schema: z.string().optional(),
    apiVersion: z.literal(GENERATOR_API_VERSION).optional().describe('Makes the file a KRM function config (kpt, kustomize)'),
    kind: z.literal(GENERATOR_KIND).optional(),
    metadata: z
      .strictObject({
        name: z.string().min(1).describe('Generator name; must equal the file name without `.yaml`'),
        // kpt and kustomize add their own annotations to a function config; accepted and ignored.
        annotations: stringMapSchema.optional(),
        labels: stringMapSchema.optional(),
      })
      .optional(),
    catalog: projectPath.describe('Catalog directory, relative to this file'),
    output: projectPath.describe('Output directory of the kustomize base, relative to this file'),
    vendor: z
      .string()
      .regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/, 'a vendor is a lowercase domain-like name, like `example.com`')
      .optional()
      .describe(
        "Value of the instancetype.kubevirt.io/vendor label; without it the objects carry none (they never pass for KubeVirt's own kubevirt.io unless this says so)",
      ),
    scopes: z.array(z.enum(SCOPES)).min(1).default(['cluster', 'namespaced']).describe('Which kinds to emit'),
    namePrefix: affixSchema.optional().describe('Prepended to every object name (`acme-` gives `acme-u1.large`)'),
    nameSuffix: affixSchema.optional().describe('Appended to every object name'),
    include: selectionSchema.optional().describe('Emit only what these lists name (each list given narrows its dimension)'),
    exclude: selectionSchema.optional().describe('Never emit what these lists name; applied after `include`'),
    namespace: namespaceSchema.optional().describe('metadata.namespace of namespaced objects; cluster-scoped objects are never touched'),
    targetKubevirt: z
      .union([
        releaseSchema,
        z.strictObject({
          min: releaseSchema.describe('The oldest KubeVirt release the output must work on'),
          max: releaseSchema.optional().describe('The newest release checked (default: the newest itgen models)'),
        }),
      ])
      .default('v1.9')
      .describe(
        'The KubeVirt releases the output must work on: a release (the oldest; every release itgen models from it on is checked) or {min, max}; a finding that holds for some of them names them',
      ),
    labels: authoredLabelsSchema.optional().describe('Extra labels on every object'),
    annotations: authoredAnnotationsSchema.optional().describe('Extra annotations on every object (Argo CD sync options, for example)'),
    bundle: bundleSchema.prefault({}),
    allowEmpty: z
      .array(z.enum(['instancetypes', 'preferences']))
      .optional()
      .describe(
        'Kinds this generator may knowingly emit none of. Without it an empty base is an error: with pruning, syncing it deletes every object of that kind from the clusters',
      ),
    kubevirt: projectPath
      .optional()
      .describe(
        "The KubeVirt CR of the clusters this catalog ships to (`kubectl get kubevirt -n kubevirt kubevirt -o yaml`), relative to this file: the README's launcher table, `itgen facts` and the check that every instance type starts use its configuration",
      ),
    policy: policySchema.optional(),
    templates: templatesSchema.optional(),
    suppressWarnings: z
      .array(z.string().regex(/^IT\d{4}$/, 'a diagnostic code like `IT5007`'))
      .optional()
      .describe('Warning codes this generator accepts knowingly; errors cannot be suppressed'),
  })
  .describe('What to generate: which catalog, where to, for whom');

export type WrittenGenerator = z.infer<typeof generatorSchema>;

/** JSON Schema of generator files, for editors. */
export function generatorJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(generatorSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...schema, title: 'itgen generator', $id: 'https://itgen.dev/schema/generator.json' };
}

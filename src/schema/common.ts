import { z } from 'zod';
import { isQuantity } from '../quantity';

import { ARCHITECTURES, DNS_SUBDOMAIN, type Architecture } from './manifest';

export { ARCHITECTURES, type Architecture };
export const architectureSchema = z.enum(ARCHITECTURES).describe('CPU architecture as KubeVirt names it');

export const DNS_SUBDOMAIN_RE = DNS_SUBDOMAIN;

export const familyNameSchema = z
  .string()
  .max(32)
  .regex(/^[a-z][a-z0-9]*$/, 'a family name is lowercase letters and digits, starting with a letter (like `cx`)')
  .describe('Family (series) name, the first part of instance type names');

export const sizeNameSchema = z
  .string()
  .max(32)
  .regex(/^[a-z0-9]+$/, 'a size name is lowercase letters and digits (like `xlarge` or `2xlarge`)')
  .describe('Size name');

export const objectNameSchema = z
  .string()
  .max(200)
  .regex(DNS_SUBDOMAIN_RE, 'a name is lowercase letters, digits, `-` and `.` separating parts (a DNS subdomain), like `rhel.9`')
  .describe('Name of a preference or fragment; becomes part of a Kubernetes object name');

/** The params of every quantity check's issue, by which diagnostics recognise it (schema/check.ts). */
export const QUANTITY_PARAMS = { format: 'quantity' } as const;

export const quantityStringSchema = z
  .union([z.string(), z.number()])
  .transform((v) => String(v))
  .refine(isQuantity, { message: 'not a Kubernetes quantity (like `4Gi` or `512Mi`)', params: QUANTITY_PARAMS })
  .describe('A Kubernetes quantity such as `4Gi`');

export const stringMapSchema = z.record(z.string(), z.string());

/**
 * Free text shown to people (display names, descriptions): no control characters besides tab and
 * newline, and no bidirectional overrides, which can make a name read differently than it is.
 */
const SAFE_TEXT = /^[^\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]*$/;
export function freeText(): z.ZodString {
  return z.string().regex(SAFE_TEXT, 'contains control or bidirectional-override characters');
}

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

function authoredMap(reserved: ReadonlySet<string>, what: string): z.ZodType<Record<string, string>> {
  return stringMapSchema.superRefine((map, ctx) => {
    for (const key of Object.keys(map)) {
      if (reserved.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `${what} \`${key}\` is derived by itgen (from the spec, the family or the preference); it cannot be written by hand`,
        });
      }
    }
  });
}

/** Labels a catalog or generator adds: anything but the derived ones. */
export const authoredLabelsSchema = authoredMap(DERIVED_LABELS, 'label');
/** Annotations a catalog or generator adds: anything but the derived ones. */
export const authoredAnnotationsSchema = authoredMap(DERIVED_ANNOTATIONS, 'annotation');

export const versionSchema = z
  .union([z.string().regex(/^[a-z0-9]+$/, 'a version is lowercase letters and digits'), z.number().int().nonnegative()])
  .transform((v) => String(v))
  .describe('Family version; appears in names through `{version}` and in the version label');

export const positiveIntSchema = z.number().int().min(1).max(4294967295);

/** A release version as `itgen release --version` takes it: v1.2.0, v2.0.0-rc.1. */
export const RELEASE_VERSION = /^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

export const deprecationSchema = z
  .strictObject({
    replacement: z.string().min(1).optional().describe('What users should use instead'),
    since: z.string().regex(RELEASE_VERSION, 'a release version like `v1.2.0`').optional().describe('Release in which it was deprecated, like v1.2.0'),
  })
  .describe('Mark as deprecated: objects carry the deprecated label and docs name the replacement');

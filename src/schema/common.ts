import { z } from 'zod';
import { DERIVED_ANNOTATIONS, DERIVED_LABELS, HOOKS, tagged } from './hooks';

import { ARCHITECTURES, type Architecture } from './kubevirt-api';
import { DNS_SUBDOMAIN_RE, RELEASE_VERSION } from './names';

export { ARCHITECTURES, type Architecture };
export const architectureSchema = z.enum(ARCHITECTURES).describe('CPU architecture as KubeVirt names it');

export { DNS_SUBDOMAIN_RE, RELEASE_VERSION } from './names';

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
  .transform(HOOKS.text)
  .refine(HOOKS.isQuantity, { message: 'not a Kubernetes quantity (like `4Gi` or `512Mi`)', params: QUANTITY_PARAMS })
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

export { DERIVED_ANNOTATIONS, DERIVED_LABELS };

/** Labels a catalog or generator adds: anything but the derived ones. */
export const authoredLabelsSchema = tagged(stringMapSchema.superRefine(HOOKS.authoredLabels), 'authoredLabels');
/** Annotations a catalog or generator adds: anything but the derived ones. */
export const authoredAnnotationsSchema = tagged(stringMapSchema.superRefine(HOOKS.authoredAnnotations), 'authoredAnnotations');

export const versionSchema = z
  .union([z.string().regex(/^[a-z0-9]+$/, 'a version is lowercase letters and digits'), z.number().int().nonnegative()])
  .transform(HOOKS.text)
  .describe('Family version; appears in names through `{version}` and in the version label');

export const positiveIntSchema = z.number().int().min(1).max(4294967295);

export const deprecationSchema = z
  .strictObject({
    replacement: z.string().min(1).optional().describe('What users should use instead'),
    since: z.string().regex(RELEASE_VERSION, 'a release version like `v1.2.0`').optional().describe('Release in which it was deprecated, like v1.2.0'),
  })
  .describe('Mark as deprecated: objects carry the deprecated label and docs name the replacement');

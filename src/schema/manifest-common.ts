/**
 * The primitives of KubeVirt's API model that instance types and preferences share: a release, a
 * quantity, a string map, an empty object, a feature's state.
 */
import { z } from 'zod';
import { QUANTITY_PATTERN, RELEASE_PATTERN } from './kubevirt-api';

/** A KubeVirt release written as `vMAJOR.MINOR` or `vMAJOR.MINOR.PATCH`; a missing patch counts as 0. */
export const kubevirtReleaseSchema = z
  .string()
  .regex(RELEASE_PATTERN, 'expected a KubeVirt release such as v1.9 or v1.9.0')
  .describe('KubeVirt release, vMAJOR.MINOR or vMAJOR.MINOR.PATCH');

/** Kubernetes `resource.Quantity`: a string such as `4Gi`, `512M`, `1.5Gi`, or a plain number of bytes. */
export const quantitySchema = z
  .union([z.string().regex(QUANTITY_PATTERN, 'expected a Kubernetes quantity such as 4Gi or 512Mi'), z.number().nonnegative()])
  .describe('Kubernetes quantity, e.g. 4Gi');

export type Quantity = z.infer<typeof quantitySchema>;

export const stringMapSchema = z.record(z.string(), z.string());

/** Go `struct{}`: only `{}` is meaningful, so any key is a typo. */
export function emptyObject(description: string): z.ZodObject<Record<string, never>, z.core.$strict> {
  return z.strictObject({}).describe(description);
}

/** KubeVirt `FeatureState`: `{}` means enabled. */
export function featureState(description: string): z.ZodOptional<z.ZodObject<{ enabled: z.ZodOptional<z.ZodBoolean> }, z.core.$strict>> {
  return z
    .strictObject({ enabled: z.boolean().describe('enable (true) or disable (false) the feature').optional() })
    .describe(description)
    .optional();
}

import { z } from 'zod';
import { stringMapSchema } from './common';

export const SCOPES = ['cluster', 'namespaced'] as const;
export type Scope = (typeof SCOPES)[number];

export const generatorSchema = z
  .strictObject({
    $schema: z.string().optional(),
    catalog: z.string().min(1).describe('Catalog directory, relative to this file'),
    output: z.string().min(1).describe('Output directory of the kustomize base, relative to this file'),
    vendor: z
      .string()
      .regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/, 'a vendor is a lowercase domain-like name, like `example.com`')
      .default('kubevirt.io')
      .describe('Value of the instancetype.kubevirt.io/vendor label'),
    scopes: z.array(z.enum(SCOPES)).min(1).default(['cluster', 'namespaced']).describe('Which kinds to emit'),
    targetKubevirt: z
      .string()
      .regex(/^v?\d+\.\d+(\.\d+)?$/, 'a KubeVirt release like `v1.9`')
      .default('v1.9')
      .describe('Newest KubeVirt release the output must work on; newer fields are errors'),
    labels: stringMapSchema.optional().describe('Extra labels on every object'),
    annotations: stringMapSchema.optional().describe('Extra annotations on every object'),
    suppressWarnings: z
      .array(z.string().regex(/^IT\d{4}$/, 'a diagnostic code like `IT5007`'))
      .optional()
      .describe('Warning codes this generator accepts knowingly; errors cannot be suppressed'),
  })
  .describe('What to generate: which catalog, where to, for whom');

export type WrittenGenerator = z.infer<typeof generatorSchema>;

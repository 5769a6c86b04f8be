/**
 * The device and security options of KubeVirt's API model that instance types and preferences
 * share: virtual GPU options and launch security (SEV, SNP, TDX, Secure Execution).
 */
import { z } from 'zod';
import { emptyObject, featureState } from './manifest-common';

// ---------------------------------------------------------------------------------------------------------------
// Shared sub-objects

export const virtualGpuOptionsSchema = z.strictObject({
  display: z
    .strictObject({
      enabled: z.boolean().describe('attach a display adapter backed by the vGPU').optional(),
      ramFB: featureState('boot framebuffer until the guest loads a GPU driver (default true)'),
    })
    .describe('vGPU display options')
    .optional(),
});

export const launchSecuritySchema = z.strictObject({
  sev: z
    .strictObject({
      attestation: emptyObject('run the SEV attestation process').optional(),
      dhCert: z.string().describe("base64 guest owner's Diffie-Hellman key").optional(),
      policy: z
        .strictObject({ encryptedState: z.boolean().describe('require SEV-ES').optional() })
        .describe('SEV guest policy flags')
        .optional(),
      session: z.string().describe('base64 session blob').optional(),
    })
    .describe('AMD Secure Encrypted Virtualization')
    .optional(),
  snp: emptyObject('AMD SEV-SNP').optional(),
  tdx: emptyObject('Intel Trust Domain Extensions').optional(),
});

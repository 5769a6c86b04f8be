import { z } from 'zod';
import { LOCK_KINDS, type LockKind } from './kubevirt-api';
import { GENERATOR_API_VERSION, LOCK_KIND, RELEASE_VERSION } from './names';
export { LOCK_KIND };

/** `v1.2.3`, optionally with a pre-release (`v1.2.0-rc.1`). */
export const releaseVersionSchema = z.string().regex(RELEASE_VERSION, 'a release version like `v1.2.0`').describe('Release version');

export const digestSchema = z
  .string()
  .regex(/^sha256:[0-9a-f]{64}$/, 'a digest like `sha256:` and 64 hex digits')
  .describe('sha256 of the canonical JSON of the object spec');

export { LOCK_KINDS, type LockKind };
const kindSchema = z.enum(LOCK_KINDS);

export const lockedObjectSchema = z.strictObject({
  kind: kindSchema,
  name: z.string().min(1),
  digest: digestSchema.describe('Spec digest as last published'),
  released: releaseVersionSchema.describe('First release that published it'),
  deprecated: releaseVersionSchema.optional().describe('First release that published it deprecated'),
  replacement: z
    .string()
    .min(1)
    .optional()
    .describe('What its deprecation names instead (as published): VMs naming it once it is removed are told to use this'),
  removed: releaseVersionSchema.optional().describe('First release that no longer published it'),
  removedReason: z.string().min(1).optional().describe('Why it was removed without a deprecation release (the reviewed override)'),
  changed: z
    .array(
      z.strictObject({
        release: releaseVersionSchema,
        from: digestSchema,
        reason: z.string().min(1),
      }),
    )
    .optional()
    .describe('Reviewed in-place changes (overrides consumed by a release), oldest first'),
});
export type LockedObject = z.infer<typeof lockedObjectSchema>;

export const OVERRIDE_ALLOWS = ['change', 'removal', 'reuse'] as const;
export type OverrideAllow = (typeof OVERRIDE_ALLOWS)[number];

export const lockOverrideSchema = z
  .strictObject({
    name: z.string().min(1),
    kind: kindSchema.optional().describe('Default: every kind of that name'),
    allow: z.enum(OVERRIDE_ALLOWS).describe('change: a published spec changes; removal: removed without deprecation; reuse: a removed name returns'),
    digest: digestSchema.optional().describe('For change and reuse: the new spec digest that was reviewed (printed by the error)'),
    reason: z.string().min(1).describe('Why, and who reviewed it; kept in the lock by `itgen release`'),
  })
  .describe('An emergency exception, reviewed like any other change of the lock');
export type LockOverride = z.infer<typeof lockOverrideSchema>;

export const lockSchema = z
  .strictObject({
    apiVersion: z.literal(GENERATOR_API_VERSION),
    kind: z.literal(LOCK_KIND),
    metadata: z.strictObject({ name: z.string().min(1).describe('The generator this lock belongs to') }),
    releases: z.array(releaseVersionSchema).describe('Releases so far, oldest first'),
    objects: z.array(lockedObjectSchema).describe('Every object ever published, by kind then name'),
    overrides: z.array(lockOverrideSchema).optional().describe('Exceptions for the next release'),
    imports: z
      .array(z.strictObject({ release: releaseVersionSchema, package: z.string().min(1), version: z.string().min(1) }))
      .optional()
      .describe('The npm packages (and their versions) each release imported catalogs from, oldest first'),
  })
  .describe('Objects a generator has published; written by `itgen release`');
export type ReleaseLock = z.infer<typeof lockSchema>;

/** JSON Schema of release locks, for editors. */
export function lockJsonSchema(): Record<string, unknown> {
  return {
    ...(z.toJSONSchema(lockSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>),
    title: 'itgen release lock',
    $id: 'https://itgen.dev/schema/lock.json',
  };
}

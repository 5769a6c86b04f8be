/**
 * The names and small facts of itgen's own file formats (generators, locks, catalogs) that the
 * stages use, without their zod schemas (generator.ts, lock.ts, common.ts and catalog.ts re-export
 * them): a sound project is compiled without loading zod.
 */
import { DNS_SUBDOMAIN } from './kubevirt-api';

export const SCOPES = ['cluster', 'namespaced'] as const;
export type Scope = (typeof SCOPES)[number];

/** apiVersion and kind of a generator file, so that it doubles as a KRM function config. */
export const GENERATOR_API_VERSION = 'itgen.dev/v1alpha1';
export const GENERATOR_KIND = 'Generator';

export const LOCK_KIND = 'ReleaseLock';

/** A release version as `itgen release --version` takes it: v1.2.0, v2.0.0-rc.1. */
export const RELEASE_VERSION = /^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

export const DNS_SUBDOMAIN_RE = DNS_SUBDOMAIN;

/** The kinds of catalog documents, in the order catalog.ts declares them. */
export const CATALOG_KIND_NAMES = ['Catalog', 'SizeLadder', 'Family', 'InstancetypeFragment', 'PreferenceFragment', 'Preference'] as const;

/**
 * The bundle names a generator uses: its own, derived from its name, unless it says otherwise, so
 * that a vendor's bundles never carry common-instancetypes' file names or version label.
 */
export function bundleSettings(
  generatorName: string,
  config: { readonly bundle: { readonly versionLabel?: string | undefined; readonly filePrefix?: string | undefined } },
): { versionLabel: string; filePrefix: string } {
  return {
    versionLabel: config.bundle.versionLabel ?? `itgen.dev/${generatorName.slice(0, 55)}-version`,
    filePrefix: config.bundle.filePrefix ?? generatorName,
  };
}

import type * as Crypto from 'node:crypto';
import type { Json } from './json';

/**
 * crypto is loaded on the first digest (release locks, bundles), not with the CLI: the startup
 * snapshot would otherwise carry it into every run, generate and validate included.
 */
let crypto: typeof Crypto | undefined;
function createHash(algorithm: string): Crypto.Hash {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  crypto ??= require('node:crypto') as typeof Crypto;
  return crypto.createHash(algorithm);
}

/** JSON with object keys sorted at every level: the same spec always gives the same text. */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k]!)}`).join(',')}}`;
}

/**
 * What the release lock pins: the spec only. Labels and annotations may change between releases
 * (vendor, deprecation, version label); the spec is what a VM's ControllerRevision snapshots.
 */
export function specDigest(spec: Json): string {
  return `sha256:${createHash('sha256').update(canonicalJson(spec)).digest('hex')}`;
}

export function sha256Hex(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

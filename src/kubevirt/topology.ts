/**
 * KubeVirt's CPU topology arithmetic, in one place for catalogs (src/validate), expand and
 * admission (src/expand) and the matrix: the guest topology an instance type's vCPUs get from a
 * preference (R 2.5.3; preference/apply/cpu.go GetPreferredTopology, GetSpreadOptions and the
 * instancetype apply), and the spread check VM admission makes (R 4.1;
 * instancetype/preference/validation CheckSpreadCPUTopology), in KubeVirt's words.
 */

import { obj, type JsonObject } from '../json';
import { GoPanic } from './panic';

export type Topology = { sockets: number; cores: number; threads: number };

/** The preferred topology, `sockets` when the preference says nothing. */
export function preferredTopology(preference: JsonObject | undefined): string {
  const t = obj(preference?.['cpu'])?.['preferredCPUTopology'];
  return typeof t === 'string' && t !== '' ? t : 'sockets';
}

export function isSpread(topology: string): boolean {
  return topology === 'spread' || topology === 'preferSpread';
}

/** Spreading: ratio 2 unless preferSpreadSocketToCoreRatio (non-zero) or spreadOptions.ratio says otherwise; across SocketsCores. */
export function spreadOptions(preference: JsonObject | undefined): { ratio: number; across: string } {
  let ratio = 2;
  const legacy = preference?.['preferSpreadSocketToCoreRatio'];
  if (typeof legacy === 'number' && legacy !== 0) ratio = legacy;
  const options = obj(obj(preference?.['cpu'])?.['spreadOptions']);
  if (typeof options?.['ratio'] === 'number') ratio = options['ratio'];
  const across = typeof options?.['across'] === 'string' && options['across'] !== '' ? options['across'] : 'SocketsCores';
  return { ratio, across };
}

/** Go's unsigned integer division: truncating (36 vCPUs over 2 threads and 4 cores gives 4 sockets); by zero it panics. */
function div(a: number, b: number): number {
  if (b === 0) throw new GoPanic('integer divide by zero', 'the preference spreads vCPUs with a ratio of 0', 'spec.preference.name');
  return Math.trunc(a / b);
}

/** R 2.5.3: sockets x cores x threads for `vcpus` under the preference's topology. */
export function guestTopology(vcpus: number, preference: JsonObject | undefined): Topology {
  const t: Topology = { sockets: 1, cores: 1, threads: 1 };
  if (vcpus === 1) return t;
  const topology = preferredTopology(preference);
  switch (topology) {
    case 'cores':
    case 'preferCores':
      return { ...t, cores: vcpus };
    case 'sockets':
    case 'preferSockets':
    case 'any':
    case 'preferAny':
      return { ...t, sockets: vcpus };
    case 'threads':
    case 'preferThreads':
      return { ...t, threads: vcpus };
    case 'spread':
    case 'preferSpread': {
      const { ratio, across } = spreadOptions(preference);
      if (across === 'SocketsCores') return { sockets: div(vcpus, ratio), cores: ratio, threads: 1 };
      if (across === 'CoresThreads') return { sockets: 1, cores: div(vcpus, ratio), threads: ratio };
      if (across === 'SocketsCoresThreads') return { sockets: div(div(vcpus, 2), ratio), cores: ratio, threads: 2 };
      return t;
    }
    default:
      return t;
  }
}

/**
 * R 4.1: with a spreading preference, whether `guest` vCPUs divide as the spread needs, or
 * KubeVirt's message when they do not. A ratio of 0 makes Go panic (integer divide by zero).
 */
export function spreadProblem(guest: number, preference: JsonObject | undefined): string | undefined {
  if (!isSpread(preferredTopology(preference))) return undefined;
  const { ratio, across } = spreadOptions(preference);
  if (ratio === 0) throw new GoPanic('integer divide by zero', 'the preference spreads vCPUs with a ratio of 0', 'spec.preference.name');
  switch (across) {
    case 'SocketsCores':
      return guest % ratio === 0
        ? undefined
        : `${guest} vCPUs provided by the instance type are not divisible by the Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio of ${ratio} provided by the preference`;
    case 'CoresThreads':
      return guest % ratio === 0 ? undefined : `${guest} vCPUs provided by the instance type are not divisible by the number of threads per core ${ratio}`;
    case 'SocketsCoresThreads':
      return guest % 2 === 0 && (guest / 2) % ratio === 0
        ? undefined
        : `${guest} vCPUs provided by the instance type are not divisible by the number of threads per core 2 and Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio of ${ratio}`;
    default:
      return undefined;
  }
}

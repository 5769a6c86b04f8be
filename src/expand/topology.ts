/**
 * The guest CPU topology an instancetype's vCPUs get from a preference (R 2.5.3), and the spread
 * options every rule that looks at spreading shares (preference/apply/cpu.go GetPreferredTopology,
 * GetSpreadOptions).
 */
import { GoPanic, obj, type JsonObject } from './model';

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

/**
 * What KubeVirt's webhooks answer about a field (the StatusCause of a refusal): its type, the path it
 * names (`spec.template.spec.domain.cpu.sockets`) and KubeVirt's words; and a reason tag beside them
 * for code that branches on the cause (house style 35). Every KubeVirt check in itgen answers in this
 * one type.
 */
export interface Cause {
  readonly type:
    'FieldValueInvalid' | 'FieldValueDuplicate' | 'FieldValueNotFound' | 'FieldValueNotSupported' | 'FieldValueRequired' | 'Forbidden' | 'InternalError';
  readonly field: string;
  readonly message: string;
  readonly reason?: CauseReason;
}

/**
 * Why, as a tag: `spread`, `conflict`, `requirements` (the instance type provides too little:
 * `requirements-instancetype`), `panic`, and one tag per VMI spec rule.
 */
export type CauseReason =
  | 'spread'
  | 'infer'
  | 'hyperv'
  | 'eviction'
  | 'conflict'
  | 'requirements'
  | 'requirements-instancetype'
  | 'panic'
  | 'emulated-machine'
  | 'cpu-hotplug'
  | 'disk-not-found'
  | 'boot-order'
  | 'host-devices-gate'
  | 'video-autoattach'
  | 'arch-setting'
  | 'arch-unsupported'
  | 'dns-name'
  | 'memory'
  | 'hugepages'
  | 'cpu'
  | 'input-device'
  | 'sound-device'
  | 'start-strategy'
  | 'io-threads'
  | 'dns-policy'
  | 'mandatory'
  | 'network'
  | 'dra'
  | 'metadata'
  | 'cpu-pinning'
  | 'disk'
  | 'volume'
  | 'probe'
  | 'launch-security'
  | 'cluster-feature'
  | 'scheduling';

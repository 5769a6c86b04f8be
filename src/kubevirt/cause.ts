/** What KubeVirt's webhooks answer about a field, and a reason tag code can branch on (house style 35). */
/** A field KubeVirt reports, with the path it names (`spec.template.spec.domain.cpu.sockets`). */
export interface Cause {
  readonly type: 'FieldValueInvalid' | 'FieldValueNotFound' | 'FieldValueNotSupported' | 'FieldValueRequired' | 'InternalError';
  readonly field: string;
  readonly message: string;
  /**
   * Why, as a tag beside KubeVirt's words, for code that branches on the cause (house style 35):
   * `spread`, `conflict`, `requirements` (the instance type provides too little: `requirements-instancetype`).
   */
  readonly reason?: 'spread' | 'conflict' | 'requirements' | 'requirements-instancetype' | 'panic';
}

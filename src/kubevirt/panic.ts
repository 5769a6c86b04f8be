/** Go panics of KubeVirt's code, modelled where the arithmetic below would reach them. */
/**
 * Where KubeVirt's Go code panics on an input (a nil pointer it dereferences, a division by zero):
 * virt-api recovers and answers with an internal error, so the VM is neither expanded nor admitted.
 * Thrown where the Go code would panic and caught by `expand` and `admit`, which report it.
 */
export class GoPanic extends Error {
  constructor(
    /** Go's runtime error text. */
    readonly runtime: string,
    /** What of the input leads there, in words. */
    readonly why: string,
    /** The VM field to point at. */
    readonly field: string,
  ) {
    super(`KubeVirt v1.9 fails on this VM with a Go panic (runtime error: ${runtime}): ${why}`);
  }
}

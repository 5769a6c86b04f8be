// The reference every time target of `npm run bench` is held against: `kubectl kustomize` of
// upstream's common-instancetypes tree (test/reference/common-instancetypes/source), measured in the
// same run. Targets stated in time were set on the machine where it took REFERENCE_KUSTOMIZE_MS
// (docs/11-performance.md); a target is held at target x (kustomize in this run / that).

/** kustomize of upstream's tree on the machine the time targets were stated on. */
export const REFERENCE_KUSTOMIZE_MS = 1288;

/** How much slower (above 1) or faster this run's machine is than the one the targets were stated on. */
export const targetScale = (kustomizeMs) => kustomizeMs / REFERENCE_KUSTOMIZE_MS;

/**
 * What KubeVirt's VMI validation refuses when a VM starts, of what an instance type and a
 * preference decide alone: threads with dedicated CPUs and hugepage sizes of the architecture.
 * KubeVirt's words; used by the catalog rules (IT4008, IT4016) and the matrix.
 */

/**
 * Hugepage sizes the Linux kernel offers per architecture (Documentation/admin-guide/mm/hugetlbpage,
 * arch/arm64/hugetlbpage; s390x has 1 MiB segment pages). KubeVirt's own documentation and
 * validation speak of 2Mi and 1Gi, the x86_64 sizes.
 */
/** The architectures KubeVirt builds for (pkg/virt-api/webhooks: amd64, arm64, s390x), as its Go constants spell them; schema/kubevirt-api.ts ARCHITECTURES is the same list. */
type Architecture = 'amd64' | 'arm64' | 's390x';

export const HUGEPAGE_SIZES_BY_ARCHITECTURE: Readonly<Record<Architecture, readonly string[]>> = {
  amd64: ['2Mi', '1Gi'],
  arm64: ['64Ki', '2Mi', '32Mi', '1Gi'],
  s390x: ['1Mi'],
};

/** Threads per core a VM with dedicated CPUs may have (virt-api's VMI validation), or KubeVirt's message. */
export function dedicatedThreadsProblem(threads: number, architecture: Architecture | string): string | undefined {
  if (architecture === 'arm64' && threads > 1)
    return `threads must not be greater than 1 at spec.template.spec.domain.cpu.threads (got ${threads}) when spec.template.spec.architecture is arm64`;
  if (threads > 2)
    return `Not more than two threads must be provided at spec.template.spec.domain.cpu.threads (got ${threads}) when DedicatedCPUPlacement is true`;
  return undefined;
}

/** A hugepage size the architecture does not have, in words. */
export function hugepageProblem(size: string, architecture: Architecture): string | undefined {
  const sizes = HUGEPAGE_SIZES_BY_ARCHITECTURE[architecture];
  return sizes.includes(size) ? undefined : `page size '${size}' is not valid on ${architecture}; valid sizes are ${sizes.join(' and ')}`;
}

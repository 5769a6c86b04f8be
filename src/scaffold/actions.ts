/**
 * The GitHub Actions the workflows itgen writes run, each pinned by commit (a tag can be moved; the
 * Pages job holds pages: write and id-token: write), with the release it is. One place for every pin.
 */
export const ACTIONS = {
  checkout: 'actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683  # v4.2.2',
  setupNode: 'actions/setup-node@49933ea5288caeca8642d1e84afbd3f7d6820020  # v4.4.0',
  uploadArtifact: 'actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02  # v4.6.2',
  downloadArtifact: 'actions/download-artifact@fa0a91b85d4f404e444e00e005971372dc801d16  # v4.1.8',
  githubScript: 'actions/github-script@60a0d83039c74a4aee543508d2ffcb1c3799cdea  # v7.0.1',
  uploadPagesArtifact: 'actions/upload-pages-artifact@56afc609e74202658d3ffba0e8f6dda462b719fa  # v3.0.1',
  deployPages: 'actions/deploy-pages@d6db90164ac5ed86f2b6aed7e0febac5b3c0c03e  # v4.0.5',
} as const;

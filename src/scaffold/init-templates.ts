import { ACTIONS } from './actions';

import { isMap, isSeq, parseDocument } from 'yaml';

/** GitHub Pages: the explorer of the catalog at each release tag (and by hand), built from the tag. */
export const GITHUB_PAGES = `# The catalog explorer (itgen site) on GitHub Pages, for every release tag vX.Y.Z and by hand:
# a self-contained page to filter, sort and compare the instance types. Settings > Pages > Source:
# GitHub Actions. It builds from the tag's own files, with a token that can write only Pages.
name: itgen-pages
on:
  push:
    tags: ['v*']
  workflow_dispatch:
permissions:
  contents: read
concurrency:
  group: itgen-pages
  cancel-in-progress: false
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: ${ACTIONS.checkout}
        with:
          persist-credentials: false
      - uses: ${ACTIONS.setupNode}
        with:
          node-version: 24
      - run: npm ci
      - run: node_modules/.bin/itgen site --out _site
      - uses: ${ACTIONS.uploadPagesArtifact}
        with:
          path: _site
  deploy:
    needs: build
    runs-on: ubuntu-latest
    permissions:
      pages: write
      id-token: write
    environment:
      name: github-pages
      url: \${{ steps.deployment.outputs.page_url }}
    steps:
      - id: deployment
        uses: ${ACTIONS.deployPages}
`;

/** GitLab Pages: the explorer at each release tag; GitLab publishes the job named pages's public/. */
export const GITLAB_PAGES = (stage: string): string => `
# The catalog explorer (itgen site) on GitLab Pages, for every release tag vX.Y.Z: a self-contained
# page to filter, sort and compare the instance types.
pages:
  stage: ${stage}
  image: node:24
  rules:
    - if: $CI_COMMIT_TAG =~ /^v[0-9]/
  script:
    - npm ci
    - node_modules/.bin/itgen site --out public
  artifacts:
    paths: [public]
`;

/** Lines a repository with itgen needs ignored: dependencies and the bundle directory of the README. */
export const IGNORED = ['node_modules/', '_build/'];

export const GITLAB_CI = (stage: string): string => `# itgen on every merge request and on the default branch: the catalog validates, every VM under
# vms/ is judged against it, and the committed base is what it generates. Included from
# .gitlab-ci.yml (include: [{local: ci/itgen.gitlab-ci.yml}]).
itgen:
  stage: ${stage}
  image: node:24
  rules:
    - if: $CI_PIPELINE_SOURCE == "schedule"
      when: never
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
  script:
    - npm ci
    # The catalogs, and every VM kept under vms/ judged against them as KubeVirt would on apply;
    # in a merge request the release lock is held to the one its target branch published.
    - |
      vms=""; if [ -d vms ]; then vms="--vms vms"; fi
      base=""
      if [ -n "$CI_MERGE_REQUEST_TARGET_BRANCH_NAME" ]; then
        git fetch -q origin "$CI_MERGE_REQUEST_TARGET_BRANCH_NAME"
        base="--base origin/$CI_MERGE_REQUEST_TARGET_BRANCH_NAME"
      fi
      # The findings as a Code Quality report (shown on the merge request), and readable in the log.
      if ! node_modules/.bin/itgen validate --format gitlab $base $vms > gl-code-quality-report.json; then
        node_modules/.bin/itgen validate $base $vms
        exit 1
      fi
    - node_modules/.bin/itgen check
  after_script:
    # What the merge request changes (objects, and the VMs under vms/ that use them), for review.
    - |
      if [ -n "$CI_MERGE_REQUEST_TARGET_BRANCH_NAME" ]; then
        git fetch -q origin "$CI_MERGE_REQUEST_TARGET_BRANCH_NAME"
        vms=""; if [ -d vms ]; then vms="--vms vms"; fi
        target="origin/$CI_MERGE_REQUEST_TARGET_BRANCH_NAME"
        node_modules/.bin/itgen diff -o markdown --against "$target" $vms > itgen-review.md || true
      fi
  artifacts:
    when: always
    expose_as: itgen review
    paths: [itgen-review.md]
    reports:
      codequality: gl-code-quality-report.json

# The review as a note on each open merge request. A merge request's pipeline runs the merge
# request's own CI files, so no job of it may hold a token that writes notes; this job runs only in
# a pipeline schedule of the default branch (CI/CD > Schedules, with the variable
# ITGEN_POST_REVIEW=1), its token ITGEN_GITLAB_TOKEN a protected, masked variable (a project access
# token, role Reporter, scope api). A schedule runs every job whose rules match it: give jobs that
# must not run on it \`if: $CI_PIPELINE_SOURCE == "schedule"\` with \`when: never\`.
itgen-review-note:
  stage: ${stage}
  image: node:24
  rules:
    - if: $CI_PIPELINE_SOURCE == "schedule" && $ITGEN_POST_REVIEW == "1" && $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
  script:
    - node ci/itgen-gitlab-note.mjs
`;

/**
 * The stage the GitLab job runs in: GitLab refuses a job whose stage the pipeline does not declare,
 * and a repository that declares its own `stages:` may have no `test`. The default stages have
 * `test`; else a stage whose name says it checks, else the first one.
 */
export function gitlabStage(gitlabCi: string | undefined): string {
  if (gitlabCi === undefined) return 'test';
  const doc = parseDocument(gitlabCi);
  const stages = isMap(doc.contents) ? doc.contents.get('stages') : undefined;
  const list = isSeq(stages) ? stages.items.map((i) => String((i as { value?: unknown }).value ?? i)).filter((x) => x !== '.pre' && x !== '.post') : [];
  if (list.length === 0) return 'test';
  return list.find((x) => x === 'test') ?? list.find((x) => /^(validate|verify|check|lint|test.*)$/i.test(x)) ?? list[0]!;
}

export const YAMLLINT = `# yamllint for the files itgen adds (generated descriptions run past 80 characters); the
# repository's other YAML is left to whoever lints it: everything else is ignored here.
extends: default
ignore: |
  /*
  !/catalogs/
  !/generators/
  !/output/
  !/ci/
  !/.github/
  !/kustomization.yaml
  node_modules/
rules:
  line-length: {max: 160}
  truthy: {check-keys: false}
  document-start: disable
`;

/** The names yamllint reads its configuration from, in its order: a repository with one keeps it. */
export const YAMLLINT_CONFIGS = ['.yamllint', '.yamllint.yaml', '.yamllint.yml'];

/**
 * The script of the GitLab job that posts each open merge request's itgen review as a note
 * (`ci/itgen-gitlab-note.mjs`, written by `itgen init --ci gitlab`). itgen itself opens no network
 * connection, so this is a standalone Node script, as the GitHub comment job's is a github-script.
 *
 * Why it is safe (docs/design.md, "Reviews"): it runs only in a scheduled pipeline of the default
 * branch, so its code is the default branch's and never a merge request's; the token lives in a
 * protected variable, which GitLab gives no pipeline of an unprotected branch. What it posts is
 * the `itgen-review.md` artifact of each merge request's newest pipeline, which the merge request
 * decides: it is read bounded (256 KiB), made inert for GitLab Flavored Markdown (no HTML but
 * `<details>`, `<summary>` and `<br>`, no mention, reference, link, image, URL or diagram, no line
 * GitLab would run as a quick action) and cut to 60,000 characters.
 */
export const GITLAB_NOTE_SCRIPT = `// Posts the itgen review of each open merge request as a note, updating its own note in place.
// Written by \`itgen init --ci gitlab\`; run by the itgen-review-note job of ci/itgen.gitlab-ci.yml
// only in a scheduled pipeline of the default branch, with ITGEN_GITLAB_TOKEN a protected, masked
// variable (a project access token, role Reporter, scope api). The review comes from a merge
// request's artifact, so it is read bounded and made inert before GitLab renders it.
const api = process.env.CI_API_V4_URL;
const project = encodeURIComponent(process.env.CI_PROJECT_ID || '');
const token = process.env.ITGEN_GITLAB_TOKEN;
const MARKER = '<!-- itgen-review -->';
const JSON_LIMIT = 4 * 1024 * 1024;
const ARTIFACT_LIMIT = 256 * 1024;
const BODY_LIMIT = 60000;

/** A response body, at most \`limit\` bytes of it. */
async function bounded(res, limit) {
  const chunks = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size >= limit) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

async function call(method, path, body, limit = JSON_LIMIT) {
  const res = await fetch(api + path, {
    method,
    headers: { 'PRIVATE-TOKEN': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
    redirect: 'error',
    signal: AbortSignal.timeout(30000),
  });
  if (!res.ok) {
    await res.body?.cancel();
    const e = new Error(method + ' ' + path.split('?')[0] + ': HTTP ' + res.status);
    e.status = res.status;
    throw e;
  }
  const text = await bounded(res, limit);
  return limit === JSON_LIMIT ? JSON.parse(text) : text;
}

/** The review as GitLab will show it, and nothing more: inert text but for the tags the review writes. */
function inert(raw) {
  const zw = '\\u200b';
  return (
    raw
      // No control character but the line break; no bidi override or invisible separator.
      .replace(/[\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]/g, '')
      // HTML is text, but for the few tags the review itself writes.
      .replace(/<(?!\\/?(?:details|summary|br)>)/g, '&lt;')
      // A line starting with / is a quick action (/merge, /approve, /close) run as the token's user.
      .replace(/^([ \\t>]*)\\//gm, '$1' + zw + '/')
      // A fence keeps no info string: no mermaid, plantuml or kroki diagram is drawn.
      .replace(/^([ \\t>]*)(\`{3,}|~{3,})[^\\n]*$/gm, '$1$2')
      // No mention, reference (issue, merge request, snippet, epic, label, milestone), wiki link,
      // link, image or bare URL reaches GitLab's renderer whole.
      .replace(/@(?=[A-Za-z0-9_.-])/g, '@' + zw)
      .replace(/([#!$&])(?=[0-9])/g, '$1' + zw)
      .replace(/([~%])(?=[A-Za-z0-9_"])/g, '$1' + zw)
      .replace(/\\[\\[/g, '[' + zw + '[')
      .replace(/\\]\\(/g, ']' + zw + '(')
      .replace(/\\]\\[/g, ']' + zw + '[')
      .replace(/\\]:/g, ']' + zw + ':')
      .replace(/(https?|ftp|mailto|javascript|data|file|ssh|git):/gi, '$1' + zw + ':')
      .replace(/www\\./gi, 'www' + zw + '.')
  );
}

function noteBody(raw) {
  const text = inert(raw);
  const cut = '\\n\\n(cut: the note is bounded; the full review is the itgen-review artifact of the pipeline)\\n';
  return MARKER + '\\n' + (text.length > BODY_LIMIT ? text.slice(0, BODY_LIMIT - cut.length) + cut : text);
}

async function main() {
  if (!api || !project || !token) {
    console.error('itgen-review-note: CI_API_V4_URL, CI_PROJECT_ID and ITGEN_GITLAB_TOKEN are needed');
    return 1;
  }
  const me = await call('GET', '/user');
  const base = '/projects/' + project;
  const mrs = await call('GET', base + '/merge_requests?state=opened&order_by=updated_at&per_page=50');
  let failed = 0;
  for (const mr of mrs) {
    const iid = mr.iid;
    if (!Number.isInteger(iid)) continue;
    try {
      const pipelines = await call('GET', base + '/merge_requests/' + iid + '/pipelines?per_page=1');
      const pipeline = pipelines[0];
      if (!pipeline || !Number.isInteger(pipeline.id) || pipeline.sha !== mr.sha) {
        console.log('!' + iid + ': no pipeline for its newest commit yet');
        continue;
      }
      const jobs = await call('GET', base + '/pipelines/' + pipeline.id + '/jobs?per_page=100');
      const job = jobs.find((j) => j.name === 'itgen' && (j.status === 'success' || j.status === 'failed') && Number.isInteger(j.id));
      if (!job) {
        console.log('!' + iid + ': its itgen job has not finished');
        continue;
      }
      let raw;
      try {
        raw = await call('GET', base + '/jobs/' + job.id + '/artifacts/itgen-review.md', undefined, ARTIFACT_LIMIT);
      } catch (e) {
        if (e.status !== 404) throw e;
        console.log('!' + iid + ': no review (the change touches no generator)');
        continue;
      }
      const body = noteBody(raw);
      const notes = await call('GET', base + '/merge_requests/' + iid + '/notes?sort=asc&per_page=100');
      const mine = notes.find((n) => n.author && n.author.id === me.id && typeof n.body === 'string' && n.body.startsWith(MARKER));
      if (mine && mine.body === body) console.log('!' + iid + ': note up to date');
      else if (mine) {
        await call('PUT', base + '/merge_requests/' + iid + '/notes/' + mine.id, { body });
        console.log('!' + iid + ': note updated');
      } else {
        await call('POST', base + '/merge_requests/' + iid + '/notes', { body });
        console.log('!' + iid + ': note posted');
      }
    } catch (e) {
      failed++;
      console.error('!' + iid + ': ' + String(e && e.message ? e.message : e).slice(0, 200));
    }
  }
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error('itgen-review-note: ' + String(e && e.message ? e.message : e).slice(0, 200));
    process.exit(1);
  },
);
`;

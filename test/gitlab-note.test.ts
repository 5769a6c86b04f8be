/**
 * The GitLab note job's script (ci/itgen-gitlab-note.mjs, src/scaffold/gitlab-note.ts) against a
 * fake GitLab API: it posts each open merge request's review once, updates its own note in place
 * (never another user's), skips merge requests whose newest pipeline is not done, and keeps a
 * hostile artifact inert: no quick action, mention, reference, link, HTML or diagram survives.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { GITLAB_NOTE_SCRIPT } from '../src/scaffold/gitlab-note';

interface Note {
  id: number;
  body: string;
  author: { id: number };
}

/** A GitLab with project 7: merge requests, their pipelines, jobs, artifacts and notes. */
function fakeGitlab(state: {
  mrs: { iid: number; sha: string }[];
  pipelines: Record<number, { id: number; sha: string }[]>;
  jobs: Record<number, { id: number; name: string; status: string }[]>;
  artifacts: Record<number, string>;
  notes: Record<number, Note[]>;
}) {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const url = (req.url ?? '').split('?')[0]!;
      requests.push(`${req.method} ${url}`);
      const json = (status: number, v: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(v));
      };
      if (req.headers['private-token'] !== 'secret') return json(401, { message: '401 Unauthorized' });
      let m: RegExpMatchArray | null;
      if (url === '/api/v4/user') return json(200, { id: 99, username: 'itgen-bot' });
      if (url === '/api/v4/projects/7/merge_requests') return json(200, state.mrs);
      if ((m = /^\/api\/v4\/projects\/7\/merge_requests\/(\d+)\/pipelines$/.exec(url))) return json(200, state.pipelines[Number(m[1])] ?? []);
      if ((m = /^\/api\/v4\/projects\/7\/pipelines\/(\d+)\/jobs$/.exec(url))) return json(200, state.jobs[Number(m[1])] ?? []);
      if ((m = /^\/api\/v4\/projects\/7\/jobs\/(\d+)\/artifacts\/itgen-review\.md$/.exec(url))) {
        const a = state.artifacts[Number(m[1])];
        if (a === undefined) return json(404, { message: '404 Not found' });
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end(a);
      }
      if ((m = /^\/api\/v4\/projects\/7\/merge_requests\/(\d+)\/notes$/.exec(url))) {
        const notes = (state.notes[Number(m[1])] ??= []);
        if (req.method === 'GET') return json(200, notes);
        const note = { id: 1000 + notes.length, body: (JSON.parse(body) as { body: string }).body, author: { id: 99 } };
        notes.push(note);
        return json(201, note);
      }
      if ((m = /^\/api\/v4\/projects\/7\/merge_requests\/(\d+)\/notes\/(\d+)$/.exec(url)) && req.method === 'PUT') {
        const note = (state.notes[Number(m[1])] ?? []).find((n) => n.id === Number(m![2]));
        if (!note) return json(404, {});
        note.body = (JSON.parse(body) as { body: string }).body;
        return json(200, note);
      }
      return json(404, { message: `fake: ${req.method} ${url}` });
    });
  });
  return { server, requests };
}

function runScript(script: string, port: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], {
      env: { PATH: process.env['PATH'] ?? '', CI_API_V4_URL: `http://127.0.0.1:${port}/api/v4`, CI_PROJECT_ID: '7', ITGEN_GITLAB_TOKEN: 'secret' },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('the GitLab review note (ci/itgen-gitlab-note.mjs)', () => {
  let dir: string;
  let script: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-gitlab-note-'));
    script = path.join(dir, 'itgen-gitlab-note.mjs');
    writeFileSync(script, GITLAB_NOTE_SCRIPT);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function withGitlab<T>(state: Parameters<typeof fakeGitlab>[0], f: (port: number, requests: string[]) => Promise<T>): Promise<T> {
    const { server, requests } = fakeGitlab(state);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      return await f((server.address() as AddressInfo).port, requests);
    } finally {
      await new Promise((r) => server.close(r));
    }
  }

  it('posts the review once, updates its own note in place, leaves other notes alone, and skips unfinished pipelines', async () => {
    const state = {
      mrs: [
        { iid: 1, sha: 'aaa' },
        { iid: 2, sha: 'bbb' },
        { iid: 3, sha: 'ccc' },
      ],
      pipelines: { 1: [{ id: 11, sha: 'aaa' }], 2: [{ id: 12, sha: 'old' }], 3: [{ id: 13, sha: 'ccc' }] },
      jobs: { 11: [{ id: 111, name: 'itgen', status: 'failed' }], 13: [{ id: 113, name: 'itgen', status: 'running' }] },
      artifacts: { 111: '### itgen: what this change does\n\n**acme**: 1 added\n' },
      // Someone quoting the marker is not the bot's note.
      notes: { 1: [{ id: 5, body: '<!-- itgen-review -->\nquoted by a person', author: { id: 4 } }] } as Record<number, Note[]>,
    };
    await withGitlab(state, async (port, requests) => {
      const first = await runScript(script, port);
      expect(first.code).toBe(0);
      expect(first.out).toContain('!1: note posted');
      expect(first.out).toContain('!2: no pipeline for its newest commit yet');
      expect(first.out).toContain('!3: its itgen job has not finished');
      expect(state.notes[1]).toHaveLength(2);
      expect(state.notes[1]![0]!.body).toBe('<!-- itgen-review -->\nquoted by a person');
      expect(state.notes[1]![1]!.body).toBe('<!-- itgen-review -->\n### itgen: what this change does\n\n**acme**: 1 added\n');
      const again = await runScript(script, port);
      expect(again.out).toContain('!1: note up to date');
      state.artifacts[111] = '### itgen: what this change does\n\n**acme**: 2 added\n';
      const changed = await runScript(script, port);
      expect(changed.out).toContain('!1: note updated');
      expect(state.notes[1]).toHaveLength(2);
      expect(state.notes[1]![1]!.body).toContain('2 added');
      expect(requests.filter((r) => r.startsWith('POST'))).toHaveLength(1);
      expect(requests.filter((r) => r.startsWith('PUT'))).toEqual(['PUT /api/v4/projects/7/merge_requests/1/notes/1001']);
    });
  });

  it('makes a hostile artifact inert: no quick action, mention, reference, link, HTML, diagram or control character, and bounded', async () => {
    const hostile = [
      '/merge',
      '  /approve',
      '> /close',
      'ping @maintainer and @all',
      'see !12, #34, $5, &6, ~bug, ~"needs review", %v1.0, [[_TOC_]]',
      '[click](https://evil.example/x) ![img](http://evil.example/i.png) [ref][1]',
      '[1]: https://evil.example',
      'www.evil.example javascript:alert(1)',
      '<img src=x onerror=alert(1)> <a href="https://evil.example">a</a> <details><summary>ok</summary>kept</details>',
      '```mermaid',
      'graph TD; A-->B; click A "https://evil.example"',
      '```',
      'bidi \u202e override \u0007 bell',
      'x'.repeat(300_000),
    ].join('\n');
    const state = {
      mrs: [{ iid: 9, sha: 's' }],
      pipelines: { 9: [{ id: 19, sha: 's' }] },
      jobs: { 19: [{ id: 119, name: 'itgen', status: 'success' }] },
      artifacts: { 119: hostile },
      notes: {} as Record<number, Note[]>,
    };
    await withGitlab(state, async (port) => {
      const r = await runScript(script, port);
      expect(r.code).toBe(0);
      const note = state.notes[9]![0]!.body;
      expect(note.startsWith('<!-- itgen-review -->\n')).toBe(true);
      const body = note.slice('<!-- itgen-review -->\n'.length);
      expect(note.length).toBeLessThanOrEqual(60_000 + '<!-- itgen-review -->\n'.length);
      expect(body).toContain('(cut: the note is bounded');
      // GitLab runs a quick action on a line that starts with `/`.
      for (const line of body.split('\n')) expect(line).not.toMatch(/^[ \t>]*\//);
      expect(body).not.toMatch(/@[A-Za-z]/);
      expect(body).not.toMatch(/[#!$&][0-9]/);
      expect(body).not.toMatch(/[~%][A-Za-z0-9"]/);
      expect(body).not.toMatch(/\[\[|\]\(|\]\[|\]:/);
      expect(body).not.toMatch(/(https?|javascript):|www\./i);
      expect(body).not.toMatch(/<(?!\/?(details|summary|br)>)/);
      expect(body).toContain('<details><summary>ok</summary>kept</details>');
      expect(body).not.toContain('```mermaid');
      expect(body).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
    });
  });

  it('fails (exit 1) when the API refuses the token, saying which call, and without printing the token', async () => {
    await withGitlab({ mrs: [], pipelines: {}, jobs: {}, artifacts: {}, notes: {} }, async (port) => {
      const child = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const c = spawn(process.execPath, [script], {
          env: { PATH: process.env['PATH'] ?? '', CI_API_V4_URL: `http://127.0.0.1:${port}/api/v4`, CI_PROJECT_ID: '7', ITGEN_GITLAB_TOKEN: 'wrong' },
        });
        let out = '';
        c.stdout.on('data', (x: Buffer) => (out += x.toString('utf8')));
        c.stderr.on('data', (x: Buffer) => (out += x.toString('utf8')));
        c.on('close', (code) => resolve({ code, out }));
      });
      expect(child.code).toBe(1);
      expect(child.out).toContain('GET /user: HTTP 401');
      expect(child.out).not.toContain('wrong');
    });
  });
});

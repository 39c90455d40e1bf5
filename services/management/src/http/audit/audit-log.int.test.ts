import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditObject } from '@lectern/core';
import { fixtureOperatorToken, startPeopleFixture, type PeopleFixture } from '../../testing/people-fixture.ts';
import type { PersonBrowser } from '../../testing/person-browser.ts';

/*
 * The audit log's API (issue 31): what people, keys and the operator did, read by project
 * managers, by management keys and by the operator; refused to every writer.
 */

let fx: PeopleFixture;
let pm: PersonBrowser;
let writer: PersonBrowser;
let projectId: string;

interface EntryJson {
  id: string;
  action: string;
  interface: string;
  request_id: string | null;
  actor: { type: string; user_id: string | null; key_id: string | null };
  object: { kind: string; id: string | null; codename: string | null };
  summary: Record<string, unknown>;
}

function keyCall(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  return fetch(`${fx.origin}/v2/projects/${projectId}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${fx.server.apiKey}`, 'content-type': 'application/json', ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

async function count(): Promise<number> {
  return fx.server.core.store.transaction(
    async (tx) => (await tx.audit.list({ projectId: null, before: null, limit: 100_000 })).length,
  );
}

beforeAll(async () => {
  fx = await startPeopleFixture();
  projectId = fx.server.projectId;
  pm = await fx.invited('pm', 'Project manager');
  writer = await fx.invited('writer', 'Content creator');
  const type = await keyCall('/types', {
    method: 'POST',
    body: { name: 'Note', codename: 'note', elements: [{ type: 'text', name: 'Body', codename: 'body' }] },
  });
  expect(type.status).toBe(201);
});
afterAll(async () => {
  await fx.close();
});

describe('audit log API', () => {
  it('records a change in the editor with its person, interface and request id; a project manager filters by person', async () => {
    const created = await writer.call(`/v2/projects/${projectId}/items`, {
      method: 'POST',
      body: { name: 'Audited note', type: { codename: 'note' } },
    });
    expect(created.status).toBe(201);
    const page = await pm.call(`/v2/projects/${projectId}/audit-log?user_id=${fx.userIds['writer']}`);
    expect(page.status).toBe(200);
    const entries = page.json['entries'] as EntryJson[];
    expect(entries[0]).toMatchObject({
      action: 'item.create',
      interface: 'editor',
      request_id: created.headers.get('x-request-id'),
      actor: { type: 'user', user_id: fx.userIds['writer'], key_id: null },
      object: { kind: 'item', id: created.json['id'], codename: 'audited_note' },
    });
    // Only the writer's entries: their invitation's acceptance and the item.
    expect(entries.every((e) => e.actor.user_id === fx.userIds['writer'])).toBe(true);
  });

  it('records a management key’s change as the key’s, through Management API v2', async () => {
    const response = await keyCall('/audit-log?action=content_type.create');
    expect(response.status).toBe(200);
    const entries = ((await response.json()) as { entries: EntryJson[] }).entries;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ interface: 'management_api_v2', actor: { type: 'key' } });
    expect(entries[0]?.actor.key_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is refused to people who are not project managers', async () => {
    const refused = await writer.call(`/v2/projects/${projectId}/audit-log`);
    expect(refused.status).toBe(403);
  });

  it('cannot be changed through any interface: every writing method is 405 and nothing changes', async () => {
    const before = await count();
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect((await keyCall('/audit-log', { method, body: {} })).status).toBe(405);
      expect((await keyCall('/audit-log/export', { method, body: {} })).status).toBe(405);
      expect((await pm.call(`/v2/projects/${projectId}/audit-log`, { method, body: {} })).status).toBe(405);
      const admin = await fetch(`${fx.origin}/admin/audit-log`, {
        method,
        headers: { authorization: `Bearer ${fixtureOperatorToken}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(admin.status).toBe(405);
    }
    expect(await count()).toBe(before);
  });

  it('refuses a bad filter in the Management API error shape', async () => {
    const response = await keyCall('/audit-log?from=yesterday');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error_code: 1007 });
  });

  it('pages with x-continuation and exports the same entries as JSON lines', async () => {
    for (let i = 0; i < 105; i++)
      await fx.server.core.store.transaction(async (tx) => {
        tx.audit.note({ projectId, action: 'test.bulk', object: auditObject('test', { id: String(i) }) });
      });
    const first = await keyCall('/audit-log?action=test.bulk');
    const firstJson = (await first.json()) as { entries: EntryJson[]; pagination: { continuation_token: string } };
    expect(firstJson.entries).toHaveLength(100);
    expect(firstJson.entries[0]?.object.id).toBe('104');
    const second = await keyCall('/audit-log?action=test.bulk', {
      headers: { 'x-continuation': firstJson.pagination.continuation_token },
    });
    const secondJson = (await second.json()) as { entries: EntryJson[]; pagination: { continuation_token: null } };
    expect(secondJson.entries.map((e) => e.object.id)).toEqual(['4', '3', '2', '1', '0']);
    expect(secondJson.pagination.continuation_token).toBeNull();
    // A token of another filter is refused.
    const other = await keyCall('/audit-log?action=item.create', {
      headers: { 'x-continuation': firstJson.pagination.continuation_token },
    });
    expect(other.status).toBe(400);

    const exported = await keyCall('/audit-log/export?action=test.');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = (await exported.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as EntryJson);
    expect(lines).toHaveLength(105);
    expect(lines.map((l) => l.id)).toEqual([...firstJson.entries, ...secondJson.entries].map((e) => e.id));
  });

  it('shows the operator sign-ins and refused sign-ins (admin API), which belong to no project', async () => {
    const stranger = await fetch(`${fx.origin}/app/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'pm@example.com', password: 'not the password' }),
    });
    expect(stranger.status).toBe(401);
    const response = await fetch(`${fx.origin}/admin/audit-log?action=session.`, {
      headers: { authorization: `Bearer ${fixtureOperatorToken}` },
    });
    expect(response.status).toBe(200);
    const actions = ((await response.json()) as { entries: EntryJson[] }).entries.map((e) => e.action);
    expect(actions[0]).toBe('session.sign_in_failed');
    // A project's log does not hold them, and a project manager cannot read the operator's view.
    expect((await keyCall('/audit-log?action=session.')).status).toBe(200);
    expect(((await (await keyCall('/audit-log?action=session.')).json()) as { entries: [] }).entries).toEqual([]);
    expect((await fetch(`${fx.origin}/admin/audit-log`)).status).toBe(401);
  });

  it("records the console's sign-ins: a wrong token refused, the operator token and a management key accepted", async () => {
    /** A console sign-in with `token`: the form's CSRF cookie and field, then the post. */
    const consoleSignIn = async (token: string) => {
      const form = await fetch(`${fx.origin}/console/sign-in`);
      const cookie = (form.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
      const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
      const response = await fetch(`${fx.origin}/console/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, token }).toString(),
      });
      return response.status;
    };
    expect(await consoleSignIn('not-a-token')).toBe(401);
    expect(await consoleSignIn(fixtureOperatorToken)).toBe(303);
    expect(await consoleSignIn(fx.server.apiKey)).toBe(303);
    const response = await fetch(`${fx.origin}/admin/audit-log?action=session.&object_kind=session`, {
      headers: { authorization: `Bearer ${fixtureOperatorToken}` },
    });
    const entries = ((await response.json()) as { entries: EntryJson[] }).entries.slice(0, 3);
    expect(entries.map((e) => [e.action, e.interface, e.actor.type, e.summary['method']])).toEqual([
      ['session.sign_in', 'console', 'key', 'management_key'],
      ['session.sign_in', 'console', 'operator', 'operator_token'],
      ['session.sign_in_failed', 'console', 'anonymous', 'operator_token'],
    ]);
    // The key's sign-in belongs to its project.
    const ofProject = (await (await keyCall('/audit-log?action=session.sign_in')).json()) as { entries: EntryJson[] };
    expect(ofProject.entries.map((e) => e.interface)).toEqual(['console']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagementClient } from '@kontent-ai/management-sdk';
import { createApiKey, operator, subscriptionId } from '@lectern/core';
import { readFixture, shapeDifferences } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

type Json = Record<string, unknown>;
const fakes = 'management/kontent-ai+management-sdk-js/test/browser/fake-responses';
const operatorToken = 'operator-token-for-the-users-test-0123456789';
let server: TestManagement;
let subscription: ManagementClient;
let roles: { id: string; name: string }[];

async function call(path: string, method: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await server.fetch(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
}

beforeAll(async () => {
  server = await startTestManagement({ operatorToken });
  subscription = new ManagementClient({
    subscriptionId,
    apiKey: operatorToken,
    baseUrl: server.baseUrl,
    retryStrategy: { maxAttempts: 0 },
  });
  await server.client
    .setCollections()
    .withData([{ op: 'addInto', value: { name: 'Blog', codename: 'blog' } as never }])
    .toPromise();
  roles = (await server.client.listRoles().toPromise()).rawData.roles;
});
afterAll(async () => {
  await server.close();
});

describe('environment users through @kontent-ai/management-sdk', () => {
  it('invites a user with collection groups and changes their roles', async () => {
    const invited = await server.client
      .inviteUser()
      .withData({
        email: 'editor@example.com',
        collection_groups: [
          {
            collections: [{ codename: 'blog' }],
            roles: [{ id: roles[2]?.id ?? '', languages: [{ codename: 'default' }] }],
          },
        ],
      })
      .toPromise();
    const raw = invited.rawData as unknown as { user_id: string; collection_groups: Json[] };
    expect(raw.collection_groups).toEqual([
      {
        collections: [{ id: expect.stringMatching(/^[0-9a-f-]{36}$/) }],
        roles: [{ id: roles[2]?.id, languages: [{ id: '00000000-0000-0000-0000-000000000000' }] }],
      },
    ]);
    // The SDK's recorded invite (fake-invite-user.spec.json) echoes write-only codename references; responses hold ids.
    const again = await call('/users', 'POST', {
      email: 'EDITOR@example.com',
      collection_groups: [{ collections: [], roles: [{ id: roles[1]?.id, languages: [] }] }],
    });
    expect(again.status).toBe(400);
    expect(String(again.json['message'])).toMatch(/already contains active or invited user/);

    const changed = await server.client
      .changeUserRoles()
      .byEmail('editor@example.com')
      .withData({ collection_groups: [{ collections: [], roles: [{ id: roles[3]?.id ?? '', languages: [] }] }] })
      .toPromise();
    expect(changed.rawData.collection_groups).toEqual([
      { collections: [], roles: [{ id: roles[3]?.id, languages: [] }] },
    ]);
    const byId = await call(`/users/${raw.user_id}/roles`, 'PUT', { collection_groups: [] });
    expect(byId.status).toBe(400);
    expect(
      (await call('/users/email/nobody@example.com/roles', 'PUT', { collection_groups: [] })).json['error_code'],
    ).toBe(115);
  });
});

describe('the Subscription API through @kontent-ai/management-sdk (operator token)', () => {
  it('lists the project with its environments and the users with their roles', async () => {
    const projects = await subscription.listSubscriptionProjects().toPromise();
    const project = projects.rawData.projects.find((p) => p.id === server.projectId);
    expect(project?.environments.map((e) => e.id)).toEqual([server.projectId]);
    expect(
      shapeDifferences(projects.rawData, readFixture(`${fakes}/subscriptions/fake-list-subscription-projects.json`)),
    ).toEqual([]);
    const one = await subscription.viewSubscriptionProject().environmentId(server.projectId).toPromise();
    expect(one.rawData.id).toBe(server.projectId);

    const users = await subscription.listSubscriptionUsers().toPromise();
    const emails = users.rawData.users.map((u) => u.email);
    expect(emails).toContain('editor@example.com');
    const editor = await subscription.viewSubscriptionUser().byEmail('editor@example.com').toPromise();
    const raw = editor.rawData as unknown as Json;
    expect(raw['has_pending_invitation']).toBe(true);
    const env = (raw['projects'] as { environments: Json[] }[])[0]?.environments[0];
    expect(env?.['is_user_active']).toBe(true);
    expect(((env?.['collection_groups'] as { roles: Json[] }[])[0]?.roles[0] as Json)['name']).toBe('Reviewer');

    await subscription.deactivateUserInAllProjects().byEmail('editor@example.com').toPromise();
    const inactive = (await subscription.viewSubscriptionUser().byEmail('editor@example.com').toPromise())
      .rawData as unknown as Json;
    expect((inactive['projects'] as { environments: Json[] }[])[0]?.environments[0]?.['is_user_active']).toBe(false);
    await subscription.activateUserInAllProjects().byEmail('editor@example.com').toPromise();

    const wrongKey = await fetch(`${server.baseUrl}/subscriptions/${subscriptionId}/projects`, {
      headers: { authorization: `Bearer ${server.apiKey}` },
    });
    expect(wrongKey.status).toBe(401);
    const wrongId = await fetch(`${server.baseUrl}/subscriptions/${server.projectId}/projects`, {
      headers: { authorization: `Bearer ${operatorToken}` },
    });
    expect(wrongId.status).toBe(404);
  });
});

describe('roles limit what a management key may change', () => {
  async function keyFor(email: string, role: number): Promise<string> {
    await call('/users', 'POST', {
      email,
      collection_groups: [{ collections: [], roles: [{ id: roles[role]?.id, languages: [] }] }],
    });
    const issued = await createApiKey(server.core, {
      actor: operator,
      projectId: server.projectId,
      kind: 'management',
      userEmail: email,
    });
    return issued.secret;
  }
  const send = async (key: string, path: string, method: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}/projects/${server.projectId}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
  };

  it('lets a content creator write content but not the model or the settings, in the Management error shape', async () => {
    const key = await keyFor('writer@example.com', 2);
    expect((await send(key, '/types', 'GET')).status).toBe(200);
    const model = await send(key, '/types', 'POST', { name: 'Nope', elements: [] });
    expect(model.status).toBe(403);
    expect(model.json).toMatchObject({ error_code: 16, request_id: expect.any(String) });
    expect(
      (await send(key, '/preview-configuration', 'PUT', { space_domains: [], preview_url_patterns: [] })).status,
    ).toBe(403);
    await call('/types', 'POST', { name: 'Note', codename: 'note', elements: [] });
    expect((await send(key, '/items', 'POST', { name: 'Mine', type: { codename: 'note' } })).status).toBe(201);
    expect((await send(key, '/items-with-variant/filter', 'POST', {})).status).toBe(200);
    expect((await call('/types/codename/nope', 'GET')).status).toBe(404);
  });

  it('gives a reviewer nothing to change, and a deactivated user neither', async () => {
    const key = await keyFor('reviewer@example.com', 3);
    expect((await send(key, '/items', 'POST', { name: 'Nope', type: { codename: 'note' } })).status).toBe(403);
    expect((await send(key, '/items', 'GET')).status).toBe(200);
    const writer = await keyFor('writer2@example.com', 2);
    expect((await send(writer, '/items', 'POST', { name: 'Yes', type: { codename: 'note' } })).status).toBe(201);
    await subscription.deactivateUserInAllProjects().byEmail('writer2@example.com').toPromise();
    expect((await send(writer, '/items', 'POST', { name: 'No', type: { codename: 'note' } })).status).toBe(403);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagementClient } from '@kontent-ai/management-sdk';
import { createApiKey, listItems, operator, renameEnvironment, authenticate, type Actor } from '@lectern/core';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

/*
 * Roles are enforced by the core operations, not by the routes: a management key acting as a
 * user without a permission is refused (403, error_code 16, the Management error shape) on
 * writes of every family, through the official SDK, and nothing changes; reading stays allowed.
 */

type Json = Record<string, unknown>;
let server: TestManagement;
const clients: Record<'reviewer' | 'creator' | 'developer', ManagementClient> = {} as never;
const secrets: Record<string, string> = {};

async function call(path: string, method: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await server.fetch(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
}

/** Runs the SDK call and expects the Management API's 403 with error_code 16. */
async function refused(run: () => Promise<unknown>): Promise<void> {
  const error = await run().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'the write was accepted').not.toBeNull();
  expect(error).toMatchObject({ errorCode: 16, requestId: expect.any(String) });
  expect((error as { originalError?: { response?: { status?: number } } }).originalError?.response?.status).toBe(403);
}

beforeAll(async () => {
  server = await startTestManagement({ operatorToken: 'operator-token-for-the-roles-test-0123456789' });
  const roles = (await server.client.listRoles().toPromise()).rawData.roles;
  const roleOf = (name: string) => roles.find((r) => r.name === name)?.id ?? '';
  const people = { reviewer: 'Reviewer', creator: 'Content creator', developer: 'Developer' } as const;
  for (const [who, role] of Object.entries(people)) {
    const email = `${who}@example.com`;
    await call('/users', 'POST', {
      email,
      collection_groups: [{ collections: [], roles: [{ id: roleOf(role), languages: [] }] }],
    });
    const issued = await createApiKey(server.core, {
      actor: operator,
      projectId: server.projectId,
      kind: 'management',
      userEmail: email,
    });
    secrets[who] = issued.secret;
    clients[who as keyof typeof people] = new ManagementClient({
      environmentId: server.projectId,
      apiKey: issued.secret,
      baseUrl: server.baseUrl,
      retryStrategy: { maxAttempts: 0 },
    });
  }
  // Content and model the refused keys try to change.
  await call('/types', 'POST', {
    name: 'Note',
    codename: 'note',
    elements: [{ type: 'text', name: 'Body', codename: 'body' }],
  });
  await call('/snippets', 'POST', { name: 'Seo', codename: 'seo', elements: [] });
  await call('/taxonomies', 'POST', { name: 'Tags', codename: 'tags', terms: [] });
  await call('/items', 'POST', { name: 'First', codename: 'first', type: { codename: 'note' } });
  await call('/items/codename/first/variants/codename/default', 'PUT', {
    elements: [{ element: { codename: 'body' }, value: 'original' }],
  });
});
afterAll(async () => {
  await server.close();
});

describe('a key whose user lacks manage content (Reviewer)', () => {
  it('is refused on items, variants, workflow actions, assets and folders, and nothing changes', async () => {
    const c = clients.reviewer;
    await refused(() =>
      c
        .addContentItem()
        .withData({ name: 'Nope', type: { codename: 'note' } })
        .toPromise(),
    );
    await refused(() =>
      c
        .upsertLanguageVariant()
        .byItemCodename('first')
        .byLanguageCodename('default')
        .withData(() => ({ elements: [{ element: { codename: 'body' }, value: 'changed' }] }))
        .toPromise(),
    );
    await refused(() =>
      c.publishLanguageVariant().byItemCodename('first').byLanguageCodename('default').withoutData().toPromise(),
    );
    await refused(() => c.deleteContentItem().byItemCodename('first').toPromise());
    await refused(() =>
      c
        .addAssetFolders()
        .withData({ folders: [{ name: 'Nope', external_id: 'nope', folders: [] }] })
        .toPromise(),
    );
    await refused(() =>
      c
        .uploadBinaryFile()
        .withData({ binaryData: Buffer.from('x'), contentType: 'text/plain', filename: 'x.txt' })
        .toPromise(),
    );
    // Reading is allowed, and shows nothing changed.
    const items = (await c.listContentItems().toPromise()).data.items;
    expect(items.map((i) => i.codename)).toEqual(['first']);
    const variant = await c.viewLanguageVariant().byItemCodename('first').byLanguageCodename('default').toPromise();
    expect(variant.data.elements[0]?.value).toBe('original');
    expect(variant.rawData.workflow?.step_identifier).not.toBeUndefined();
    expect((await c.listAssetFolders().toPromise()).data.items).toEqual([]);
    expect((await c.listAssets().toPromise()).data.items).toEqual([]);
  });
});

describe('a key whose user lacks manage content model (Content creator)', () => {
  it('is refused on types, snippets, taxonomies, languages, workflows and collections, and nothing changes', async () => {
    const c = clients.creator;
    const before = (await c.listContentTypes().toPromise()).rawData;
    await refused(() =>
      c
        .addContentType()
        .withData(() => ({ name: 'Nope', elements: [] }))
        .toPromise(),
    );
    await refused(() =>
      c
        .modifyContentType()
        .byTypeCodename('note')
        .withData([{ op: 'replace', path: '/name', value: 'Renamed' }])
        .toPromise(),
    );
    await refused(() => c.deleteContentTypeSnippet().byTypeCodename('seo').toPromise());
    await refused(() => c.addTaxonomy().withData({ name: 'Nope', terms: [] }).toPromise());
    await refused(() => c.addLanguage().withData({ name: 'German', codename: 'de-DE' }).toPromise());
    await refused(() =>
      c
        .setCollections()
        .withData([{ op: 'addInto', value: { name: 'Blog', codename: 'blog' } as never }])
        .toPromise(),
    );
    await refused(() => c.deleteWorkflow().byWorkflowCodename('default').toPromise());
    expect((await c.listContentTypes().toPromise()).rawData).toEqual(before);
    expect((await c.listContentTypeSnippets().toPromise()).data.items.map((s) => s.codename)).toEqual(['seo']);
    expect((await c.listTaxonomies().toPromise()).data.items.map((t) => t.codename)).toEqual(['tags']);
    expect((await c.listLanguages().toPromise()).data.items).toHaveLength(1);
    expect((await c.listCollections().toPromise()).data.collections).toHaveLength(1);
    // Content is theirs to change.
    await c
      .addContentItem()
      .withData({ name: 'Mine', codename: 'mine', type: { codename: 'note' } })
      .toPromise();
    await c.deleteContentItem().byItemCodename('mine').toPromise();
  });
});

describe('a key whose user lacks manage environment settings (Developer)', () => {
  it('is refused on settings, custom apps, webhooks, users and environments, and nothing changes', async () => {
    const c = clients.developer;
    await refused(() => c.activateWebSpotlight().withData({ root_type: null }).toPromise());
    await refused(() => c.changeLivePreviewConfiguration().withData({ status: 'enabled' }).toPromise());
    await refused(() =>
      c
        .addCustomApp()
        .withData({ name: 'App', source_url: 'https://example.com', config: null, allowed_roles: [] })
        .toPromise(),
    );
    await refused(() =>
      c
        .addWebhook()
        .withData({ name: 'Hook', url: 'https://example.com/hook', secret: 'secret', triggers: {} } as never)
        .toPromise(),
    );
    await refused(() => c.inviteUser().withData({ email: 'someone@example.com', collection_groups: [] }).toPromise());
    await refused(() => c.cloneEnvironment().withData({ name: 'Copy', roles_to_activate: [] }).toPromise());
    await refused(() =>
      c
        .modifyEnvironment()
        .withData([{ op: 'rename_environment', value: 'Renamed' }])
        .toPromise(),
    );
    expect((await c.checkWebSpotlightStatus().toPromise()).rawData.enabled).toBe(false);
    expect((await c.getLivePreviewConfiguration().toPromise()).rawData.status).toBe('disabled');
    expect((await c.listCustomApps().toPromise()).rawData.custom_apps).toEqual([]);
    expect((await c.listWebhooks().toPromise()).data.webhooks).toEqual([]);
    expect((await c.environmentInformation().toPromise()).data.project.environment).not.toBe('Renamed');
    // Content model is theirs to change.
    await c.addTaxonomy().withData({ name: 'Mine', codename: 'mine', terms: [] }).toPromise();
  });
});

describe('the rule lives in the core operations', () => {
  it('holds for any caller that passes the key actor, and the operator may everything', async () => {
    const actor: Actor = await authenticate(server.core, {
      api: 'management',
      projectId: server.projectId,
      authorization: `Bearer ${secrets['developer'] ?? ''}`,
    });
    expect(actor).toMatchObject({ type: 'api_key', permissions: ['manage_content', 'manage_model'] });
    const renamed = renameEnvironment(server.core, {
      actor,
      projectId: server.projectId,
      operations: [{ op: 'rename_environment', value: 'Renamed' }],
    });
    await expect(renamed).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    expect((await listItems(server.core, { actor, projectId: server.projectId })).items).toHaveLength(1);
    const byOperator = await renameEnvironment(server.core, {
      actor: operator,
      projectId: server.projectId,
      operations: [{ op: 'rename_environment', value: 'Renamed by the operator' }],
    });
    expect(byOperator.environment).toBe('Renamed by the operator');
  });
});

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiKey, operator, randomIds, listItems } from '@lectern/core';
import { openPostgresStore } from '@lectern/store-sql';
import { createTestClock, createTestDatabase, openTestCore, type TestCore } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../testing/test-server.ts';
import { connectMcpClient, httpTransport } from './mcp-test-client.ts';

/*
 * The MCP server driven by the SDK's own client over Streamable HTTP against the Management app on
 * a port, on PGlite and on PostgreSQL: the model read, a type created, an item created and filled
 * (rich text with a component), published, read back; a Reviewer's write refused with the API's
 * error; malformed arguments and hostile requests answered as MCP errors, never a 5xx.
 */

const postgresUrl = inject('postgresUrl');
const engines: [string, () => Promise<TestCore>][] = [
  ['PGlite', openTestCore],
  [
    'PostgreSQL',
    async () => ({
      store: await openPostgresStore({ connectionString: await createTestDatabase(postgresUrl) }),
      clock: createTestClock(),
      ids: randomIds,
    }),
  ],
];
const componentId = '5d1c1b1e-0000-4000-8000-000000000001';
const object = `<object type="application/kenticocloud" data-type="component" data-id="${componentId}"></object>`;

describe.each(engines)('MCP over Streamable HTTP on %s', (_name, openCore) => {
  let server: TestManagement;
  let origin: string;
  let mcp: Awaited<ReturnType<typeof connectMcpClient>>;

  beforeAll(async () => {
    server = await startTestManagement({ core: await openCore() });
    origin = server.baseUrl.replace(/\/v2$/, '');
    mcp = await connectMcpClient(httpTransport(`${origin}/${server.projectId}/mcp`, server.apiKey));
  });
  afterAll(async () => {
    await mcp?.client.close();
    await server?.close();
  });

  it('lists tools whose input schemas are JSON Schema of their zod definitions, and resources and prompts', async () => {
    const { tools } = await mcp.client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of [
      'get-initial-context',
      'list-content-types-mapi',
      'add-content-type-mapi',
      'filter-variants-mapi',
      'upsert-language-variant-mapi',
      'publish-variant-mapi',
      'change-variant-workflow-step-mapi',
      'create-variant-version-mapi',
      'upload-asset-mapi',
      'add-taxonomy-group-mapi',
      'list-spaces-mapi',
    ])
      expect(names).toContain(name);
    const addType = tools.find((t) => t.name === 'add-content-type-mapi');
    const elements = addType?.inputSchema.properties?.['elements'] as {
      items?: { properties?: { type?: { enum?: string[] } } };
    };
    expect(elements.items?.properties?.type?.enum).toContain('rich_text');
    expect(addType?.annotations?.readOnlyHint).toBe(false);
    const { resources } = await mcp.client.listResources();
    expect(resources.map((r) => r.uri)).toContain('lectern://model');
    const { prompts } = await mcp.client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['draft-item', 'translate-item']);
  });

  it('reads the model, creates types, an item with a component in rich text, publishes it and reads it back', async () => {
    const start = await mcp.call('get-initial-context');
    expect(start.isError).toBe(false);
    const model = start.json['model'] as { languages: { codename: string; is_default: boolean }[] };
    expect(model.languages.find((l) => l.is_default)?.codename).toBe('default');

    const quote = await mcp.call('add-content-type-mapi', {
      name: 'Quote',
      codename: 'quote',
      elements: [{ type: 'text', name: 'Text', codename: 'text' }],
    });
    expect(quote.isError, quote.text).toBe(false);
    const article = await mcp.call('add-content-type-mapi', {
      name: 'Article',
      codename: 'article',
      elements: [
        { type: 'text', name: 'Title', codename: 'title', is_required: true },
        { type: 'rich_text', name: 'Body', codename: 'body' },
      ],
    });
    expect(article.isError, article.text).toBe(false);
    expect((article.json['elements'] as unknown[]).length).toBe(2);
    const types = await mcp.call('list-content-types-mapi');
    expect((types.json['types'] as { codename: string }[]).map((t) => t.codename).sort()).toEqual(['article', 'quote']);

    const item = await mcp.call('add-content-item-mapi', {
      name: 'Hello',
      codename: 'hello',
      type: { codename: 'article' },
    });
    expect(item.isError, item.text).toBe(false);
    const ref = { item: { codename: 'hello' }, language: { codename: 'default' } };
    const filled = await mcp.call('upsert-language-variant-mapi', {
      ...ref,
      elements: [
        { element: { codename: 'title' }, value: 'Hello, agents' },
        {
          element: { codename: 'body' },
          value: `<p>Intro</p>${object}`,
          components: [
            {
              id: componentId,
              type: { codename: 'quote' },
              elements: [{ element: { codename: 'text' }, value: 'Be brief.' }],
            },
          ],
        },
      ],
    });
    expect(filled.isError, filled.text).toBe(false);
    expect(await mcp.call('publish-variant-mapi', ref)).toMatchObject({ isError: false });
    const published = await mcp.call('get-published-variant-mapi', ref);
    expect(published.isError, published.text).toBe(false);
    const body = (
      published.json['elements'] as { components?: { id: string; elements: { value: unknown }[] }[] }[]
    ).find((e) => e.components !== undefined);
    expect(body?.components?.[0]?.id).toBe(componentId);
    expect(body?.components?.[0]?.elements[0]?.value).toBe('Be brief.');

    const found = await mcp.call('filter-variants-mapi', { language: { codename: 'default' }, search_phrase: 'Hello' });
    expect((found.json['variants'] as unknown[]).length).toBe(1);
    const withVariants = await mcp.call('get-item-mapi', { item: { codename: 'hello' } });
    expect((withVariants.json['variants'] as unknown[]).length).toBe(1);
    // The same key at /mcp (its own environment) sees the same item.
    const bare = await connectMcpClient(httpTransport(`${origin}/mcp`, server.apiKey));
    expect((await bare.call('get-item-mapi', { item: { codename: 'hello' } })).isError).toBe(false);
    await bare.client.close();
  });

  it("answers the API's validation messages, with paths, for a variant the type refuses", async () => {
    const ref = { item: { codename: 'hello' }, language: { codename: 'default' } };
    const published = await mcp.call('upsert-language-variant-mapi', {
      ...ref,
      elements: [{ element: { codename: 'title' }, value: 'Changed' }],
    });
    expect(published.json).toMatchObject({ error_code: 212 });
    const version = await mcp.call('create-variant-version-mapi', ref);
    expect(version.isError, version.text).toBe(false);
    const refused = await mcp.call('upsert-language-variant-mapi', {
      item: { codename: 'hello' },
      language: { codename: 'default' },
      elements: [{ element: { codename: 'no_such_element' }, value: 'x' }],
    });
    expect(refused.isError).toBe(true);
    expect(refused.json).toMatchObject({
      request_id: expect.any(String),
      error_code: expect.any(Number),
      validation_errors: [
        {
          path: 'elements[0].element',
          message: "The element with codename 'no_such_element' was not found in the content type.",
        },
      ],
    });
    // A component the rich text names but does not send is refused too, and nothing changes.
    const missing = await mcp.call('upsert-language-variant-mapi', {
      item: { codename: 'hello' },
      language: { codename: 'default' },
      elements: [{ element: { codename: 'body' }, value: object, components: [] }],
    });
    expect(missing.isError).toBe(true);
    expect(missing.json['validation_errors']).toEqual([
      expect.objectContaining({ path: expect.stringMatching(/^elements\[0\]/) }),
    ]);
  });

  it('moves the new version to another workflow step and schedules its publishing', async () => {
    const ref = { item: { codename: 'hello' }, language: { codename: 'default' } };
    const workflows = (await mcp.call('list-workflows-mapi')).json as unknown as {
      codename: string;
      steps: { codename: string }[];
    }[];
    const workflow = workflows[0];
    const step = workflow?.steps[1] ?? workflow?.steps[0];
    const moved = await mcp.call('change-variant-workflow-step-mapi', {
      ...ref,
      workflow: { codename: workflow?.codename },
      workflow_step: { codename: step?.codename },
    });
    expect(moved.isError, moved.text).toBe(false);
    const latest = await mcp.call('get-latest-variant-mapi', ref);
    expect(latest.json['workflow']).toMatchObject({ step_identifier: { id: expect.any(String) } });
    const past = await mcp.call('publish-variant-mapi', { ...ref, scheduled_to: '2001-01-01T00:00:00Z' });
    expect(past.json['validation_errors']).toEqual([expect.objectContaining({ path: 'scheduled_to' })]);
    const scheduled = await mcp.call('publish-variant-mapi', { ...ref, scheduled_to: '2999-01-01T00:00:00Z' });
    expect(scheduled).toMatchObject({
      isError: false,
      json: { published: false, scheduled_to: '2999-01-01T00:00:00Z' },
    });
    expect((await mcp.call('cancel-scheduled-publish-mapi', ref)).isError).toBe(false);
  });

  it('refuses a key of another environment, as the Management API does', async () => {
    const foreign = await connectMcpClient(
      httpTransport(`${origin}/6a1b3c2d-0000-4000-8000-000000000009/mcp`, server.apiKey),
    ).then(
      () => null,
      (error: unknown) => error,
    );
    expect(String(foreign)).toMatch(/"error_code":4/);
  });

  it("refuses a Reviewer key's write with the Management API's error, and stores nothing", async () => {
    const roles = (await server.client.listRoles().toPromise()).rawData.roles;
    await server.fetch('/users', {
      method: 'POST',
      body: JSON.stringify({
        email: 'reviewer@example.com',
        collection_groups: [
          { collections: [], roles: [{ id: roles.find((r) => r.name === 'Reviewer')?.id, languages: [] }] },
        ],
      }),
    });
    const issued = await createApiKey(server.core, {
      actor: operator,
      projectId: server.projectId,
      kind: 'management',
      userEmail: 'reviewer@example.com',
    });
    const reviewer = await connectMcpClient(httpTransport(`${origin}/${server.projectId}/mcp`, issued.secret));
    const before = (await listItems(server.core, { actor: operator, projectId: server.projectId })).items.length;
    const write = await reviewer.call('add-content-item-mapi', { name: 'Nope', type: { codename: 'article' } });
    expect(write.isError).toBe(true);
    expect(write.json).toMatchObject({ error_code: 16 });
    expect(String(write.json['message'])).toMatch(/permissions/);
    expect((await listItems(server.core, { actor: operator, projectId: server.projectId })).items.length).toBe(before);
    // Reading stays allowed.
    expect((await reviewer.call('list-content-types-mapi')).isError).toBe(false);
    await reviewer.client.close();
  });

  it('uploads an asset from base64 bytes, refuses a private URL, and serves the model as resources and prompts', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const uploaded = await mcp.call('upload-asset-mapi', {
      data_base64: png.toString('base64'),
      file_name: 'dot.png',
      content_type: 'image/png',
      title: 'A dot',
    });
    expect(uploaded.isError, uploaded.text).toBe(false);
    expect(uploaded.json).toMatchObject({ file_name: 'dot.png', size: png.length, image_width: 1, title: 'A dot' });
    const before = ((await mcp.call('list-assets-mapi')).json['assets'] as unknown[]).length;
    const privateUrl = await mcp.call('upload-asset-mapi', { url: `${origin}/readyz`, file_name: 'x.txt' });
    expect(privateUrl.isError).toBe(true);
    expect(privateUrl.json).toMatchObject({ error_code: 207 });
    const notBase64 = await mcp.call('upload-asset-mapi', { data_base64: '!!!!' });
    expect(notBase64.json).toMatchObject({
      error_code: expect.any(Number),
      validation_errors: [{ path: 'data_base64' }],
    });
    expect(((await mcp.call('list-assets-mapi')).json['assets'] as unknown[]).length).toBe(before);

    const model = await mcp.client.readResource({ uri: 'lectern://model' });
    const text = (model.contents[0] as { text: string }).text;
    expect(
      (JSON.parse(text) as { content_types: { codename: string }[] }).content_types.map((t) => t.codename),
    ).toContain('article');
    const article = await mcp.client.readResource({ uri: 'lectern://types/article' });
    expect(JSON.parse((article.contents[0] as { text: string }).text)).toMatchObject({ codename: 'article' });
    const prompt = await mcp.client.getPrompt({
      name: 'translate-item',
      arguments: { item_codename: 'hello', language_codename: 'cs' },
    });
    const said = (prompt.messages[0]?.content as { text: string }).text;
    expect(said).toMatch(/upsert-language-variant-mapi/);
    expect(said).toMatch(/"cs"/);
  });

  it('answers malformed arguments and unknown tools with MCP errors', async () => {
    const wrongType = await mcp.call('add-content-type-mapi', { name: 5, elements: 'none' });
    expect(wrongType.isError).toBe(true);
    expect(wrongType.text).toMatch(/Input validation error/);
    const twoRefs = await mcp.call('get-type-mapi', { type: { id: 'x', codename: 'y' } });
    expect(twoRefs).toMatchObject({ isError: true });
    expect(twoRefs.text).toMatch(/exactly one of id, codename or external_id/);
    const unknown = await mcp.call('drop-database', {});
    expect(unknown).toMatchObject({ isError: true });
    expect(unknown.text).toMatch(/not found/);
    const notAnId = await mcp.call('get-type-mapi', { type: { id: 'not-a-uuid' } });
    expect(notAnId.json).toMatchObject({ error_code: expect.any(Number) });
  });

  it('answers hostile HTTP with 4xx in the API shapes: no key, a batch, broken JSON-RPC, GET', async () => {
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${origin}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body,
      });
    const auth = { authorization: `Bearer ${server.apiKey}` };
    const noKey = await post('/mcp', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ error_code: 1 });
    const batch = await post(`/${server.projectId}/mcp`, '[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]', auth);
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ error: { code: -32600 } });
    const garbage = await post(`/${server.projectId}/mcp`, '{"jsonrpc":"1.0","hello":[]}', auth);
    expect(garbage.status).toBe(400);
    const broken = await post(`/${server.projectId}/mcp`, '{"jsonrpc":', auth);
    expect(broken.status).toBe(400);
    const huge = await post(
      `/${server.projectId}/mcp`,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'add-content-item-mapi', arguments: { name: 'x'.repeat(2_000_000) } },
      }),
      auth,
    );
    expect(huge.status).toBe(413);
    expect((await fetch(`${origin}/mcp`, { headers: auth })).status).toBe(405);
  });
});

describe('MCP rate limits', () => {
  it("counts each MCP request against the key's Management API limits (429, error_code 10000)", async () => {
    const server = await startTestManagement({ rateLimits: { perSecond: 1000, perMinute: 6, perHour: 1000 } });
    try {
      const origin = server.baseUrl.replace(/\/v2$/, '');
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        const response = await fetch(`${origin}/${server.projectId}/mcp`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${server.apiKey}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-11-25',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: i,
            method: 'tools/call',
            params: { name: 'list-languages-mapi', arguments: {} },
          }),
        });
        statuses.push(response.status);
        if (response.status === 429) expect(await response.json()).toMatchObject({ error_code: 10000 });
        else await response.text();
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    } finally {
      await server.close();
    }
  });
});

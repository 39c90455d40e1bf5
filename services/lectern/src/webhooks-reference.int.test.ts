import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHelper } from '@kontent-ai/webhook-helper';
import type { EmbeddedServer } from './embedded.ts';
import { startWebhooksTestServer, type WebhooksTestServer } from './testing/webhooks-test-server.ts';

/*
 * Issue 33: webhooks as a receiver written against Kontent.ai's documentation sees them — a plain
 * node:http server, signatures checked by @kontent-ai/webhook-helper, the API called with fetch.
 * Expected values are the references':
 * - errors: /work/shared/reference/management-api-reference.md, "Retrieve a webhook", "Enable a
 *   webhook", "Disable a webhook", "Delete a webhook": 404 `{"error_code": 111, "message": "The
 *   requested webhook was not found."}`;
 * - actions: Learn's webhooks page, "Webhook triggers and events"
 *   (/work/shared/reference/fixtures/delivery/Kontent-ai-Learn+learn-mcp-server/data/search-records.json,
 *   codename `webhooks_ea`; delivery-apis.md §4.1): taxonomy `created`, `metadata_changed`,
 *   `term_created`, `term_changed`, `term_deleted`, `terms_moved`; language `created` (creating or
 *   activating), `changed`, `deleted` (deactivating); asset `changed` (binary replaced) and
 *   `metadata_changed`; content type `changed` when a snippet it uses changes.
 */

const secret = 'hx3snVrI9E2Lgpi1LaL+WfiPWCh88OjI7Bv/3ihq+Qo=';

interface Message {
  readonly object_type: string;
  readonly action: string;
  readonly delivery_slot: string;
}
interface Notification {
  readonly data: { readonly system: { readonly id: string; readonly codename: string } };
  readonly message: Message;
}

let server: EmbeddedServer;
let embedded: WebhooksTestServer;
let receiver: Server;
let receiverUrl: string;
let projectId: string;
let managementKey: string;
const notifications: Notification[] = [];
const badSignatures: string[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = String(req.headers['x-kontent-ai-signature']);
      if (!signatureHelper.isValidSignatureFromString(body, secret, signature)) badSignatures.push(body);
      notifications.push(...(JSON.parse(body) as { notifications: Notification[] }).notifications);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  embedded = await startWebhooksTestServer();
  ({ server, projectId, managementKey } = embedded);
});
afterAll(async () => {
  await embedded.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

async function call(method: string, path: string, body?: unknown, type = 'application/json') {
  const response = await fetch(`${server.urls.management}/v2/projects/${projectId}${path}`, {
    method,
    headers: { authorization: `Bearer ${managementKey}`, 'content-type': type },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown> };
}
async function ok(method: string, path: string, body?: unknown, type?: string) {
  const answer = await call(method, path, body, type);
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer.json;
}

/** Waits until the published-slot notifications about `id` are exactly `actions` (in any order). */
async function expectActions(id: string, actions: readonly string[]) {
  const of = () =>
    notifications
      .filter((n) => n.data.system.id === id && n.message.delivery_slot === 'published')
      .map((n) => `${n.message.object_type}/${n.message.action}`);
  const deadline = Date.now() + 20_000;
  while (of().length < actions.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  // A little longer, so an unexpected extra notification shows too.
  await new Promise((r) => setTimeout(r, 300));
  expect(of().sort()).toEqual([...actions].sort());
  expect(badSignatures).toEqual([]);
  notifications.splice(0, notifications.length, ...notifications.filter((n) => n.data.system.id !== id));
}

describe('webhooks against the Kontent.ai webhooks reference', () => {
  it('answers an unknown webhook with 404, error_code 111 on get, delete, enable and disable', async () => {
    const unknown = '5df74e27-1213-484e-b9ae-bcbe90bd5990';
    for (const family of ['/webhooks-vnext', '/webhooks'])
      for (const [method, path] of [
        ['GET', `${family}/${unknown}`],
        ['DELETE', `${family}/${unknown}`],
        ['PUT', `${family}/${unknown}/enable`],
        ['PUT', `${family}/${unknown}/disable`],
        ['GET', `${family}/not-a-guid`],
      ] as const) {
        const answer = await call(method, path, method === 'PUT' ? {} : undefined);
        expect([method, path, answer.status, answer.json['error_code'], answer.json['message']]).toEqual([
          method,
          path,
          404,
          111,
          'The requested webhook was not found.',
        ]);
      }
  });

  it('refuses an invalid body with 400, error_code 5 and the validation message of the reference', async () => {
    // management-api-reference.md "Add a webhook", Response 400 sample (in api-reference-endpoints.json).
    const answer = await call('POST', '/webhooks-vnext', {
      name: '',
      url: receiverUrl,
      secret,
      delivery_triggers: { slot: 'published', events: 'all' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json['error_code']).toBe(5);
    expect(answer.json['validation_errors']).toEqual([
      expect.objectContaining({ message: 'Provide nonempty name which fits within 200 characters.' }),
    ]);
    expect(await ok('GET', '/webhooks-vnext')).toEqual([]);
  });

  it('sends each taxonomy, language, asset and snippet change with the action the reference names', async () => {
    await ok('POST', '/webhooks-vnext', {
      name: 'Everything published',
      url: receiverUrl,
      secret,
      delivery_triggers: { slot: 'published', events: 'all' },
    });

    const group = await ok('POST', '/taxonomies', {
      name: 'Topics',
      codename: 'hook_topics',
      terms: [
        { name: 'Alpha', codename: 'alpha', terms: [] },
        { name: 'Beta', codename: 'beta', terms: [] },
      ],
    });
    const groupId = String(group['id']);
    await expectActions(groupId, ['taxonomy/created']);
    const patch = (ops: unknown[]) => ok('PATCH', '/taxonomies/codename/hook_topics', ops);
    await patch([{ op: 'addInto', value: { name: 'Gamma', codename: 'gamma', terms: [] } }]);
    await expectActions(groupId, ['taxonomy/term_created']);
    await patch([{ op: 'replace', reference: { codename: 'alpha' }, property_name: 'name', value: 'First' }]);
    await expectActions(groupId, ['taxonomy/term_changed']);
    await patch([{ op: 'move', reference: { codename: 'gamma' }, before: { codename: 'alpha' } }]);
    await expectActions(groupId, ['taxonomy/terms_moved']);
    await patch([{ op: 'remove', reference: { codename: 'beta' } }]);
    await expectActions(groupId, ['taxonomy/term_deleted']);
    await patch([{ op: 'replace', property_name: 'name', value: 'Subjects' }]);
    await expectActions(groupId, ['taxonomy/metadata_changed']);
    // One PATCH doing several things: one notification per action.
    await patch([
      { op: 'addInto', reference: { codename: 'alpha' }, value: { name: 'Delta', codename: 'delta', terms: [] } },
      { op: 'replace', reference: { codename: 'gamma' }, property_name: 'codename', value: 'gamma_term' },
    ]);
    await expectActions(groupId, ['taxonomy/term_created', 'taxonomy/term_changed']);
    await ok('DELETE', '/taxonomies/codename/hook_topics');
    await expectActions(groupId, ['taxonomy/deleted']);

    const language = await ok('POST', '/languages', { name: 'German', codename: 'hook_language', is_active: true });
    const languageId = String(language['id']);
    await expectActions(languageId, ['language/created']);
    const replace = (property: string, value: unknown) =>
      ok('PATCH', '/languages/codename/hook_language', [{ op: 'replace', property_name: property, value }]);
    await replace('name', 'Deutsch');
    await expectActions(languageId, ['language/changed']);
    await replace('is_active', false);
    await expectActions(languageId, ['language/deleted']);
    await replace('is_active', true);
    await expectActions(languageId, ['language/created']);

    const upload = async (text: string) =>
      String((await ok('POST', '/files/logo.txt', text, 'text/plain'))['id']);
    const asset = await ok('POST', '/assets', {
      file_reference: { id: await upload('first'), type: 'internal' },
      title: 'Logo',
    });
    const assetId = String(asset['id']);
    await expectActions(assetId, ['asset/created']);
    const put = (body: Record<string, unknown>) => ok('PUT', `/assets/${assetId}`, body);
    await put({ file_reference: asset['file_reference'], title: 'Our logo' });
    await expectActions(assetId, ['asset/metadata_changed']);
    await put({ file_reference: { id: await upload('second'), type: 'internal' }, title: 'Our logo' });
    await expectActions(assetId, ['asset/changed']);

    const snippet = await ok('POST', '/snippets', {
      name: 'Hook SEO',
      codename: 'hook_seo',
      elements: [{ name: 'Title', codename: 'title', type: 'text' }],
    });
    const type = await ok('POST', '/types', {
      name: 'Hook page',
      codename: 'hook_page',
      elements: [{ type: 'snippet', snippet: { codename: 'hook_seo' } }],
    });
    await expectActions(String(type['id']), ['content_type/created']);
    await ok('PATCH', '/snippets/codename/hook_seo', [{ op: 'replace', path: '/name', value: 'Hook search' }]);
    // "Content type updated: … Changing a snippet used in the content type"; no notification names the snippet.
    await expectActions(String(type['id']), ['content_type/changed']);
    expect(notifications.filter((n) => n.data.system.id === snippet['id'])).toEqual([]);
  });
});

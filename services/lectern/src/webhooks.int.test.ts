import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagementClient } from '@kontent-ai/management-sdk';
import { signatureHelper } from '@kontent-ai/webhook-helper';
import { startTestReceiver, type TestReceiver } from '@lectern/testing';
import type { EmbeddedServer } from './embedded.ts';
import { startWebhooksTestServer, type WebhooksTestServer } from './testing/webhooks-test-server.ts';

const secret = 'hx3snVrI9E2Lgpi1LaL+WfiPWCh88OjI7Bv/3ihq+Qo=';
let server: EmbeddedServer;
let embedded: WebhooksTestServer;
let receiver: TestReceiver;
let client: ManagementClient;
let projectId: string;
let managementKey: string;

beforeAll(async () => {
  embedded = await startWebhooksTestServer();
  ({ server, projectId, managementKey } = embedded);
  client = new ManagementClient({
    environmentId: projectId,
    apiKey: managementKey,
    baseUrl: `${server.urls.management}/v2`,
    retryStrategy: { maxAttempts: 0 },
  });
  receiver = await startTestReceiver();
});
afterAll(async () => {
  await embedded.stop();
  await receiver.close();
});

async function mapi(path: string, method: string, body?: unknown): Promise<Record<string, unknown>> {
  const r = await fetch(`${server.urls.management}/v2/projects/${projectId}${path}`, {
    method,
    headers: { authorization: `Bearer ${managementKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r.status === 204 ? {} : ((await r.json()) as Record<string, unknown>);
}

describe('webhooks in the embedded process', () => {
  it('sends the signed notification of a publish to a webhook registered through Management', async () => {
    const hook = await client
      .addWebhook()
      .withData({
        name: 'Published items',
        url: receiver.url,
        secret,
        headers: [{ key: 'x-site', value: 'docs' }],
        delivery_triggers: {
          slot: 'published',
          events: 'specific',
          content_item: { enabled: true, actions: [{ action: 'published' }, { action: 'unpublished' }] },
        },
      })
      .toPromise();
    await mapi('/types', 'POST', {
      name: 'Hooked',
      codename: 'hooked',
      elements: [{ name: 'Title', codename: 'title', type: 'text' }],
    });
    const item = await mapi('/items', 'POST', { name: 'Hooked one', codename: 'hooked_one', type: { codename: 'hooked' } });
    await mapi('/items/codename/hooked_one/variants/codename/default', 'PUT', {
      elements: [{ element: { codename: 'title' }, value: 'Hello' }],
    });
    await mapi('/items/codename/hooked_one/variants/codename/default/publish', 'PUT');

    await receiver.waitFor(1);
    const got = receiver.received[0]!;
    const signature = got.headers['x-kontent-ai-signature'] as string;
    expect(signatureHelper.isValidSignatureFromString(got.text, secret, signature)).toBe(true);
    expect(got.headers['x-kc-signature']).toBe(signature);
    expect(got.headers['x-site']).toBe('docs');
    expect(got.json).toEqual({
      notifications: [
        {
          data: {
            system: {
              id: item['id'],
              name: 'Hooked one',
              codename: 'hooked_one',
              collection: 'default',
              workflow: 'default',
              workflow_step: 'published',
              language: 'default',
              type: 'hooked',
              last_modified: expect.any(String),
            },
          },
          message: {
            environment_id: projectId,
            object_type: 'content_item',
            action: 'published',
            delivery_slot: 'published',
          },
        },
      ],
    });
    // The answer is recorded right after the receiver sent it.
    let health: string | undefined;
    for (let i = 0; i < 100 && health !== 'working'; i += 1) {
      health = (await client.getWebhook().byId(hook.data.id).toPromise()).data.healthStatus;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(health).toBe('working');
    const debug = await mapi(`/webhooks-vnext/${hook.data.id}/notifications`, 'GET');
    expect(debug['notifications']).toMatchObject([{ state: 'delivered', attempts: 1, last_response_status: 200 }]);

    await mapi('/items/codename/hooked_one/variants/codename/default/unpublish-and-archive', 'PUT');
    await receiver.waitFor(2);

    const metrics = await (await fetch(`${server.urls.management}/metrics`)).text();
    expect(metrics).toMatch(/^lectern_webhooks\{health="working"\} 1$/m);
    expect(metrics).toMatch(/^lectern_webhook_attempts_total\{outcome="accepted"\} [1-9]/m);
    expect(metrics).toMatch(/^lectern_webhook_notifications\{state="delivered"\} [1-9]/m);
    expect(metrics).toMatch(/^lectern_webhook_delivery_latency_seconds_count [1-9]/m);
    expect((receiver.received[1]!.json['notifications'] as { message: { action: string } }[])[0]?.message.action).toBe(
      'unpublished',
    );
  });
});

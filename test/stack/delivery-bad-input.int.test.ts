import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from './test-stack.ts';

/*
 * Regression tests of issue 12 for Delivery and Preview on the SQL delivery index: bad input
 * answers 4xx in the SPEC 7.3 body (message, request_id, error_code, specific_code), never a 5xx
 * or Fastify's own body.
 */

let stack: TestStack;
const urls: Record<'delivery' | 'preview', string> = { delivery: '', preview: '' };

beforeAll(async () => {
  stack = await startTestStack({ deliveryHttp: { rateLimits: [] } });
  await stack.managementJson('/types', {
    body: { name: 'Article', codename: 'article', elements: [{ name: 'Title', codename: 'title', type: 'text' }] },
  });
  await stack.managementJson('/items', { body: { name: 'Home', codename: 'home', type: { codename: 'article' } } });
  await stack.managementJson('/items/codename/home/variants/codename/default', {
    method: 'PUT',
    body: { elements: [{ element: { codename: 'title' }, value: 'Home' }] },
  });
  await stack.managementJson('/items/codename/home/variants/codename/default/publish', { method: 'PUT' });
  await stack.catchUp();
  urls.delivery = await stack.delivery.listen({ host: '127.0.0.1', port: 0 });
  urls.preview = await stack.preview.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await stack.close();
});

async function get(api: 'delivery' | 'preview', path: string, method = 'GET') {
  const response = await fetch(`${urls[api]}/${stack.projectId}${path}`, {
    method,
    headers: api === 'preview' ? { authorization: `Bearer ${stack.previewKey}` } : {},
  });
  const text = await response.text();
  return { status: response.status, text, json: text === '' ? null : (JSON.parse(text) as Record<string, unknown>) };
}

function expectDeliveryError(json: unknown, status: number, actual: number): void {
  expect(actual).toBe(status);
  expect(json).toEqual({
    message: expect.any(String),
    request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    error_code: expect.any(Number),
    specific_code: 0,
  });
  expect((json as { error_code: number }).error_code).toBeGreaterThan(0);
}

describe.each(['delivery', 'preview'] as const)('bad input on %s', (api) => {
  it('answers U+0000 in a filter value or codename with 400 (was 500)', async () => {
    for (const path of [
      '/items?system.type=%00',
      '/items?elements.title[contains]=a%00',
      '/items/nx%00x/used-in',
      '/items/home%00',
      '/types/article%00',
      '/taxonomies/%00',
      '/items-feed?system.codename[in]=home,%00',
    ]) {
      const { status, json } = await get(api, path);
      expectDeliveryError(json, 400, status);
      expect(String(json?.['message'])).toContain('U+0000');
    }
  });

  it("answers malformed percent-encoding in the path with 400 in its own body (was Fastify's)", async () => {
    const { status, json } = await get(api, '/items/%E0%A4%A');
    expectDeliveryError(json, 400, status);
    expect(String(json?.['message'])).toContain('%E0%A4%A');
  });

  it('answers a path segment over 100 characters in its own body (was a 414 in Fastify’s)', async () => {
    const item = await get(api, `/items/${'a'.repeat(101)}`);
    expectDeliveryError(item.json, 404, item.status);
    const longer = await get(api, `/items/${'a'.repeat(201)}`);
    expectDeliveryError(longer.json, 400, longer.status);
  });

  it('answers a URL over 16 KiB with 431 in its own body, and HEAD with no body', async () => {
    const path = `/items?system.type=${'a'.repeat(17_000)}`;
    const long = await get(api, path);
    expectDeliveryError(long.json, 431, long.status);
    const head = await get(api, path, 'HEAD');
    expect(head.status).toBe(431);
    expect(head.text).toBe('');
  });

  it('still serves well-formed requests', async () => {
    const { status, json } = await get(api, '/items/home');
    expect(status).toBe(200);
    expect((json?.['item'] as { system: { codename: string } }).system.codename).toBe('home');
  });
});

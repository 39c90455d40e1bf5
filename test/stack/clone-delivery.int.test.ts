import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from './test-stack.ts';

/* A cloned environment is served by Delivery once the indexer has caught up with it. */

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
  await stack.managementJson('/types', {
    method: 'POST',
    body: { name: 'Page', codename: 'page', elements: [{ name: 'Title', codename: 'title', type: 'text' }] },
  });
  await stack.managementJson('/items', {
    method: 'POST',
    body: { name: 'Home', codename: 'home', type: { codename: 'page' } },
  });
  await stack.managementJson('/items/codename/home/variants/codename/default', {
    method: 'PUT',
    body: { elements: [{ element: { codename: 'title' }, value: 'Welcome' }] },
  });
  await stack.managementJson('/items/codename/home/variants/codename/default/publish', { method: 'PUT' });
});
afterAll(async () => {
  await stack.close();
});

describe('Delivery of a cloned environment', () => {
  it('serves the published items of the clone with the clone key, and the source is unchanged', async () => {
    const clone = await stack.managementJson('/clone-environment', { method: 'POST', body: { name: 'Staging' } });
    const id = clone['id'] as string;
    const key = clone['management_api_key'] as string;
    let state = 'in_progress';
    for (let i = 0; i < 200 && state === 'in_progress'; i += 1) {
      await new Promise((r) => setTimeout(r, 25));
      const res = await fetch(`${stack.managementBaseUrl}/projects/${id}/environment-cloning-state`, {
        headers: { authorization: `Bearer ${key}` },
      });
      state = ((await res.json()) as { cloning_state: string }).cloning_state;
    }
    expect(state).toBe('done');
    await stack.indexer.catchUp(id);
    const res = await stack.delivery.inject({ url: `/${id}/items` });
    expect(res.statusCode).toBe(200);
    const items = (res.json() as { items: { system: { codename: string }; elements: { title: { value: string } } }[] })
      .items;
    expect(items.map((i) => [i.system.codename, i.elements.title.value])).toEqual([['home', 'Welcome']]);
    const preview = await stack.preview.inject({
      url: `/${id}/items/home`,
      headers: { authorization: `Bearer ${clone['delivery_preview_api_key'] as string}` },
    });
    expect(preview.statusCode).toBe(200);
  });

  it('deletes a non-production environment with everything under it; the production one refuses (233)', async () => {
    const clone = await stack.managementJson('/clone-environment', { method: 'POST', body: { name: 'Short-lived' } });
    const id = clone['id'] as string;
    const key = clone['management_api_key'] as string;
    const send = (path: string, method = 'GET', k = key) =>
      fetch(`${stack.managementBaseUrl}/projects/${id}${path}`, { method, headers: { authorization: `Bearer ${k}` } });
    for (let i = 0; i < 200; i += 1) {
      const state = ((await (await send('/environment-cloning-state')).json()) as { cloning_state: string })
        .cloning_state;
      if (state !== 'in_progress') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    await stack.indexer.catchUp(id);
    expect((await stack.delivery.inject({ url: `/${id}/items` })).statusCode).toBe(200);
    expect((await send('', 'DELETE')).status).toBe(204);
    expect((await send('/items')).status).toBe(401);
    await stack.indexer.catchUp(id);
    const gone = await stack.delivery.inject({ url: `/${id}/items` });
    expect(gone.statusCode).toBe(404);
    const production = await stack.managementFetch('', { method: 'DELETE' });
    expect(production.status).toBe(400);
    expect(((await production.json()) as { error_code: number }).error_code).toBe(233);
    expect((await stack.managementFetch('/items')).status).toBe(200);
  });
});

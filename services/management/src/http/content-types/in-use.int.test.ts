import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

let server: TestManagement;
beforeAll(async () => {
  server = await startTestManagement();
});
afterAll(async () => {
  await server.close();
});

const json = (body: unknown) => ({ method: 'POST', body: JSON.stringify(body) });

describe('model objects that content items use', () => {
  it('refuses to delete a content type while items of it exist', async () => {
    const type = await server.fetch(
      '/types',
      json({ name: 'Page', codename: 'page', elements: [{ name: 'Title', codename: 'title', type: 'text' }] }),
    );
    expect(type.status).toBe(201);
    const item = (await server
      .fetch('/items', json({ name: 'Home', type: { codename: 'page' } }))
      .then((r) => r.json())) as { id: string };
    const refused = await server.fetch('/types/codename/page', { method: 'DELETE' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /still used by 1 content item\(s\) \('home'\)/,
    );
    expect((await server.fetch('/types/codename/page')).status).toBe(200);
    expect((await server.fetch(`/items/${item.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await server.fetch('/types/codename/page', { method: 'DELETE' })).status).toBe(204);
  });

  it('refuses to remove a collection that holds items', async () => {
    const added = await server.fetch('/collections', {
      method: 'PATCH',
      body: JSON.stringify([{ op: 'addInto', value: { name: 'Blog', codename: 'blog' } }]),
    });
    expect(added.status).toBe(200);
    await server.fetch(
      '/types',
      json({ name: 'Post', codename: 'post', elements: [{ name: 'Title', codename: 'title', type: 'text' }] }),
    );
    const item = await server.fetch(
      '/items',
      json({ name: 'First post', type: { codename: 'post' }, collection: { codename: 'blog' } }),
    );
    expect(item.status).toBe(201);
    const refused = await server.fetch('/collections', {
      method: 'PATCH',
      body: JSON.stringify([{ op: 'remove', reference: { codename: 'blog' } }]),
    });
    expect(refused.status).toBe(400);
    const listed = (await server.fetch('/collections').then((r) => r.json())) as {
      collections: { codename: string }[];
    };
    expect(listed.collections.map((c) => c.codename)).toContain('blog');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from './test-stack.ts';

let stack: TestStack;

async function post(path: string, body: unknown, method = 'POST'): Promise<Record<string, unknown>> {
  const response = await stack.managementFetch(path, { method, body: JSON.stringify(body) });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${path}: ${response.status} ${text}`);
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack.close();
});

describe('test stack', () => {
  it('indexes an item written through Management: preview at once, production after publishing', async () => {
    await post('/types', {
      name: 'Note',
      codename: 'note',
      elements: [{ name: 'Title', codename: 'title', type: 'text' }],
    });
    await post('/items', { name: 'First', codename: 'first', type: { codename: 'note' } });
    await post(
      '/items/codename/first/variants/codename/default',
      { elements: [{ element: { codename: 'title' }, value: 'Hello' }] },
      'PUT',
    );
    await stack.catchUp();
    const query = {
      projectId: stack.projectId,
      languages: ['default'],
      filters: [],
      order: null,
      skip: 0,
      limit: null,
      isTotalCountNeeded: true,
    };
    const preview = await stack.index.queryItems({ ...query, channel: 'preview' });
    expect(preview.items.map((i) => i.item.elements['title']?.value)).toEqual(['Hello']);
    expect((await stack.index.queryItems({ ...query, channel: 'production' })).totalCount).toBe(0);
    await post('/items/codename/first/variants/codename/default/publish', undefined, 'PUT');
    await stack.catchUp();
    const published = await stack.index.queryItems({ ...query, channel: 'production' });
    expect(published.items[0]?.item.system).toMatchObject({
      codename: 'first',
      type: 'note',
      workflow_step: 'published',
    });
    expect(await stack.index.watermark(stack.projectId)).toBe(
      await stack.core.store.transaction((tx) => tx.outbox.latestSeq(stack.projectId)),
    );
  });
});

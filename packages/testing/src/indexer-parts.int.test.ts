import { describe, expect, it } from 'vitest';
import {
  addContentType,
  addItem,
  createIndexer,
  operator,
  publishVariant,
  upsertVariant,
  type DeliveryChannel,
  type ItemQuery,
} from '@lectern/core';
import { createSqlIndex } from '@lectern/index-sql';
import { openTestCore, seedProject } from './test-core.ts';

describe('an index written in parts', () => {
  it('holds every item in both channels, the watermark at the latest event, and Sync sees each once', async () => {
    const core = await openTestCore();
    const { projectId } = await seedProject(core, []);
    const input = { actor: operator, projectId };
    await addContentType(core, {
      ...input,
      body: { name: 'Note', codename: 'note', elements: [{ name: 'N', codename: 'n', type: 'number' }] },
    });
    const count = 23;
    for (let i = 0; i < count; i += 1) {
      const codename = `note_${String(i).padStart(2, '0')}`;
      await addItem(core, { ...input, body: { name: codename, codename, type: { codename: 'note' } } });
      const key = { itemKey: { codename }, languageKey: { codename: 'default' } };
      await upsertVariant(core, { ...input, ...key, body: { elements: [{ element: { codename: 'n' }, value: i }] } });
      if (i % 2 === 0) await publishVariant(core, { ...input, ...key });
    }
    const index = createSqlIndex({ db: core.store.db });
    const indexer = createIndexer({ core, index, assetsBase: 'http://x/assets', partSize: 4 });
    const latest = await core.store.transaction((tx) => tx.outbox.latestSeq(projectId));
    const query = (channel: DeliveryChannel): ItemQuery => ({
      projectId,
      channel,
      languages: ['default'],
      filters: [{ property: 'elements.n', operator: 'gte', values: ['0'] }],
      order: { property: 'elements.n', direction: 'asc' },
      skip: 0,
      limit: null,
      isTotalCountNeeded: true,
    });
    const check = async () => {
      expect(await index.watermark(projectId)).toBe(latest);
      const preview = await index.queryItems(query('preview'));
      expect(preview.items.map((v) => v.item.elements['n']?.value)).toEqual([...Array(count).keys()]);
      expect((await index.queryItems(query('production'))).totalCount).toBe(Math.ceil(count / 2));
      const changes = await index.changesSince({ projectId, channel: 'preview', afterSeq: 0, limit: 1_000 });
      expect(new Set(changes.map((c) => c.itemCodename)).size).toBe(count);
      expect(changes.every((c) => c.seq === latest)).toBe(true);
    };
    await indexer.catchUp(projectId);
    await check();
    await indexer.rebuild({ projectId });
    await check();
    await core.store.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHashedEmbedder,
  addLanguage,
  createNewVersion,
  createRecsConsumer,
  operator,
  publishVariant,
  parseRecsQuery,
  randomIds,
  unpublishVariant,
  upsertVariant,
  type RecommendQuery,
  type RecsIndexWriter,
  type RecsReader,
  type RecsTracking,
} from '@lectern/core';
import type { SqlStore } from '@lectern/store-sql';
import { generateCorpus, writeArticle, writeCorpus } from '@lectern/recs-sql';
import { createTestClock } from './test-clock.ts';
import { seedProject } from './test-core.ts';

/** A recommendation index under test: its ports on a migrated store. */
export interface OpenedRecsIndex {
  readonly store: SqlStore;
  readonly recs: { readonly writer: RecsIndexWriter; readonly reader: RecsReader; readonly tracking: RecsTracking };
  close(): Promise<void>;
}

/**
 * The behaviour every recommendation index adapter shares (issue 16): filled by the
 * recommendation consumer from a generated corpus, then read through `RecsReader`.
 */
export function describeRecsIndexContract(name: string, open: () => Promise<OpenedRecsIndex>): void {
  describe(`the recommendation index on ${name}`, () => {
    const corpus = generateCorpus({ perTopic: 6 });
    const embedder = createHashedEmbedder();
    let opened: OpenedRecsIndex;
    let store: SqlStore;
    let recs: OpenedRecsIndex['recs'];
    let projectId: string;
    let core: { store: SqlStore; clock: ReturnType<typeof createTestClock>; ids: typeof randomIds };
    let consumer: ReturnType<typeof createRecsConsumer>;
    const ask = (q: Partial<RecommendQuery> & { currentItemCodename: string }) =>
      recs.reader.recommend({
        projectId,
        requestedType: 'article',
        limit: 5,
        scenario: 'similar',
        filter: null,
        booster: null,
        nowMs: Date.now(),
        ...q,
      });

    beforeAll(async () => {
      opened = await open();
      ({ store, recs } = opened);
      core = { store, clock: createTestClock(), ids: randomIds };
      ({ projectId } = await seedProject(core, []));
      await writeCorpus(core, { projectId, items: corpus });
      await writeArticle(core, {
        projectId,
        item: {
          codename: 'space_draft',
          name: 'rocket orbit',
          topic: 'space',
          persona: 'owner',
          body: 'rocket orbit mars',
        },
        isPublished: false,
      });
      consumer = createRecsConsumer({ core, writer: recs.writer, embedder, batchSize: 7 });
      await consumer.catchUp(projectId);
    });
    afterAll(() => opened?.close());

    it('holds one entry per published item with its persona as a property, at the latest event', async () => {
      expect((await recs.writer.indexedItemIds(projectId)).length).toBe(corpus.length);
      // The entry count that weighs a search's words (IDF) follows the entries.
      expect((await recs.reader.termStats({ projectId, terms: [] })).documents).toBe(corpus.length);
      const latest = await store.transaction((tx) => tx.outbox.latestSeq(projectId));
      expect(await recs.writer.watermark(projectId)).toBe(latest);
      const filter = parseRecsQuery(`"persona=${corpus[0]!.persona}" in 'properties'`, 'filter');
      const got = await ask({ currentItemCodename: 'none', filter, limit: 100 });
      const want = corpus.filter((c) => c.persona === corpus[0]!.persona).map((c) => c.codename);
      expect(got.sort()).toEqual(want.sort());
    });

    it('recommends similar items of the same topic first, never the current item nor an unpublished one', async () => {
      for (const topic of ['space', 'cooking', 'music']) {
        const current = `${topic}_00000`;
        const got = await ask({ currentItemCodename: current });
        expect(got).toHaveLength(5);
        expect(got).not.toContain(current);
        expect(got).not.toContain('space_draft');
        expect(got.filter((c) => c.startsWith(topic)).length).toBeGreaterThanOrEqual(3);
      }
    });

    it('filters inside the search: the limit counts only items that pass', async () => {
      const filter = parseRecsQuery(
        `'name' != "x" AND NOT ("persona=developer" in 'properties') and 'lastupdated' <= now()`,
        'filter',
      );
      const got = await ask({ currentItemCodename: 'space_00000', filter, limit: 8 });
      expect(got).toHaveLength(8);
      const personas = new Map(corpus.map((c) => [c.codename, c.persona]));
      expect(got.every((c) => personas.get(c) !== 'developer')).toBe(true);
    });

    it('lets a booster reorder: if … then … else multiplies the score', async () => {
      const booster = parseRecsQuery(
        `if "persona=marketer" in 'properties' and 'type' == "article" then 10 else 1`,
        'booster',
      );
      const got = await ask({ currentItemCodename: 'space_00000', booster, limit: 3 });
      const marketers = corpus.filter((c) => c.persona === 'marketer' && c.codename !== 'space_00000').length;
      const personas = new Map(corpus.map((c) => [c.codename, c.persona]));
      expect(got.filter((c) => personas.get(c) === 'marketer').length).toBe(Math.min(3, marketers));
    });

    it('orders popular items by visits, decayed with time', async () => {
      const at = new Date();
      const visit = (codename: string, n: number, when = at) =>
        Promise.all(
          Array.from({ length: n }, (_, i) =>
            recs.tracking.recordVisit({ projectId, visitId: `v${i}`, codename, kind: 'visit', at: when }),
          ),
        );
      await visit('music_00003', 5);
      await visit('finance_00001', 3);
      // Eight visits five weeks ago weigh 8 / 32 = 0.25 today.
      await visit('cooking_00002', 8, new Date(at.getTime() - 35 * 86_400_000));
      const got = await ask({ currentItemCodename: 'none', scenario: 'popular', limit: 3 });
      expect(got).toEqual(['music_00003', 'finance_00001', 'cooking_00002']);
    });

    it('blends similarity and popularity in the default scenario', async () => {
      // After the visits above: the much-visited items of other topics lead, the same topic follows.
      const got = await ask({ currentItemCodename: 'space_00000', scenario: 'default', limit: 5 });
      expect(got.slice(0, 2)).toEqual(['music_00003', 'finance_00001']);
      expect(got.slice(2).every((c) => c.startsWith('space'))).toBe(true);
    });

    it('searches by meaning and words', async () => {
      const got = await recs.reader.search({
        projectId,
        text: 'sourdough flour oven',
        embedding: (await embedder.embed(['sourdough flour oven']))[0]!,
        requestedType: 'article',
        limit: 5,
      });
      expect(got.filter((c) => c.startsWith('cooking')).length).toBeGreaterThanOrEqual(4);
    });

    it('removes an unpublished item at the next event batch', async () => {
      const key = { itemKey: { codename: 'space_00001' }, languageKey: { codename: 'default' } };
      await unpublishVariant(core, { actor: operator, projectId, ...key });
      await consumer.catchUp(projectId);
      const got = await ask({ currentItemCodename: 'space_00000', limit: 100 });
      expect(got).not.toContain('space_00001');
      expect(got).toContain('space_00002');
      expect((await recs.reader.termStats({ projectId, terms: [] })).documents).toBe(corpus.length - 1);
    });

    it('renders nothing for a draft of a published item: the published text stays what is recommended', async () => {
      const key = { itemKey: { codename: 'space_00002' }, languageKey: { codename: 'default' } };
      const applied: number[] = [];
      const writer: RecsIndexWriter = {
        ...recs.writer,
        apply: (batch) => {
          applied.push(batch.items.length);
          return recs.writer.apply(batch);
        },
      };
      const drafts = createRecsConsumer({ core, writer, embedder, batchSize: 7 });
      await createNewVersion(core, { actor: operator, projectId, ...key });
      await upsertVariant(core, {
        actor: operator,
        projectId,
        ...key,
        body: { elements: [{ element: { codename: 'body' }, value: '<p>flour butter oven dough</p>' }] },
      });
      await drafts.catchUp(projectId);
      // The watermark moved over both events, with no item rendered or written again.
      expect(applied).toEqual([0]);
      const latest = await store.transaction((tx) => tx.outbox.latestSeq(projectId));
      expect(await recs.writer.watermark(projectId)).toBe(latest);
      expect(await ask({ currentItemCodename: 'space_00000', limit: 4 })).toContain('space_00002');
      // Publishing the draft is what changes the entry.
      await publishVariant(core, { actor: operator, projectId, ...key });
      await drafts.catchUp(projectId);
      expect(applied.at(-1)).toBe(1);
      const cooking = await ask({ currentItemCodename: 'cooking_00000', limit: 100 });
      expect(cooking.indexOf('space_00002')).toBeLessThan(cooking.indexOf('space_00003'));
    });

    it('counts an item in several languages once and still fills the limit', async () => {
      for (const codename of ['cz', 'de']) {
        await addLanguage(core, { actor: operator, projectId, body: { name: codename, codename } });
        for (const item of corpus.filter((c) => c.codename !== 'space_00001')) {
          const key = { itemKey: { codename: item.codename }, languageKey: { codename } };
          await upsertVariant(core, {
            actor: operator,
            projectId,
            ...key,
            body: { elements: [{ element: { codename: 'body' }, value: `<p>${item.body}</p>` }] },
          });
          await publishVariant(core, { actor: operator, projectId, ...key });
        }
      }
      await consumer.catchUp(projectId);
      // Three entries of every item, the nearest ones side by side: eight distinct items need 24.
      const got = await ask({ currentItemCodename: 'space_00000', limit: 8 });
      expect(new Set(got).size).toBe(8);
      expect(got).not.toContain('space_00000');
    });
  });
}

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createHashedEmbedder, createRecsConsumer, parseRecsQuery, randomIds } from '@lectern/core';
import { connectSearchEngine } from '@lectern/search-engine';
import { openSearchRecs } from '@lectern/engines';
import type { OpenedRecs } from '@lectern/recs-search';
import { createSqlRecs, generateCorpus, writeCorpus, type SqlRecs } from '@lectern/recs-sql';
import { openPostgresStore, type SqlStore } from '@lectern/store-sql';
import { createTestClock, createTestDatabase, seedProject } from '@lectern/testing';

/**
 * The k-NN index's filters (compiled to the query DSL, with Painless for arithmetic on
 * properties) and boosters (evaluated on the candidates) against the SQL adapter's, on the same
 * entries: the writer fills both.
 */
describe('OpenSearch k-NN filters and boosters mean what the SQL ones mean', () => {
  const corpus = generateCorpus({ perTopic: 8 });
  let store: SqlStore;
  let search: OpenedRecs;
  let sqlRecs: SqlRecs;
  let projectId: string;
  const nowMs = Date.now();

  beforeAll(async () => {
    store = await openPostgresStore({ connectionString: await createTestDatabase(inject('postgresUrl')) });
    const core = { store, clock: createTestClock(), ids: randomIds };
    ({ projectId } = await seedProject(core, []));
    await writeCorpus(core, { projectId, items: corpus });
    search = await openSearchRecs({
      engine: connectSearchEngine({ flavour: 'opensearch', url: inject('searchUrl') }),
      db: store.db,
      prefix: `recs-filters-${randomBytes(4).toString('hex')}`,
      dimensions: 512,
    });
    sqlRecs = await createSqlRecs({ db: store.db });
    await createRecsConsumer({ core, writer: search.writer, embedder: createHashedEmbedder() }).catchUp(projectId);
  });
  afterAll(async () => {
    await search?.close();
    await store?.close();
  });

  const filters = [
    `"persona=developer" in 'properties'`,
    `"persona=developer" not in 'properties' and not ('codename' == "space_00003")`,
    `'codename' in {"music_00001", "space_00002", "nothing"}`,
    `"00" in 'codename' and 'name' != ""`,
    `'lastupdated' <= now() or false`,
    `'lastupdated' + 1000 > now() - 86400000 * 365`,
    `if "persona=owner" in 'properties' then 'codename' < "m" else 'codename' >= "s"`,
    `('lastupdated' % 2 == 0) or ('lastupdated' % 2 == 1)`,
    `'lastupdated' / 0 > 1`,
    `1 > 2`,
    // Issue 27: membership in an if, an if in an if's condition, chains of % and of ors.
    `"persona=developer" in (if 'lastupdated' > 0 then 'properties' else {"x"})`,
    `"pace" in (if 'lastupdated' > 0 then 'codename' else "x")`,
    `if (if 'codename' < "m" then true else false) then 'lastupdated' % 3 == 0 else 'lastupdated' / 2 > 0`,
    `'lastupdated' % 7 + 'lastupdated' % 3 == 1 or 'lastupdated' % -7 < -3`,
    Array.from({ length: 50 }, (_, i) => `'codename' == "space_${String(i).padStart(5, '0')}"`).join(' or '),
  ];
  it.each(filters)('filter %s', async (text) => {
    const q = {
      projectId,
      currentItemCodename: 'space_00000',
      requestedType: 'article',
      limit: 200,
      scenario: 'similar' as const,
      filter: parseRecsQuery(text, 'filter'),
      booster: null,
      nowMs,
    };
    const [fromSearch, fromSql] = await Promise.all([search.reader.recommend(q), sqlRecs.reader.recommend(q)]);
    expect(fromSearch.sort()).toEqual(fromSql.sort());
  });

  it('a booster reorders as in SQL', async () => {
    const q = {
      projectId,
      currentItemCodename: 'cooking_00000',
      requestedType: 'article',
      limit: 6,
      scenario: 'similar' as const,
      filter: null,
      booster: parseRecsQuery(`if "persona=marketer" in 'properties' then 50 else -1`, 'booster'),
      nowMs,
    };
    const [fromSearch, fromSql] = await Promise.all([search.reader.recommend(q), sqlRecs.reader.recommend(q)]);
    expect(fromSearch).toEqual(fromSql);
    const personas = new Map(corpus.map((c) => [c.codename, c.persona]));
    expect(fromSearch.every((c) => personas.get(c) === 'marketer')).toBe(true);
  });
});

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createProject,
  createRecsConsumer,
  operator,
  randomIds,
  systemClock,
  type CoreDeps,
  type EmbeddingProvider,
} from '@lectern/core';
import { loadConfig } from '@lectern/config';
import { openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';
import {
  createSqlRecs,
  generateCorpus,
  openEmbedder,
  recsEmbeddingSettings,
  writeCorpus,
  type SqlRecs,
} from '@lectern/recs-sql';
import { createTestDatabase } from './test-database.ts';

// The recommendation engine with the ONNX provider (all-MiniLM-L6-v2, installed by
// scripts/lib/models.sh) as the settings open it: items embedded by the consumer, stored and
// searched by pgvector (PGlite) and by PostgreSQL; search queries embedded by the same model.
const config = loadConfig({ settings: recsEmbeddingSettings, env: { ...process.env, LECTERN_RECS_EMBEDDING: 'onnx' } });
const engines: [string, () => Promise<SqlStore>][] = [
  ['PGlite (pgvector)', () => openPgliteStore()],
  ['PostgreSQL', async () => openPostgresStore({ connectionString: await createTestDatabase(inject('postgresUrl')) })],
];

describe.each(engines)('recommendations with the ONNX provider on %s', (_, open) => {
  const corpus = generateCorpus({ perTopic: 6, borrowed: 4 });
  const topicOf = new Map(corpus.map((c) => [c.codename, c.topic]));
  let store: SqlStore;
  let recs: SqlRecs;
  let embedder: EmbeddingProvider;
  let projectId: string;

  beforeAll(async () => {
    embedder = await openEmbedder(config);
    store = await open();
    const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
    projectId = (await createProject(core, { actor: operator, name: 'Onnx' })).id;
    await writeCorpus(core, { projectId, items: corpus });
    recs = await createSqlRecs({ db: store.db });
    await createRecsConsumer({ core, writer: recs.writer, embedder }).catchUp(projectId);
  }, 180_000);
  afterAll(() => store?.close());

  it('recommends articles of the same topic as similar', async () => {
    let hits = 0;
    for (const item of corpus) {
      const got = await recs.reader.recommend({
        projectId,
        currentItemCodename: item.codename,
        requestedType: 'article',
        limit: 3,
        scenario: 'similar',
        filter: null,
        booster: null,
        nowMs: Date.now(),
      });
      expect(got).toHaveLength(3);
      expect(got).not.toContain(item.codename);
      hits += got.filter((c) => topicOf.get(c) === item.topic).length;
    }
    expect(hits / (corpus.length * 3)).toBeGreaterThan(0.8);
  });

  it('finds articles by meaning: queries of words that no article holds', async () => {
    const queries: [string, string][] = [
      ['cosmonauts on the moon', 'space'],
      ['violin singer', 'music'],
      ['soccer', 'football'],
      ['wall street banking', 'finance'],
    ];
    for (const [query, topic] of queries) {
      const [embedding] = await embedder.embed([query]);
      const got = await recs.reader.search({
        projectId,
        text: query,
        embedding: embedding!,
        requestedType: 'article',
        limit: 3,
      });
      expect({ query, topics: got.map((c) => topicOf.get(c)) }).toEqual({ query, topics: [topic, topic, topic] });
    }
  });
});

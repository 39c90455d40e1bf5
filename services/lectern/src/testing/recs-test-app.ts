import { createHashedEmbedder, createRecsConsumer } from '@lectern/core';
import { createLogger, createProcessMetrics, createReadiness } from '@lectern/http-kit';
import { buildRecommendationsApp } from '@lectern/recommendations';
import { createSqlRecs, generateCorpus, writeCorpus } from '@lectern/recs-sql';
import { openTestCore, seedProject, type TestCore } from '@lectern/testing';

/** A Recommendations app on in-memory PGlite: a project with a generated corpus, indexed, and its keys. */
export interface RecsTestApp {
  readonly core: TestCore;
  readonly app: ReturnType<typeof buildRecommendationsApp>;
  /** The project's recommendations key, and its delivery key (for wrong-kind tests). */
  readonly keys: { readonly recommendations: string; readonly delivery: string };
  close(): Promise<void>;
}

/** For tests: the corpus has `perTopic` items of each generated topic. */
export async function startRecsTestApp(options: { perTopic: number }): Promise<RecsTestApp> {
  const core = await openTestCore();
  const seeded = await seedProject(core, ['recommendations', 'delivery_primary']);
  await writeCorpus(core, { projectId: seeded.projectId, items: generateCorpus({ perTopic: options.perTopic }) });
  const recs = await createSqlRecs({ db: core.store.db });
  const embedder = createHashedEmbedder();
  await createRecsConsumer({ core, writer: recs.writer, embedder }).catchUp(seeded.projectId);
  const app = buildRecommendationsApp({
    metrics: createProcessMetrics(),
    readiness: createReadiness([]),
    logger: createLogger({ level: 'silent' }),
    engine: { core, reader: recs.reader, tracking: recs.tracking, embedder },
  });
  return {
    core,
    app,
    keys: { recommendations: seeded.keys.recommendations!.value, delivery: seeded.keys.delivery_primary!.value },
    async close() {
      await app.close();
      await core.store.close();
    },
  };
}

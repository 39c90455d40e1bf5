import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { loadConfig } from '@lectern/config';
import { createHashedEmbedder, createIndexer, indexRecsProject, listProjects, operator, randomIds, systemClock } from '@lectern/core';
import { openPgliteStore, openPostgresStore, type SqlStore } from '@lectern/store-sql';
import { lockDataDir, readServerInfo } from '../data-dir.ts';
import { startSettings } from '../settings.ts';

interface RebuildFlags {
  project?: string;
  dataDir?: string;
  databaseUrl?: string;
  assetsBase?: string;
  progress?: boolean;
  deliveryIndex?: string;
  searchUrl?: string;
  searchIndexPrefix?: string;
  recsIndex?: string;
}

/**
 * The delivery index settings of the CLI: the SQL index unless told otherwise (the embedded
 * shape's). Loaded on use: the search clients take a second or more to import, which every other
 * command would pay.
 */
async function loadIndexSupport() {
  const { deliveryIndexSettings, openDeliveryIndex } = await import('@lectern/engines');
  const settings = {
    ...deliveryIndexSettings,
    deliveryIndex: { ...deliveryIndexSettings.deliveryIndex, default: 'sql' },
  };
  return { settings, openDeliveryIndex };
}

/**
 * `lectern index rebuild`: drops the delivery index of one project (or all) and renders every
 * variant again from the store. The embedded database has one writer, so a server running on the
 * data directory must be stopped first.
 */
async function rebuild(flags: RebuildFlags): Promise<void> {
  const env = {
    ...process.env,
    ...(flags.dataDir === undefined ? {} : { LECTERN_DATA_DIR: flags.dataDir }),
    ...(flags.databaseUrl === undefined ? {} : { LECTERN_DATABASE_URL: flags.databaseUrl }),
    ...(flags.deliveryIndex === undefined ? {} : { LECTERN_DELIVERY_INDEX: flags.deliveryIndex }),
    ...(flags.searchUrl === undefined ? {} : { LECTERN_SEARCH_URL: flags.searchUrl }),
    ...(flags.searchIndexPrefix === undefined ? {} : { LECTERN_SEARCH_INDEX_PREFIX: flags.searchIndexPrefix }),
    ...(flags.recsIndex === undefined ? {} : { LECTERN_RECS_INDEX: flags.recsIndex }),
  };
  const config = loadConfig({ settings: startSettings, env });
  const support = await loadIndexSupport();
  const indexConfig = loadConfig({ settings: support.settings, env });
  const dataDir = resolve(config.dataDir);
  if (config.databaseUrl === undefined && readServerInfo(dataDir))
    throw new Error(`A Lectern server is running on ${dataDir}. Stop it first (Ctrl+C or SIGTERM), then rebuild.`);
  const lock = config.databaseUrl === undefined ? lockDataDir(dataDir) : null;
  let store: SqlStore | null = null;
  let delivery: ReturnType<typeof support.openDeliveryIndex> | null = null;
  try {
    store =
      config.databaseUrl === undefined
        ? await openPgliteStore({ dataDir: join(dataDir, 'pglite'), sharedBuffersMib: config.pgliteBuffersMib })
        : await openPostgresStore({ connectionString: config.databaseUrl });
    delivery = support.openDeliveryIndex({ config: indexConfig, db: store.db });
    const index = delivery.index;
    const assetsBase = flags.assetsBase ?? `http://${config.host}:${config.portBase}/assets`;
    const indexer = createIndexer({ core: { store, clock: systemClock, ids: randomIds }, index, assetsBase });
    const bar = new SingleBar(
      {
        format: 'Rebuilding the delivery index [{bar}] {value}/{total} items of project {project}/{projects}',
        noTTYOutput: flags.progress !== false,
      },
      Presets.shades_classic,
    );
    let projects = { done: 0, total: 0 };
    let isStarted = false;
    await indexer.rebuild({
      ...(flags.project === undefined ? {} : { projectId: flags.project }),
      onProgress: (done, total) => {
        projects = { done, total };
      },
      onItems: (done, total) => {
        const payload = { project: Math.min(projects.done + 1, projects.total), projects: projects.total };
        if (!isStarted) {
          bar.start(total, done, payload);
          isStarted = true;
        } else {
          bar.setTotal(total);
          bar.update(done, payload);
        }
      },
    });
    bar.stop();
    console.log(`The delivery index is rebuilt (${delivery.description}).`);
    await rebuildRecommendations({ store, env, projectId: flags.project });
  } finally {
    await delivery?.close();
    await store?.close();
    lock?.release();
  }
}

/**
 * Drops the recommendation index of one project (or all) and renders every published item into it
 * again (LECTERN_RECS_INDEX, LECTERN_SEARCH_URL, as the cluster's processes read them; the SQL
 * index unless told otherwise). Visits and tracking settings stay.
 */
async function rebuildRecommendations(options: {
  store: SqlStore;
  env: NodeJS.ProcessEnv;
  projectId: string | undefined;
}): Promise<void> {
  const { store } = options;
  const { recsIndexSettings, openRecsIndex } = await import('@lectern/engines');
  const settings = { ...recsIndexSettings, deliveryIndex: { ...recsIndexSettings.deliveryIndex, default: 'sql' } };
  const embedder = createHashedEmbedder();
  const recs = await openRecsIndex({
    config: loadConfig({ settings, env: options.env }),
    db: store.db,
    dimensions: embedder.dimensions,
  });
  try {
    const core = { store, clock: systemClock, ids: randomIds };
    const projectIds =
      options.projectId === undefined
        ? (await listProjects(core, { actor: operator })).map((p) => p.id)
        : [options.projectId];
    for (const projectId of projectIds) {
      await recs.reset(projectId);
      await indexRecsProject({ core, writer: recs.writer, embedder, projectId, batchSize: 200 });
    }
    console.log(`The recommendation index is rebuilt (${recs.description}, ${projectIds.length} projects).`);
  } finally {
    await recs.close();
  }
}

export function registerIndex(program: Command): void {
  const index = program.command('index').description('Maintain the delivery index (what the Delivery APIs read).');
  index
    .command('rebuild')
    .description(
      'Drop the delivery index and the recommendation index and render every variant again from the content store. Stop a server running on the data directory first.',
    )
    .option('--project <id>', 'only this project (default: every project)')
    .option('--data-dir <dir>', 'data directory of the embedded database (env LECTERN_DATA_DIR)')
    .option('--database-url <url>', 'PostgreSQL URL instead of the embedded database (env LECTERN_DATABASE_URL)')
    .option('--assets-base <url>', 'public URL prefix of asset binaries (default http://<host>:<port base>/assets)')
    .option('--no-progress', 'no progress bar')
    .option(
      '--delivery-index <kind>',
      'sql (default), opensearch or elasticsearch: the index to rebuild (env LECTERN_DELIVERY_INDEX); a search index is written into a new index, then its alias is swapped',
    )
    .option('--search-url <url>', 'search engine URL, for opensearch and elasticsearch (env LECTERN_SEARCH_URL)')
    .option('--search-index-prefix <prefix>', 'start of the index names (env LECTERN_SEARCH_INDEX_PREFIX)')
    .option(
      '--recs-index <kind>',
      'auto (default), opensearch or sql: the recommendation index to rebuild (env LECTERN_RECS_INDEX; auto: opensearch with --delivery-index opensearch)',
    )
    .action(async (flags: RebuildFlags) => {
      await rebuild(flags);
    });
}

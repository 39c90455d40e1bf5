import { runServiceMain } from '@lectern/http-kit';
import { openPostgresStore } from '@lectern/store-sql';
import { migrateSettings } from './settings.ts';

// The `migrate` entry of the cluster shape (the Helm chart's pre-install/pre-upgrade Job): applies
// every pending store migration to PostgreSQL, then exits 0. Opening the store migrates, serialized
// in PostgreSQL, so it may run beside services that are starting.
await runServiceMain({
  name: 'migrate',
  summary:
    'applies every pending migration of the store (and the SQL delivery index) to PostgreSQL, then exits. ' +
    'A database migrated by a newer Lectern is refused (exit 1).',
  settings: migrateSettings,
  async start(config, { logger, step }) {
    const store = await step('cannot migrate PostgreSQL (check LECTERN_DATABASE_URL)', () =>
      openPostgresStore({ connectionString: config.databaseUrl, poolSize: 1 }),
    );
    await store.close();
    logger.info('migrations applied');
  },
});

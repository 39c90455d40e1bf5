// Server process of the Management paging benchmark (scripts/bench/management-paging.ts starts it):
// the Management API alone (no Delivery, no indexer, nothing in the background) on the PGlite
// database of a data directory, on a free loopback port, with the rate limits off. Prints one line
// {"url": …} when it listens; SIGTERM closes the listener and the database.
// Run: node scripts/bench/management-paging-server.ts --data-dir D
import { createServer } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { randomIds, systemClock } from '../../packages/core/src/index.ts';
import { createLogger, createProcessMetrics, createReadiness, listen } from '../../packages/http-kit/src/index.ts';
import { openPgliteStore } from '../../packages/store-sql/src/index.ts';
import { buildManagementApp } from '../../services/management/src/app.ts';

const { values: args } = parseArgs({ options: { 'data-dir': { type: 'string' } } });
if (args['data-dir'] === undefined) {
  console.error('Usage: node scripts/bench/management-paging-server.ts --data-dir D');
  process.exit(2);
}

const store = await openPgliteStore({ dataDir: join(args['data-dir'], 'pglite') });
const app = buildManagementApp({
  core: { store, clock: systemClock, ids: randomIds },
  metrics: createProcessMetrics(),
  readiness: createReadiness([() => store.ping()]),
  logger: createLogger({ level: 'silent' }),
  operatorToken: null,
  // Every request still counts against the limits (one query); none is refused.
  rateLimits: { perSecond: 1e9, perMinute: 1e9, perHour: 1e9 },
});
const listening = await listen(createServer(app), { host: '127.0.0.1', port: 0 });
console.log(JSON.stringify({ url: listening.url }));
process.once('SIGTERM', () => {
  void listening
    .close()
    .then(() => store.close())
    .then(() => process.exit(0));
});

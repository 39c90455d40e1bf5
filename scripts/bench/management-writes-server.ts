// Server process of the Management writes benchmark (scripts/bench/management-writes.ts starts
// it): the Management API alone on PGlite (a data directory) or PostgreSQL, rate limits off (the
// settings' 0), on a free loopback port. Creates one project with an Article type and a
// management key, then prints one line {"url", "projectId", "key"}. With --log-sql F it appends
// every SQL statement it runs to F (one per line), to count the statements of one request.
// SIGTERM closes the listener and the database.
// Run: node scripts/bench/management-writes-server.ts (--data-dir D | --database-url U) [--pool N] [--log-sql F]
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  addContentType,
  createApiKey,
  createProject,
  operator,
  randomIds,
  systemClock,
} from '../../packages/core/src/index.ts';
import { createLogger, createProcessMetrics, createReadiness, listen } from '../../packages/http-kit/src/index.ts';
import { openPgliteStore, openPostgresStore, type StatementListener } from '../../packages/store-sql/src/index.ts';
import { buildManagementApp } from '../../services/management/src/app.ts';

const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'database-url': { type: 'string' },
    pool: { type: 'string', default: '10' },
    'log-sql': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help || (args['data-dir'] === undefined) === (args['database-url'] === undefined)) {
  console.error(
    'Usage: node scripts/bench/management-writes-server.ts (--data-dir D | --database-url U) [--pool N] [--log-sql F]',
  );
  process.exit(args.help ? 0 : 2);
}

const logFile = args['log-sql'];
const onStatement: StatementListener | undefined = logFile
  ? (statement) => appendFileSync(logFile, `${statement.replace(/\s+/g, ' ')}\n`)
  : undefined;
// Statements are counted per request: the background analyzer's would be counted with them.
const analyzer = logFile ? { autoAnalyzeMs: 0 } : {};
const store =
  args['database-url'] === undefined
    ? await openPgliteStore({ dataDir: join(args['data-dir'] as string, 'pglite'), onStatement, ...analyzer })
    : await openPostgresStore({
        connectionString: args['database-url'],
        poolSize: Number(args.pool),
        onStatement,
        ...analyzer,
      });
const core = { store, clock: systemClock, ids: randomIds };
const project = await createProject(core, { actor: operator, name: 'Management writes' });
const input = { actor: operator, projectId: project.id };
await addContentType(core, {
  ...input,
  body: {
    name: 'Article',
    codename: 'article',
    elements: [
      { name: 'Title', codename: 'title', type: 'text' },
      { name: 'Rank', codename: 'rank', type: 'number' },
      { name: 'Summary', codename: 'summary', type: 'text' },
      { name: 'Body', codename: 'body', type: 'rich_text' },
    ],
  },
});
const key = await createApiKey(core, { ...input, kind: 'management', userEmail: 'bench@example.com' });
const app = buildManagementApp({
  core,
  metrics: createProcessMetrics(),
  readiness: createReadiness([() => store.ping()]),
  logger: createLogger({ level: 'silent' }),
  operatorToken: null,
  // What LECTERN_MANAGEMENT_PER_SECOND=0 (and per minute, per hour) configures: no limit.
  rateLimits: { perSecond: Infinity, perMinute: Infinity, perHour: Infinity },
});
const listening = await listen(createServer(app), { host: '127.0.0.1', port: 0 });
console.log(JSON.stringify({ url: listening.url, projectId: project.id, key: key.secret }));
process.once('SIGTERM', () => {
  void listening
    .close()
    .then(() => store.close())
    .then(() => process.exit(0));
});

// Governance write-cost benchmark (issue 31): what the audit log and the version history cost on
// the write path. For each engine and each configuration, a fresh database, a
// project with one type (a text and a rich text element) and 50 items; then `--saves` variant
// upserts (PUT …/items/{item}/variants/{language}, Management API v2, a management key, rate
// limits off) from `--concurrency` clients over HTTP to an in-process Management app, round-robin
// over the items. Prints upserts per second and the storage the saves added (every table of the
// schema, and the audit log's share), scaled to 10,000 saves. Asserts nothing.
//
// A configuration switches the governance writes: `audit` is LECTERN_AUDIT (the store's
// `isAuditOn`); `history=off` makes the version history's repository a no-op (no setting turns it
// off in a deployment; this measures what it costs).
// Run: pnpm run bench:governance-writes -- [--engines pglite,postgres] [--saves 2000]
//        [--concurrency 4] [--configs audit=off+history=off,audit=on]
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type * as Kysely from 'kysely';
import {
  addContentType,
  addItem,
  createApiKey,
  createProject,
  operator,
  randomIds,
  systemClock,
} from '../../packages/core/src/index.ts';
import { createLogger, createProcessMetrics, createReadiness, listen } from '../../packages/http-kit/src/index.ts';
import { openPgliteStore, openPostgresStore, type SqlStore } from '../../packages/store-sql/src/index.ts';
import { createTestDatabase } from '../../packages/testing/src/test-database.ts';
import { buildManagementApp } from '../../services/management/src/app.ts';
import { startPostgres } from '../../test/engines/postgres.ts';
import { withoutHistory } from './without-history.ts';

// kysely is a dependency of the store package, not of the workspace root this script runs from.
const { sql } = createRequire(new URL('../../packages/store-sql/package.json', import.meta.url))(
  'kysely',
) as typeof Kysely;

const argv = process.argv.slice(2);
const { values: args } = parseArgs({
  args: argv[0] === '--' ? argv.slice(1) : argv,
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    saves: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '4' },
    configs: { type: 'string', default: 'audit=off+history=off,history=off,audit=off,audit=on' },
    warmup: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '3' },
  },
});
const engines = args.engines.split(',') as ('pglite' | 'postgres')[];
const saves = Number(args.saves);
const warmup = Number(args.warmup);
const concurrency = Number(args.concurrency);
const rounds = Number(args.rounds);

/** A configuration: `audit=on` or `audit=off+history=off` (switches not named keep their default, on). */
interface Config {
  readonly label: string;
  readonly audit: boolean;
  readonly history: boolean;
}
const configs: Config[] = args.configs.split(',').map((label) => {
  const switches = Object.fromEntries(label.split('+').map((s) => s.split('=') as [string, string]));
  return { label, audit: switches['audit'] !== 'off', history: switches['history'] !== 'off' };
});
const itemCount = 50;

/** The store options of a configuration: what LECTERN_AUDIT maps to (history is switched in `measure`). */
function storeOptions(config: Config) {
  return { isAuditOn: config.audit };
}

/** Bytes of every table (with its indexes and TOAST) of the schema, and of the audit log. */
async function storage(store: SqlStore): Promise<{ total: number; audit: number }> {
  const { rows } = await sql<{ total: string | number; audit: string | number }>`
    select coalesce(sum(pg_total_relation_size(c.oid)), 0) as total,
           coalesce(sum(pg_total_relation_size(c.oid)) filter (where c.relname = 'audit_log'), 0) as audit
    from pg_class c where c.relkind = 'r' and c.relnamespace = 'public'::regnamespace`.execute(store.db);
  return { total: Number(rows[0]?.total ?? 0), audit: Number(rows[0]?.audit ?? 0) };
}

async function measure(engine: string, store: SqlStore, config: Config) {
  const core = { store: config.history ? store : withoutHistory(store), clock: systemClock, ids: randomIds };
  const project = await createProject(core, { actor: operator, name: 'Governance writes' });
  const input = { actor: operator, projectId: project.id };
  await addContentType(core, {
    ...input,
    body: {
      name: 'Article',
      codename: 'article',
      elements: [
        { name: 'Title', codename: 'title', type: 'text' },
        { name: 'Body', codename: 'body', type: 'rich_text' },
      ],
    },
  });
  for (let i = 0; i < itemCount; i++)
    await addItem(core, {
      ...input,
      body: { name: `Article ${i}`, codename: `article_${i}`, type: { codename: 'article' } },
    });
  const key = await createApiKey(core, { ...input, kind: 'management', userEmail: 'bench@example.com' });
  const app = buildManagementApp({
    core,
    metrics: createProcessMetrics(),
    readiness: createReadiness([() => store.ping()]),
    logger: createLogger({ level: 'silent' }),
    operatorToken: null,
    // Every request still counts against the limits (one query, as in a deployment); none is refused.
    rateLimits: { perSecond: 1e9, perMinute: 1e9, perHour: 1e9 },
  });
  const server = await listen(createServer(app), { host: '127.0.0.1', port: 0 });
  let next = 0;
  const save = async (n: number) => {
    const response = await fetch(
      `${server.url}/v2/projects/${project.id}/items/codename/article_${n % itemCount}/variants/codename/default`,
      {
        method: 'PUT',
        headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          elements: [
            { element: { codename: 'title' }, value: `Title ${n}` },
            { element: { codename: 'body' }, value: `<p>Paragraph ${n}: ${'lorem ipsum '.repeat(20)}</p>` },
          ],
        }),
      },
    );
    if (response.status !== 200 && response.status !== 201)
      throw new Error(`save ${n} answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  const run = async (count: number) => {
    const end = next + count;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < end) await save(next++);
      }),
    );
  };
  try {
    await run(warmup);
    const before = await storage(store);
    const started = performance.now();
    const cpu = process.cpuUsage();
    await run(saves);
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const after = await storage(store);
    const per10k = (bytes: number) => ((bytes / saves) * 10_000) / 1_048_576;
    return {
      engine,
      config: config.label,
      perSecond: saves / seconds,
      // This process's CPU per save: the app, the client and, on PGlite, the database (WASM in
      // process); less moved by other load on the machine than the wall clock.
      cpuMsPerSave: (used.user + used.system) / 1000 / saves,
      mibPer10k: per10k(after.total - before.total),
      auditMibPer10k: per10k(after.audit - before.audit),
    };
  } finally {
    await server.close();
  }
}

type Row = Awaited<ReturnType<typeof measure>>;
const runs: Row[] = [];
let postgres: Awaited<ReturnType<typeof startPostgres>> | null = null;
try {
  for (const engine of engines)
    for (let round = 0; round < rounds; round++)
      // Rounds alternate the order (ABBA…), so neither configuration always runs on a colder process.
      for (const config of round % 2 === 0 ? configs : [...configs].reverse()) {
        const dir = mkdtempSync(join(tmpdir(), 'lectern-bench-governance-'));
        let store: SqlStore;
        if (engine === 'postgres') {
          postgres ??= await startPostgres();
          store = await openPostgresStore({
            connectionString: await createTestDatabase(postgres.endpoint),
            ...storeOptions(config),
          });
        } else store = await openPgliteStore({ dataDir: join(dir, 'pglite'), ...storeOptions(config) });
        try {
          const row = await measure(engine, store, config);
          runs.push(row);
          console.error(`${engine} ${config.label} (round ${round + 1}): ${row.perSecond.toFixed(1)} upserts/s`);
        } finally {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }
} finally {
  await postgres?.stop();
}

/** The median of the rounds of each engine and configuration. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
const rows: Row[] = engines.flatMap((engine) =>
  configs.map((config) => {
    const of = runs.filter((r) => r.engine === engine && r.config === config.label);
    const pick = (f: (r: Row) => number) => median(of.map(f));
    return {
      engine,
      config: config.label,
      perSecond: pick((r) => r.perSecond),
      cpuMsPerSave: pick((r) => r.cpuMsPerSave),
      mibPer10k: pick((r) => r.mibPer10k),
      auditMibPer10k: pick((r) => r.auditMibPer10k),
    };
  }),
);
const percent = (value: number, base: number) => `${(((value - base) / base) * 100).toFixed(1)} %`;

console.log(
  `\n${saves} variant upserts after ${warmup} warm-up, ${concurrency} clients, ${itemCount} items, median of ${rounds} rounds\n`,
);
console.log(
  '| engine | configuration | upserts/s | vs. first | CPU ms per save (this process) | vs. first | storage per 10,000 saves | of it, audit log |',
);
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  const base = rows.find((r) => r.engine === row.engine);
  const isBase = !base || base === row;
  console.log(
    `| ${row.engine} | ${row.config} | ${row.perSecond.toFixed(1)} | ${isBase ? '—' : percent(row.perSecond, base.perSecond)} | ` +
      `${row.cpuMsPerSave.toFixed(1)} | ${isBase ? '—' : percent(row.cpuMsPerSave, base.cpuMsPerSave)} | ` +
      `${row.mibPer10k.toFixed(2)} MiB | ${row.auditMibPer10k.toFixed(2)} MiB |`,
  );
}

// Management writes at scale (issue 35): what an SDK or a migration script gets from the
// Management API with the rate limits off. For each engine, a fresh database and a server process
// (management-writes-server.ts); this process is the client (load from another process than the
// server). Measures, at several client concurrencies, item upserts (PUT …/items/external-id/{id})
// and variant upserts (PUT …/items/external-id/{id}/variants/codename/default) over `--items`
// items, then seeds `--seed` new items through the API (one item upsert and one variant upsert
// each) and prints how long that took. Every answer is checked (status and body), and errors are
// counted beside the requests sent. Asserts nothing; prints tables.
// PostgreSQL runs with its durable defaults (fsync, synchronous commit), as in a deployment.
// Run: pnpm run bench:management-writes -- [--engines pglite,postgres] [--concurrency 1,4,16,64]
//        [--saves 2000] [--items 200] [--seed 100000] [--seed-concurrency 16] [--pool 10]
//        [--profile 20]   (--profile N: instead, log and count the SQL of N serial variant upserts, item
//        renames and seeded items)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createTestDatabase } from '../../packages/testing/src/test-database.ts';
import { startPostgres } from '../../test/engines/postgres.ts';
import { startWritesServer, type SeedResult, type WritesServer } from './management-writes-client.ts';

const usage = `Usage: pnpm run bench:management-writes -- [--engines pglite,postgres] [--concurrency 1,4,16,64]
  [--saves 2000] [--items 200] [--seed 100000] [--seed-concurrency 16] [--pool 10] [--profile 0]`;
const argv = process.argv.slice(2);
const { values: args } = parseArgs({
  args: argv[0] === '--' ? argv.slice(1) : argv,
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    concurrency: { type: 'string', default: '1,4,16,64' },
    saves: { type: 'string', default: '2000' },
    items: { type: 'string', default: '200' },
    seed: { type: 'string', default: '100000' },
    'seed-concurrency': { type: 'string', default: '16' },
    pool: { type: 'string', default: '10' },
    profile: { type: 'string', default: '0' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const engines = args.engines.split(',') as ('pglite' | 'postgres')[];
const concurrencies = args.concurrency.split(',').map(Number);
const saves = Number(args.saves);
const itemCount = Number(args.items);
const seedCount = Number(args.seed);
const seedConcurrency = Number(args['seed-concurrency']);
const profileCount = Number(args.profile);

interface Row {
  engine: string;
  operation: string;
  concurrency: number;
  requests: number;
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
  serverCpuMs: number;
  databaseCpuMs: number;
  clientCpuMs: number;
}
const rows: Row[] = [];
const seeds: (SeedResult & { engine: string })[] = [];
const profiles: { engine: string; operation: string; statements: number; upserts: number; top: [string, number][] }[] =
  [];

async function measureEngine(engine: 'pglite' | 'postgres', server: WritesServer): Promise<void> {
  const created = await server.run('item upsert (create)', itemCount, Math.max(...concurrencies), (i) =>
    server.upsertItem(`bench_${i}`, `Bench ${i}`),
  );
  if (created.errors > 0) throw new Error(`creating the items failed ${created.errors} times: ${created.firstError}`);
  let n = 0;
  for (const concurrency of saves > 0 ? concurrencies : []) {
    // Warm-up, not counted: the first requests of a connection pay for JIT and pool set-up.
    await server.run('warm-up', Math.min(200, saves), concurrency, (i) =>
      server.upsertVariant(`bench_${i % itemCount}`, i),
    );
    for (const [operation, request] of [
      ['variant upsert', (i: number) => server.upsertVariant(`bench_${i % itemCount}`, n + i)],
      ['item upsert (rename)', (i: number) => server.upsertItem(`bench_${i % itemCount}`, `Bench ${n + i}`)],
    ] as const) {
      const result = await server.run(operation, saves, concurrency, request);
      n += saves;
      rows.push({ engine, operation, concurrency, ...result });
      console.error(
        `${engine} ${operation} c=${concurrency}: ${result.perSecond.toFixed(0)}/s, ${result.errors} errors` +
          (result.firstError ? ` (first: ${result.firstError})` : ''),
      );
    }
  }
  if (seedCount > 0) {
    const seeded = await server.seed(seedCount, seedConcurrency, engine);
    seeds.push({ engine, ...seeded });
  }
}

async function profileEngine(engine: string, server: WritesServer, logFile: string): Promise<void> {
  await server.upsertItem('profiled', 'Profiled');
  await server.upsertVariant('profiled', 0);
  const requests: [string, (i: number) => Promise<string | null>][] = [
    ['variant upsert', (i) => server.upsertVariant('profiled', i)],
    ['item upsert (rename)', (i) => server.upsertItem('profiled', `Profiled ${i}`)],
    [
      'seeding one item (item create + variant create)',
      async (i) =>
        (await server.upsertItem(`profiled_${i}`, `Profiled ${i}`)) ?? server.upsertVariant(`profiled_${i}`, i),
    ],
  ];
  for (const [operation, request] of requests) {
    const before = readFileSync(logFile, 'utf8').split('\n').length;
    for (let i = 1; i <= profileCount; i++) {
      const error = await request(i);
      if (error !== null) throw new Error(`${operation} failed: ${error}`);
    }
    const lines = readFileSync(logFile, 'utf8')
      .split('\n')
      .slice(before - 1)
      .filter(Boolean);
    const counts = new Map<string, number>();
    for (const line of lines) counts.set(line.slice(0, 110), (counts.get(line.slice(0, 110)) ?? 0) + 1);
    const top = [...counts].sort((a, b) => b[1] - a[1]);
    profiles.push({ engine, operation, statements: lines.length, upserts: profileCount, top });
  }
}

let postgres: Awaited<ReturnType<typeof startPostgres>> | null = null;
try {
  for (const engine of engines) {
    const dir = mkdtempSync(join(tmpdir(), 'lectern-bench-writes-'));
    const logFile = join(dir, 'sql.log');
    let target: string[];
    let databasePid: number | null = null;
    if (engine === 'postgres') {
      postgres ??= await startPostgres({ isDurable: true });
      target = ['--database-url', await createTestDatabase(postgres.endpoint), '--pool', args.pool];
      databasePid = Number(readFileSync(join(postgres.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    } else target = ['--data-dir', dir];
    const profiling = profileCount > 0 ? ['--log-sql', logFile] : [];
    const server = await startWritesServer([...target, ...profiling], databasePid);
    try {
      if (profileCount > 0) await profileEngine(engine, server, logFile);
      else await measureEngine(engine, server);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  await postgres?.stop();
}

for (const profile of profiles) {
  console.log(
    `\n${profile.engine}: ${profile.statements} SQL statements for ${profile.upserts} × ${profile.operation} ` +
      `(${(profile.statements / profile.upserts).toFixed(1)} each; PGlite's BEGIN and COMMIT are not logged)\n`,
  );
  console.log('| per request | statement |\n| ---: | --- |');
  for (const [statement, count] of profile.top)
    console.log(`| ${(count / profile.upserts).toFixed(2)} | \`${statement.replace(/\|/g, '\\|')}\` |`);
}
if (rows.length > 0) {
  console.log(
    `\nManagement writes, rate limits off, ${saves} requests per row (after ${Math.min(200, saves)} warm-up) over ${itemCount} items, ` +
      `server pool ${args.pool} (PostgreSQL), client in another process\n`,
  );
  console.log(
    '| engine | operation | clients | requests | errors | per second | p50 ms | p99 ms | server CPU ms/request | database CPU ms/request | client CPU ms/request |',
  );
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows)
    console.log(
      `| ${r.engine} | ${r.operation} | ${r.concurrency} | ${r.requests} | ${r.errors} | ${r.perSecond.toFixed(0)} | ` +
        `${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.serverCpuMs.toFixed(2)} | ` +
        `${r.engine === 'postgres' ? r.databaseCpuMs.toFixed(2) : 'in the server (WASM)'} | ${r.clientCpuMs.toFixed(2)} |`,
    );
}
if (seeds.length > 0) {
  console.log(`\nSeeding through the API (an item upsert and a variant upsert per item), ${seedConcurrency} clients\n`);
  console.log(
    '| engine | items | errors | seconds | items per second | server CPU ms/item | database CPU ms/item | client CPU ms/item | goal |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const s of seeds)
    console.log(
      `| ${s.engine} | ${s.items} | ${s.errors} | ${s.seconds.toFixed(0)} | ${(s.items / s.seconds).toFixed(0)} | ` +
        `${s.serverCpuMs.toFixed(2)} | ${s.engine === 'postgres' ? s.databaseCpuMs.toFixed(2) : 'in the server'} | ` +
        `${s.clientCpuMs.toFixed(2)} | 100,000 in ≤ 300 s |`,
    );
}

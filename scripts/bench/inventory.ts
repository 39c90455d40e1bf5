// Inventory query benchmark (issue 28). For each engine and item count: creates a project with
// three content types through core operations, bulk-inserts that many items, each with a variant
// in the default language (steps, due dates and names spread over the set), in SQL (an operation
// per item would take longer than the measurement), analyzes the tables (as a PGlite server does at
// start and PostgreSQL's autovacuum does), then times the core operation behind
// POST /v2/projects/{id}/items-with-variant/filter — server time without HTTP — for the first
// page of each filter and order, and for a page in the middle of the list (continuation).
// Prints a table; asserts nothing (CONVENTIONS: benchmarks are scripts that print tables).
// Run: pnpm run bench:inventory -- [--items 10000,100000] [--engines pglite,postgres] [--runs 5]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import type * as Kysely from 'kysely';
import {
  addContentType,
  createProject,
  filterItemsWithVariant,
  noSchedule,
  operator,
  randomIds,
  systemClock,
  type CoreDeps,
} from '../../packages/core/src/index.ts';
import * as paging from '../../packages/core/src/model/shared/paging.ts';
import { systemStepIds, zeroId } from '../../packages/core/src/model/defaults.ts';
import { openPgliteStore, openPostgresStore, type SqlStore } from '../../packages/store-sql/src/index.ts';
import { createTestDatabase } from '../../packages/testing/src/test-database.ts';
import { startPostgres } from '../../test/engines/postgres.ts';

// kysely is a dependency of the store package, not of the workspace root this script runs from.
const { sql } = createRequire(new URL('../../packages/store-sql/package.json', import.meta.url))(
  'kysely',
) as typeof Kysely;

const usage = `Usage: pnpm run bench:inventory -- [--items 10000,100000] [--engines pglite,postgres] [--runs 5]`;
const argv = process.argv.slice(2);
const { values: args } = parseArgs({
  args: argv[0] === '--' ? argv.slice(1) : argv,
  options: {
    items: { type: 'string', default: '10000,100000' },
    engines: { type: 'string', default: 'pglite,postgres' },
    runs: { type: 'string', default: '5' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const sizes = args.items.split(',').map(Number);
const engines = args.engines.split(',') as ('pglite' | 'postgres')[];
const runs = Number(args.runs);

const words = ['coffee', 'tea', 'espresso', 'latte', 'mocha', 'cocoa', 'water', 'juice', 'soda', 'milk', 'chai'];

interface Seeded {
  projectId: string;
  typeIds: string[];
}

/** The project, its types, and `count` items with a default-language variant each, in SQL. */
async function seed(store: SqlStore, count: number): Promise<Seeded> {
  const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
  const project = await createProject(core, { actor: operator, name: 'Inventory benchmark' });
  const input = { actor: operator, projectId: project.id };
  const types = [];
  for (const codename of ['article', 'page', 'news'])
    types.push(
      await addContentType(core, {
        ...input,
        body: {
          name: codename,
          codename,
          elements: [
            { name: 'Title', codename: 'title', type: 'text', is_required: true },
            { name: 'Body', codename: 'body', type: 'rich_text' },
          ],
        },
      }),
    );
  const typeIds = types.map((t) => t.id);
  const elementIds = types.map((t) => t.body.elements.map((e) => (e as { id: string }).id));
  const typeOf = sql`(array[${sql.join(typeIds.map((id) => sql`${id}::uuid`))}])[1 + n % 3]`;
  const word = sql`(array[${sql.join(words.map((w) => sql`${w}`))}])[1 + (n * 7) % ${words.length}]`;
  await sql`
    insert into content_items (project_id, id, name, codename, external_id, type_id, collection_id, sitemap_locations, last_modified)
    select ${project.id}::uuid, gen_random_uuid(), initcap(${word}) || ' note ' || n, 'item_' || n, null,
      ${typeOf}, ${zeroId}::uuid, '[]'::jsonb, now() - make_interval(secs => n)
    from generate_series(1, ${count}) n`.execute(store.db);
  // Steps: 80 % draft, 15 % published, 5 % archived; a due date on every fourth; last change
  // scattered (not in creation order); the title and a short body as element values.
  const step = sql`case when n % 20 < 16 then ${systemStepIds.draft}::uuid when n % 20 < 19 then ${systemStepIds.published}::uuid else ${systemStepIds.archived}::uuid end`;
  const elements = (t: number) =>
    sql`jsonb_build_object(${elementIds[t]?.[0]}::text, jsonb_build_object('value', i.name),
      ${elementIds[t]?.[1]}::text, jsonb_build_object('value', '<p>About ' || ${word} || ' number ' || n || '.</p>'))`;
  const body = sql`jsonb_build_object('elements', case n % 3 when 0 then ${elements(0)} when 1 then ${elements(1)} else ${elements(2)} end,
    'schedule', ${JSON.stringify(noSchedule)}::jsonb,
    'due_date', case when n % 4 = 0 then to_char(now() + make_interval(days => n % 365), 'YYYY-MM-DD"T"HH24:MI:SS"Z"') end,
    'contributors', '[]'::jsonb, 'note', null)`;
  await sql`
    insert into content_variants (project_id, item_id, language_id, type_id, workflow_id, step_id, last_modified, body, published)
    select ${project.id}::uuid, i.id, ${zeroId}::uuid, i.type_id, ${zeroId}::uuid, ${step},
      now() - make_interval(secs => (n * 7919) % ${count}), ${body},
      case when n % 20 between 16 and 18 then '{}'::jsonb end
    from (select *, substring(codename from 6)::int as n from content_items where project_id = ${project.id}::uuid) i`.execute(
    store.db,
  );
  await store.analyze();
  return { projectId: project.id, typeIds };
}

/** A continuation token for the page after the row at the middle of the list in `by` order. */
async function middleToken(store: SqlStore, s: Seeded, count: number, by: string): Promise<string> {
  const mixed = paging as unknown as {
    mixedKeyToken?: (list: { name: string; scope: string[] }, next: (string | number)[]) => string;
  };
  if (!mixed.mixedKeyToken) return Buffer.from(JSON.stringify({ o: Math.floor(count / 2) })).toString('base64url');
  const key = {
    position: sql`null as k, i.position as t`,
    name: sql`lower(i.name) as k, i.position as t`,
    last_modified: sql`v.last_modified::text as k, v.position as t`,
    due_date: sql`coalesce(v.body->>'due_date', '') as k, v.position as t`,
  }[by];
  const order = {
    position: sql`i.position`,
    name: sql`lower(i.name), i.position`,
    last_modified: sql`v.last_modified, v.position`,
    due_date: sql`coalesce(v.body->>'due_date', ''), v.position`,
  }[by];
  const row = (
    await sql<{ k: string | null; t: string | number }>`select ${key} from content_items i
      join content_variants v on v.project_id = i.project_id and v.item_id = i.id and v.language_id = ${zeroId}::uuid
      where i.project_id = ${s.projectId}::uuid order by ${order} offset ${Math.floor(count / 2)} limit 1`.execute(
      store.db,
    )
  ).rows[0];
  const next = by === 'position' ? [Number(row?.t)] : [row?.k ?? '', Number(row?.t)];
  return mixed.mixedKeyToken({ name: 'items-with-variant', scope: [s.projectId, zeroId, by, 'asc', 'false'] }, next);
}

async function time(
  core: CoreDeps,
  s: Seeded,
  body: unknown,
  token?: string,
): Promise<{ ms: number; min: number; rows: number }> {
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i <= runs; i++) {
    const started = performance.now();
    const page = await filterItemsWithVariant(core, {
      actor: operator,
      projectId: s.projectId,
      body,
      ...(token ? { continuation: { token, source: { kind: 'header' as const, name: 'x-continuation' } } } : {}),
    });
    if (i > 0) times.push(performance.now() - started); // the first run warms caches
    rows = page.items.length;
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)] ?? 0, min: times[0] ?? 0, rows };
}

async function measure(engine: string, store: SqlStore, count: number): Promise<void> {
  const seedStarted = performance.now();
  const s = await seed(store, count);
  const seedSeconds = ((performance.now() - seedStarted) / 1000).toFixed(1);
  const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
  const language = { language: { codename: 'default' } };
  const cases: [string, unknown, string?][] = [
    ['first page (language only)', { filters: language }],
    ['+ type filter', { filters: { ...language, content_types: [{ id: s.typeIds[1] }] } }],
    [
      '+ step filter (archived, 5 %)',
      {
        filters: {
          ...language,
          workflow_steps: [
            { workflow_identifier: { codename: 'default' }, step_identifiers: [{ codename: 'archived' }] },
          ],
        },
      },
    ],
    ['+ search "mocha" (1 in 11)', { filters: { ...language, search_phrase: 'mocha' } }],
    [`+ search "note ${count - 7}" (1 row)`, { filters: { ...language, search_phrase: `note ${count - 7}` } }],
    ['+ search "zzz" (no row)', { filters: { ...language, search_phrase: 'zzz' } }],
    ['+ completion unfinished (none)', { filters: { ...language, completion_statuses: ['unfinished'] } }],
    ['+ publishing published', { filters: { ...language, publishing_states: ['published'] } }],
  ];
  for (const by of ['name', 'last_modified', 'due_date'])
    for (const direction of ['asc', 'desc'])
      cases.push([`order ${by} ${direction}`, { filters: language, order: { by, direction } }]);
  cases.push([
    'order name + type + search "latte"',
    {
      filters: { ...language, content_types: [{ id: s.typeIds[0] }], search_phrase: 'latte' },
      order: { by: 'name', direction: 'asc' },
    },
  ]);
  for (const by of ['position', 'name', 'last_modified', 'due_date'])
    cases.push([
      `middle page, order ${by}`,
      { filters: language, ...(by === 'position' ? {} : { order: { by, direction: 'asc' } }) },
      await middleToken(store, s, count, by),
    ]);
  console.log(`\n${engine}, ${count} items (seeded in ${seedSeconds} s); median of ${runs} runs after one warm-up`);
  // The minimum is the cost without other load on the machine; the median, with what there was.
  console.log(`${'case'.padEnd(44)} ${'median ms'.padStart(9)} ${'min ms'.padStart(8)} ${'rows'.padStart(5)}`);
  // INVENTORY_CASES (a regular expression) times only the cases whose label it matches.
  const only = new RegExp(process.env['INVENTORY_CASES'] ?? '');
  for (const [label, body, token] of cases.filter(([label]) => only.test(label))) {
    const { ms, min, rows } = await time(core, s, body, token);
    console.log(
      `${label.padEnd(44)} ${ms.toFixed(1).padStart(9)} ${min.toFixed(1).padStart(8)} ${String(rows).padStart(5)}`,
    );
  }
}

let postgres: Awaited<ReturnType<typeof startPostgres>> | null = null;
try {
  for (const engine of engines)
    for (const count of sizes) {
      const dir = mkdtempSync(join(tmpdir(), 'lectern-bench-inventory-'));
      let store: SqlStore;
      if (engine === 'postgres') {
        postgres ??= await startPostgres();
        store = await openPostgresStore({ connectionString: await createTestDatabase(postgres.endpoint) });
      } else store = await openPgliteStore({ dataDir: join(dir, 'pglite') });
      try {
        await measure(engine, store, count);
      } finally {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }
} finally {
  await postgres?.stop();
}

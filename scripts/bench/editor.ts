// Editor benchmark (issue 28). For each item count: builds a project of that many content items,
// each with its variant in the default language, on PGlite in a temporary directory (the project
// and its type through core operations, the items and variants in bulk SQL); starts `lectern start` on
// it as its own process; invites a person with the CLI and signs them up in headless Chromium;
// then times, in the browser, the Content inventory's first page and an item editor's opening:
// navigation start to the content rendered (the server's time plus rendering), fresh navigations,
// the median of --runs. Prints a table and the bundle sizes; asserts nothing (CONVENTIONS:
// benchmarks are scripts that print tables).
// Run: pnpm run bench:editor -- [--items 10000,100000] [--runs 5]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { createRequire } from 'node:module';
import type * as Kysely from 'kysely';
import {
  addContentType,
  createProject,
  noSchedule,
  operator,
  randomIds,
  systemClock,
  type CoreDeps,
} from '../../packages/core/src/index.ts';
import { systemStepIds, zeroId } from '../../packages/core/src/model/defaults.ts';
import { openPgliteStore } from '../../packages/store-sql/src/index.ts';
import { bundleSizes } from '../../apps/editor/test/bundle-size.ts';
import { acceptInvitation, chromiumPath, launchBrowser, startEditorStack } from '../../apps/editor/test/harness.ts';

const usage = `Usage: pnpm run bench:editor -- [options]
       (or node scripts/bench/editor.ts [options])

For each item count: seeds a project (one type "Article": a title and a rich text body) with that
many items and their variants on PGlite in a temporary directory (in bulk SQL), starts
lectern on it, signs a person in in headless Chromium (Debian's chromium) and times, as fresh
navigations, the Content inventory's first page (navigation start until its 50 rows are in the
DOM) and an item editor's opening (navigation start until the form's first field is in the DOM):
the median of --runs, with the part spent in the inventory's API requests (Resource Timing).
Prints a table and the bundle sizes. The temporary directory is removed afterwards.

  --items N[,N…]   item counts (default 10000)
  --runs R         timed navigations of each screen per item count (default 5)
  --help           this text`;

const argv = process.argv.slice(2);
const { values: args } = parseArgs({
  args: argv[0] === '--' ? argv.slice(1) : argv,
  options: {
    items: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '5' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const sizes = args.items.split(',').map(Number);
const runs = Number(args.runs);
if (!sizes.every((n) => Number.isInteger(n) && n >= 1) || !(Number.isInteger(runs) && runs >= 1)) {
  console.error(`Invalid options (item counts and runs are whole numbers ≥ 1).\n\n${usage}`);
  process.exit(2);
}
if (chromiumPath === null) {
  console.error('No chromium on PATH: ./scripts/test installs it (scripts/lib/browser.sh).');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// kysely is a dependency of the store package, not of the workspace root this script runs from.
const { sql } = createRequire(new URL('../../packages/store-sql/package.json', import.meta.url))(
  'kysely',
) as typeof Kysely;

/**
 * A project of `items` articles, each with its default-language variant (a title and a short rich
 * text body; in Draft, a due date on every fourth), in a PGlite
 * data directory. The project and its type go through core operations; the items and variants are
 * inserted in SQL in one statement each (core's addItem and upsertVariant, one transaction per
 * write, take about 20 minutes for 10,000 pairs on this machine), then analysed as a start does.
 */
async function seed(dataDir: string, items: number): Promise<{ projectId: string; itemId: string; seconds: number }> {
  const started = performance.now();
  const store = await openPgliteStore({ dataDir: join(dataDir, 'pglite') });
  const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
  try {
    const project = await createProject(core, { actor: operator, name: 'Editor benchmark' });
    const input = { actor: operator, projectId: project.id };
    const type = await addContentType(core, {
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
    const [title, body] = type.body.elements.map((e) => (e as { id: string }).id);
    console.error(`  inserting ${items} items and variants`);
    await sql`
      insert into content_items (project_id, id, name, codename, external_id, type_id, collection_id, sitemap_locations, last_modified)
      select ${project.id}::uuid, gen_random_uuid(), 'Article ' || n, 'article_' || n, null, ${type.id}::uuid,
        ${zeroId}::uuid, '[]'::jsonb, now() - make_interval(secs => n)
      from generate_series(1, ${items}) n`.execute(store.db);
    await sql`
      insert into content_variants (project_id, item_id, language_id, type_id, workflow_id, step_id, last_modified, body, published)
      select ${project.id}::uuid, i.id, ${zeroId}::uuid, i.type_id, ${zeroId}::uuid, ${systemStepIds.draft}::uuid,
        now() - make_interval(secs => (n * 7919) % ${items}),
        jsonb_build_object(
          'elements', jsonb_build_object(${title}::text, jsonb_build_object('value', i.name),
            ${body}::text, jsonb_build_object('value', '<p>The body of article ' || n || '.</p>')),
          'schedule', ${JSON.stringify(noSchedule)}::jsonb,
          'due_date', case when n % 4 = 0 then to_char(now() + make_interval(days => n % 365), 'YYYY-MM-DD"T"HH24:MI:SS"Z"') end,
          'contributors', '[]'::jsonb, 'note', null),
        null
      from (select *, substring(codename from 9)::int as n from content_items where project_id = ${project.id}::uuid) i`.execute(
      store.db,
    );
    await store.analyze();
    const middle = await sql<{ id: string }>`
      select id from content_items where project_id = ${project.id}::uuid and codename = ${`article_${Math.ceil(items / 2)}`}`.execute(
      store.db,
    );
    return { projectId: project.id, itemId: middle.rows[0]?.id ?? '', seconds: (performance.now() - started) / 1000 };
  } finally {
    await store.close();
  }
}

/**
 * Navigates to `url` in a fresh navigation and answers the time from navigation start until
 * `selector` matches at least `count` elements (checked every animation frame), in ms.
 */
async function timeTo(page: Page, url: string, selector: string, count: number): Promise<number | null> {
  await page.goto('about:blank');
  await page.goto(url, { waitUntil: 'commit' });
  try {
    const handle = await page.waitForFunction(
      ({ selector, count }) => document.querySelectorAll(selector).length >= count && performance.now(),
      { selector, count },
      { polling: 'raf', timeout: 15_000 },
    );
    return (await handle.jsonValue()) as number;
  } catch {
    return null;
  }
}

/** The time the page spent waiting for the inventory's API answers (filter, bulk-get), ms. */
function apiMs(page: Page): Promise<number> {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => e.name.includes('/items-with-variant/'))
      .reduce((sum, e) => sum + ((e as PerformanceResourceTiming).responseEnd - e.startTime), 0),
  );
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

interface Row {
  items: number;
  seedSeconds: number;
  inventoryMs: number | null;
  inventoryApiMs: number | null;
  editorMs: number | null;
}

async function measure(items: number): Promise<Row> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-bench-editor-'));
  try {
    console.error(`\n== ${items} items (${dataDir})`);
    const seeded = await seed(dataDir, items);
    console.error(`  seeded in ${seeded.seconds.toFixed(1)} s; starting lectern`);
    const stack = await startEditorStack({ dataDir, projectId: seeded.projectId });
    const browser = await launchBrowser();
    try {
      const page = await (await browser.newContext()).newPage();
      await acceptInvitation(page, await stack.invite('bench@example.com', 'content-creator'), 'bench password 123');
      const inventory = `${stack.appUrl}/p/${seeded.projectId}/default/content`;
      const editor = `${stack.appUrl}/p/${seeded.projectId}/default/items/${seeded.itemId}`;
      // Warm-up: the app's files into the browser's cache, the server's first reads.
      await timeTo(page, inventory, 'tbody th[scope=row]', 50);
      const inventoryRuns: number[] = [];
      const apiRuns: number[] = [];
      for (let r = 0; r < runs; r++) {
        const ms = await timeTo(page, inventory, 'tbody th[scope=row]', 50);
        if (ms === null) throw new Error('the inventory did not show 50 rows within 15 s');
        inventoryRuns.push(ms);
        apiRuns.push(await apiMs(page));
      }
      // The item editor's first field: whatever kind the form renders first.
      const field = 'main :is(input, textarea, select, [contenteditable="true"])';
      await timeTo(page, editor, field, 1);
      const editorRuns: number[] = [];
      for (let r = 0; r < runs; r++) {
        const ms = await timeTo(page, editor, field, 1);
        if (ms === null) break;
        editorRuns.push(ms);
      }
      return {
        items,
        seedSeconds: seeded.seconds,
        inventoryMs: median(inventoryRuns),
        inventoryApiMs: median(apiRuns),
        editorMs: editorRuns.length === runs ? median(editorRuns) : null,
      };
    } finally {
      await browser.close();
      await stack.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// The build the server serves, fresh (as ./lectern start makes it).
execFileSync('bash', ['-c', 'source scripts/lib/toolchain.sh && source scripts/lib/editor.sh && lectern_editor'], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
});

const rows: Row[] = [];
for (const items of sizes) rows.push(await measure(items));

const cell = (value: string, width: number) => value.padStart(width);
const ms = (value: number | null) => (value === null ? 'n/a' : value.toFixed(0));
console.log(
  `\nEditor in headless Chromium against lectern start (PGlite): navigation start to content rendered, median of ${runs}\n`,
);
console.log(
  `${cell('items', 9)} ${cell('inventory ms', 13)} ${cell('of it API ms', 13)} ${cell('item editor ms', 15)} ${cell('seed s', 7)}`,
);
for (const r of rows)
  console.log(
    `${cell(String(r.items), 9)} ${cell(ms(r.inventoryMs), 13)} ${cell(ms(r.inventoryApiMs), 13)} ` +
      `${cell(ms(r.editorMs), 15)} ${cell(r.seedSeconds.toFixed(0), 7)}`,
  );
if (rows.some((r) => r.editorMs === null))
  console.log('\n(item editor n/a: no form field rendered within 15 s: the item screen is not built in this tree)');
const bundle = bundleSizes();
console.log(
  `\nBundle: initial JS ${(bundle.initialGzip / 1000).toFixed(1)} KB gzip (budget 250 KB), ` +
    `all JS ${(bundle.totalGzip / 1000).toFixed(1)} KB gzip, ${(bundle.totalRaw / 1000).toFixed(0)} KB raw`,
);

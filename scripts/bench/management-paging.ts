// Management paging benchmark (issue 11). For each item count: builds a project of that many
// content items through core operations (addItem) on PGlite in a temporary directory, starts the
// Management API on it in its own process (management-paging-server.ts), and walks GET /v2/…/items
// from the first page to the last over HTTP with x-continuation, timing every page. Prints a table;
// it asserts nothing (CONVENTIONS: benchmarks are scripts that print tables).
// Run: pnpm run bench:management-paging -- [--items 10000,100000]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  addContentType,
  addItem,
  createApiKey,
  createProject,
  operator,
  randomIds,
  systemClock,
  type CoreDeps,
} from '../../packages/core/src/index.ts';
import { openPgliteStore } from '../../packages/store-sql/src/index.ts';

const usage = `Usage: pnpm run bench:management-paging -- [options]
       (or node scripts/bench/management-paging.ts [options])

For each item count: seeds a project with that many content items (no variants) through core
operations on PGlite in a temporary directory, starts the Management API alone on it in its own
process (rate limits off), then walks GET /v2/projects/{id}/items from the first page to the last
(100 items a page, x-continuation) over HTTP on loopback, one request at a time, after one warm-up
page; --walks times, reporting the median walk (by total time). Prints items, pages, total
seconds, ms per page (p50, p99, the first and the last ten pages) and items per second. The
temporary directory is removed afterwards.

  --items N[,N…]   item counts (default 10000)
  --walks W        walks of the whole list per item count (default 3)
  --help           this text`;

const argv = process.argv.slice(2);
const { values: args } = parseArgs({
  // pnpm run passes a literal "--" before the script's own options.
  args: argv[0] === '--' ? argv.slice(1) : argv,
  options: {
    items: { type: 'string', default: '10000' },
    walks: { type: 'string', default: '3' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const sizes = args.items.split(',').map(Number);
const walks = Number(args.walks);
if (!sizes.every((n) => Number.isInteger(n) && n >= 1) || !(Number.isInteger(walks) && walks >= 1)) {
  console.error(`Invalid options (item counts and walks are whole numbers ≥ 1).\n\n${usage}`);
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Prints seeding progress on stderr: in place on a terminal, else a line every 10 s. */
function progress(label: string, total: number): (done: number) => void {
  const started = performance.now();
  let lastPrinted = 0;
  const isTty = process.stderr.isTTY;
  return (done) => {
    const now = performance.now();
    if (done < total && now - lastPrinted < (isTty ? 500 : 10_000)) return;
    lastPrinted = now;
    const rate = done / ((now - started) / 1000);
    const left = done === total ? 'done' : `about ${Math.round((total - done) / rate)} s left`;
    const line = `  ${label}: ${done}/${total}, ${rate.toFixed(0)}/s, ${left}`;
    if (isTty) process.stderr.write(`\r${line.padEnd(72)}${done === total ? '\n' : ''}`);
    else process.stderr.write(`${line}\n`);
  };
}

/** A project of `items` items of one type and a management key, in a PGlite data directory. */
async function seed(dataDir: string, items: number): Promise<{ projectId: string; apiKey: string; seconds: number }> {
  const started = performance.now();
  const store = await openPgliteStore({ dataDir: join(dataDir, 'pglite') });
  const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
  try {
    const project = await createProject(core, { actor: operator, name: 'Management paging benchmark' });
    const input = { actor: operator, projectId: project.id };
    await addContentType(core, {
      ...input,
      body: { name: 'Note', codename: 'note', elements: [{ name: 'Title', codename: 'title', type: 'text' }] },
    });
    const key = await createApiKey(core, { ...input, kind: 'management', userEmail: 'bench@example.com' });
    const report = progress(`seeding ${items} items (addItem)`, items);
    for (let i = 0; i < items; i++) {
      // An explicit codename: a generated one reads every codename sharing its prefix.
      await addItem(core, { ...input, body: { name: `Note ${i}`, codename: `note_${i}`, type: { codename: 'note' } } });
      report(i + 1);
    }
    return { projectId: project.id, apiKey: key.secret, seconds: (performance.now() - started) / 1000 };
  } finally {
    await store.close();
  }
}

/** Starts the server process on the data directory; resolves with its URL once it listens. */
async function startServer(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [join(root, 'scripts/bench/management-paging-server.ts'), '--data-dir', dataDir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server process exited (${code}) before it listened`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
  });
  return { url, child };
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

interface ItemsPage {
  items: { id: string }[];
  pagination: { continuation_token: string | null };
}

/** Walks every page of the items list; the time of each page is from request to last body byte. */
async function walk(url: string, apiKey: string): Promise<{ ids: string[]; pageMs: number[]; seconds: number }> {
  const ids: string[] = [];
  const pageMs: number[] = [];
  let token: string | null = null;
  const started = performance.now();
  do {
    const before = performance.now();
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${apiKey}`, ...(token === null ? {} : { 'x-continuation': token }) },
    });
    const text = await response.text();
    pageMs.push(performance.now() - before);
    if (response.status !== 200) throw new Error(`GET items: ${response.status} ${text}`);
    const page = JSON.parse(text) as ItemsPage;
    for (const item of page.items) ids.push(item.id);
    token = page.pagination.continuation_token;
  } while (token !== null);
  return { ids, pageMs, seconds: (performance.now() - started) / 1000 };
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

interface Row {
  items: number;
  seedSeconds: number;
  pages: number;
  seconds: number;
  p50: number;
  p99: number;
  first10: number;
  last10: number;
}

async function measure(items: number): Promise<Row> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-bench-paging-'));
  try {
    console.error(`\n== ${items} items (${dataDir})`);
    const seeded = await seed(dataDir, items);
    console.error(`  seeded in ${seeded.seconds.toFixed(1)} s; starting the Management API process`);
    const server = await startServer(dataDir);
    try {
      const url = `${server.url}/v2/projects/${seeded.projectId}/items`;
      // Warm-up: one first page (JIT, connection, the store's first reads).
      await (await fetch(url, { headers: { authorization: `Bearer ${seeded.apiKey}` } })).text();
      const results = [];
      for (let w = 1; w <= walks; w++) {
        const result = await walk(url, seeded.apiKey);
        const distinct = new Set(result.ids).size;
        if (result.ids.length !== items || distinct !== items)
          throw new Error(`the walk saw ${result.ids.length} items (${distinct} distinct), not ${items}`);
        console.error(`  walk ${w}/${walks}: ${result.pageMs.length} pages in ${result.seconds.toFixed(2)} s`);
        results.push(result);
      }
      const median = [...results].sort((a, b) => a.seconds - b.seconds)[Math.floor(results.length / 2)];
      const result = median as (typeof results)[number];
      const sorted = [...result.pageMs].sort((a, b) => a - b);
      return {
        items,
        seedSeconds: seeded.seconds,
        pages: result.pageMs.length,
        seconds: result.seconds,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        first10: mean(result.pageMs.slice(0, 10)),
        last10: mean(result.pageMs.slice(-10)),
      };
    } finally {
      await stopServer(server.child);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
for (const items of sizes) rows.push(await measure(items));

const cell = (value: string, width: number) => value.padStart(width);
console.log(
  `\nManagement API items list, walked page by page over HTTP (PGlite, 100 items a page; median of ${walks} walks)\n`,
);
console.log(
  `${cell('items', 9)} ${cell('pages', 6)} ${cell('total s', 8)} ${cell('p50 ms', 7)} ${cell('p99 ms', 7)} ` +
    `${cell('first10 ms', 10)} ${cell('last10 ms', 9)} ${cell('items/s', 8)} ${cell('seed s', 7)}`,
);
for (const r of rows)
  console.log(
    `${cell(String(r.items), 9)} ${cell(String(r.pages), 6)} ${cell(r.seconds.toFixed(2), 8)} ` +
      `${cell(r.p50.toFixed(1), 7)} ${cell(r.p99.toFixed(1), 7)} ${cell(r.first10.toFixed(1), 10)} ` +
      `${cell(r.last10.toFixed(1), 9)} ${cell((r.items / r.seconds).toFixed(0), 8)} ${cell(r.seedSeconds.toFixed(0), 7)}`,
  );

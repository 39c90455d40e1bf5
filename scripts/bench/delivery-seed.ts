// Seeding process of the Delivery benchmark (scripts/bench/delivery.ts runs it as a child process):
// creates one project of --items content items through the core operations a Management request
// calls (addItem, upsertVariant, publishVariant), on the embedded database of a data directory or
// on PostgreSQL, so what the benchmark later reads is what users' content looks like. No server
// runs meanwhile and nothing is indexed here. Writes {"projectId", "seconds"} to --out.
// Run: node scripts/bench/delivery-seed.ts --items N (--data-dir D | --database-url U) --out F
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  addContentType,
  addItem,
  createProject,
  operator,
  publishVariant,
  randomIds,
  systemClock,
  upsertVariant,
  type CoreDeps,
} from '../../packages/core/src/index.ts';
import { openPgliteStore, openPostgresStore } from '../../packages/store-sql/src/index.ts';
import { articleCodename, authorCodename, authorCount } from './delivery-content.ts';

const { values: args } = parseArgs({
  options: {
    items: { type: 'string' },
    'data-dir': { type: 'string' },
    'database-url': { type: 'string' },
    out: { type: 'string' },
  },
});
const itemCount = Number(args.items);
if (
  !(itemCount >= 100) ||
  args.out === undefined ||
  (args['data-dir'] === undefined) === (args['database-url'] === undefined)
) {
  console.error('Usage: node scripts/bench/delivery-seed.ts --items N (--data-dir D | --database-url U) --out F');
  process.exit(2);
}

/** Writers at once: PostgreSQL serves several transactions in parallel; PGlite runs them one by one anyway. */
const concurrency = args['database-url'] === undefined ? 1 : 8;

/** Runs `work(i)` for i in [0, count) with `concurrency` at once, reporting every finished one. */
async function forEach(count: number, work: (i: number) => Promise<void>, onDone: () => void): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      await work(i);
      onDone();
      // PGlite answers without I/O: let timers run between writes (the store's analyzer among them).
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

function progressPrinter(label: string, total: number) {
  const started = performance.now();
  let done = 0;
  let lastPrinted = 0;
  return () => {
    done += 1;
    const now = performance.now();
    if (done < total && now - lastPrinted < (process.stdout.isTTY ? 1000 : 10_000)) return;
    lastPrinted = now;
    const rate = done / ((now - started) / 1000);
    const eta = Math.round((total - done) / rate);
    const line = `  seeding ${label}: ${done}/${total}, ${rate.toFixed(0)}/s, ${done === total ? 'done' : `about ${eta} s left`}`;
    if (process.stdout.isTTY) process.stdout.write(`\r${line.padEnd(80)}${done === total ? '\n' : ''}`);
    else console.log(line);
  };
}

async function main() {
  const store =
    args['database-url'] === undefined
      ? await openPgliteStore({ dataDir: join(args['data-dir'] as string, 'pglite') })
      : await openPostgresStore({ connectionString: args['database-url'], poolSize: concurrency + 2 });
  const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
  try {
    const started = performance.now();
    const project = await createProject(core, { actor: operator, name: 'Delivery benchmark' });
    const input = { actor: operator, projectId: project.id };
    await addContentType(core, {
      ...input,
      body: { name: 'Author', codename: 'author', elements: [{ name: 'Name', codename: 'name', type: 'text' }] },
    });
    await addContentType(core, {
      ...input,
      body: {
        name: 'Article',
        codename: 'article',
        elements: [
          { name: 'Title', codename: 'title', type: 'text' },
          { name: 'Rank', codename: 'rank', type: 'number' },
          { name: 'Summary', codename: 'summary', type: 'text' },
          { name: 'Authors', codename: 'authors', type: 'modular_content' },
          { name: 'Related', codename: 'related', type: 'modular_content' },
        ],
      },
    });
    const authors = authorCount(itemCount);
    const codenameOf = (i: number) => (i < authors ? authorCodename(i) : articleCodename(i - authors));
    const elementsOf = (i: number): unknown[] => {
      if (i < authors) return [{ element: { codename: 'name' }, value: `Author ${i}` }];
      const n = i - authors;
      return [
        { element: { codename: 'title' }, value: `Article ${n}` },
        { element: { codename: 'rank' }, value: n },
        { element: { codename: 'summary' }, value: `Summary of article ${n}. `.repeat(4) },
        { element: { codename: 'authors' }, value: [{ codename: authorCodename(n % authors) }] },
        { element: { codename: 'related' }, value: n === 0 ? [] : [{ codename: articleCodename(n - 1) }] },
      ];
    };
    // Every item first, so each variant's links point at items that exist.
    await forEach(
      itemCount,
      async (i) => {
        const codename = codenameOf(i);
        const type = i < authors ? 'author' : 'article';
        await addItem(core, { ...input, body: { name: codename, codename, type: { codename: type } } });
      },
      progressPrinter('items (addItem)', itemCount),
    );
    await forEach(
      itemCount,
      async (i) => {
        const key = { itemKey: { codename: codenameOf(i) }, languageKey: { codename: 'default' } };
        await upsertVariant(core, { ...input, ...key, body: { elements: elementsOf(i) } });
        await publishVariant(core, { ...input, ...key });
      },
      progressPrinter('variants (upsertVariant + publishVariant)', itemCount),
    );
    const seconds = (performance.now() - started) / 1000;
    writeFileSync(args.out as string, JSON.stringify({ projectId: project.id, seconds }));
  } finally {
    await store.close();
  }
}

await main();

// The long fuzz run (issue 12): malformed requests for every Management route family and every
// Delivery, Preview, GraphQL and Recommendations route against an in-process Lectern (the
// bounded run is test/fuzz/fuzz.int.test.ts in ./scripts/test). Prints a table of
// answers per status and route family, with the 5xx, foreign error bodies, changes stored by
// refused requests or reads, and requests that held the event loop over 100 ms; exits 1 when any
// of those is not 0. It asserts nothing else.
// Run: pnpm run fuzz -- [--runs N] [--api management|delivery|all] [--seed S] [--database-url URL] [--no-huge]
import { parseArgs } from 'node:util';
import { randomIds } from '../packages/core/src/index.ts';
import { openPostgresStore } from '../packages/store-sql/src/index.ts';
import { createTestClock, createTestDatabase } from '../packages/testing/src/index.ts';
import { closeClient } from '../test/fuzz/client.ts';
import { count, draw, emptyTally, FuzzSession, fuzzFamilies, loopBudgetMs, type Tally } from '../test/fuzz/run.ts';
import { startFuzzTarget } from '../test/fuzz/target.ts';

const usage = `Usage: pnpm run fuzz -- [options]
       (or node scripts/fuzz.ts [options])

Sends generated malformed and costly requests (bodies, identifiers, query strings, headers,
encodings, malformed HTTP; long ReQL chains, deep GraphQL documents, long Delivery filters, deep
rich text and JSON, backtracking regex input, image parameters) to every Management route family
and every Delivery, Preview, GraphQL and Recommendations route of a Lectern started in this
process on a seeded project, and counts the answers: per status and family, 5xx, 4xx without the
API's error body (or HEAD answers with a body), requests refused (or reads) yet stored (every
table of the store by its catalogue, and every blob, compared after every request), requests
that got no answer, requests that held the event loop over 100 ms (GC and a loaded machine's
waits aside), and uploaded files served without nosniff (and, unless a raster image, without
Content-Disposition: attachment and a sandboxing Content-Security-Policy), and transformed
images larger than their source.
Exit code 1 when any of those is not 0.

Options:
  --runs <n>            requests per API (Management, and Delivery with Preview, GraphQL and
                        Recommendations), spread over their families (default 1000)
  --api <which>         management, delivery or all (default all)
  --seed <n>            seed of the generators, to replay a run (default: random, printed)
  --database-url <url>  a PostgreSQL server: the run uses a new database on it (default: an
                        in-memory PGlite)
  --examples <n>        problems shown per kind (default 5)
  --no-huge             leave out the huge tier of costly inputs (they hang a server with
                        exponential code; for surveying an unfixed tree only)
  -h, --help            this text
`;

// pnpm passes a literal `--` before the script's arguments.
const argv = process.argv.slice(2).filter((a, i) => !(i === 0 && a === '--'));
const { values } = parseArgs({
  args: argv,
  options: {
    runs: { type: 'string', default: '1000' },
    api: { type: 'string', default: 'all' },
    seed: { type: 'string' },
    'database-url': { type: 'string' },
    examples: { type: 'string', default: '5' },
    'no-huge': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}
const runs = Number(values.runs);
const examplesShown = Number(values.examples);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const apis = values.api === 'all' ? (['management', 'delivery'] as const) : ([values.api] as const);
if (!Number.isInteger(runs) || runs < 1 || !apis.every((a) => a === 'management' || a === 'delivery')) {
  process.stderr.write(`fuzz: --runs must be a whole number ≥ 1 and --api management, delivery or all\n\n${usage}`);
  process.exit(2);
}

const started = Date.now();
const core =
  values['database-url'] === undefined
    ? undefined
    : {
        store: await openPostgresStore({ connectionString: await createTestDatabase(values['database-url']) }),
        clock: createTestClock(),
        ids: randomIds,
      };
const target = await startFuzzTarget(core === undefined ? {} : { core });
const session = new FuzzSession(target);
const engine = core === undefined ? 'PGlite (in memory)' : 'PostgreSQL';
process.stderr.write(`fuzz: seed ${seed}, ${runs} requests per API, on ${engine}\n`);

let judged = 0;
const rows = new Map<string, Tally>();
const totals = new Map<string, Tally>();
const examples = new Map<string, string[]>();
const tallyOf = (map: Map<string, Tally>, key: string) => map.get(key) ?? (map.set(key, emptyTally()), map.get(key)!);

for (const api of apis) {
  if (api === 'delivery') await session.settle();
  const families = fuzzFamilies(target, [api], { isHuge: !values['no-huge'] });
  const apiStarted = Date.now();
  let done = 0;
  for (const [index, family] of families.entries()) {
    // Spread the runs evenly; the first families take the remainder.
    const share = Math.floor(runs / families.length) + (index < runs % families.length ? 1 : 0);
    for (const request of draw(family.requests, share, seed + index * 7919)) {
      const outcome = await session.run(request);
      count(tallyOf(rows, `${family.api} ${family.family}`), outcome);
      count(tallyOf(totals, api === 'management' ? 'Management' : 'Delivery side'), outcome);
      judged++;
      if (outcome.problem !== null) {
        const list = examples.get(outcome.problem.kind) ?? [];
        if (list.length < examplesShown) {
          const shown = request.raw ?? `${request.method} ${request.path}`;
          list.push(
            `${JSON.stringify(shown.slice(0, 240))} ${JSON.stringify(request.headers).slice(0, 200)} → ${outcome.problem.detail.slice(0, 300)}`,
          );
        }
        examples.set(outcome.problem.kind, list);
      }
      if (++done % 250 === 0 || done === runs) {
        const rate = done / ((Date.now() - apiStarted) / 1000);
        const total = tallyOf(totals, api === 'management' ? 'Management' : 'Delivery side');
        process.stderr.write(
          `\r  ${api}: ${done}/${runs} (${rate.toFixed(0)} req/s)  5xx ${total.serverErrors}  foreign ${total.foreignBodies}  stored ${total.storedChanges}  no answer ${total.noAnswer}  blocked ${total.blockedLoop}  unsafe ${total.unsafeFiles}  upscaled ${total.upscaledImages}   `,
        );
      }
    }
  }
  process.stderr.write('\n');
}
session.close();
await target.close();
closeClient();

const statuses = [...new Set([...totals.values()].flatMap((t) => [...t.byStatus.keys()]))].sort((a, b) => a - b);
const header = [
  '',
  'requests',
  ...statuses.map(String),
  '5xx',
  'foreign',
  'stored',
  'no answer',
  'blocked',
  'unsafe',
  'upscaled',
  'max loop ms',
];
const line = (name: string, t: Tally) => [
  name,
  String(t.requests),
  ...statuses.map((s) => String(t.byStatus.get(s) ?? 0)),
  String(t.serverErrors),
  String(t.foreignBodies),
  String(t.storedChanges),
  String(t.noAnswer),
  String(t.blockedLoop),
  String(t.unsafeFiles),
  String(t.upscaledImages),
  t.maxLoopMs.toFixed(0),
];
const table = [header, ...[...rows].map(([k, t]) => line(k, t)), ...[...totals].map(([k, t]) => line(k, t))];
const widths = header.map((_, i) => Math.max(...table.map((r) => (r[i] ?? '').length)));
const print = (r: string[]) =>
  r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
const snapshotCost = session.snapshotCost();
console.log(
  `\nFuzz run: seed ${seed}, ${engine}, ${((Date.now() - started) / 1000).toFixed(0)} s (status 0: no answer; blocked: held the event loop over ${loopBudgetMs} ms, on a retry too)`,
);
console.log(
  `Store snapshot after each of ${judged} requests: ${snapshotCost.meanMs.toFixed(1)} ms on average, ${snapshotCost.maxMs.toFixed(0)} ms at most\n`,
);
console.log(print(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of table.slice(1, rows.size + 1)) console.log(print(r));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of table.slice(rows.size + 1)) console.log(print(r));
for (const [kind, list] of examples) {
  console.log(`\n${kind}:`);
  for (const e of list) console.log(`  ${e}`);
}
const failures = [...totals.values()].reduce(
  (n, t) =>
    n +
    t.serverErrors +
    t.foreignBodies +
    t.storedChanges +
    t.noAnswer +
    t.blockedLoop +
    t.unsafeFiles +
    t.upscaledImages,
  0,
);
process.exit(failures === 0 ? 0 : 1);

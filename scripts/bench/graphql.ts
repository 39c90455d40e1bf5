// GraphQL benchmark (issue 14): the same filtered, ordered list of 10 articles with one level of
// linked items, through the REST Delivery API and through GraphQL, on one `lectern start` process
// over the seeded benchmark content, with load from a separate process (wrk, or autocannon);
// then the schema build time of a content model of 100 types. Prints tables; asserts nothing.
// Run: pnpm run bench:graphql -- [--items 10000] [--seconds 10] [--connections 16] [--types 100]
import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { authorCount } from './delivery-content.ts';
import { table } from './delivery-report.ts';
import { startPostgres } from '../../test/engines/postgres.ts';
import { prepareSeed, startLectern, timeIndexRebuild, waitUntilSettled, type Engine } from './delivery-setup.ts';
import { timeSchemaBuild } from './graphql-schema-build.ts';
import { chooseLoader, runLoad, type LoaderName, type LoadResult } from './load-generator.ts';

const usage = `Usage: pnpm run bench:graphql -- [options]

Seeds (or restores from the cache of bench:delivery) a project of N items on PGlite or PostgreSQL, rebuilds its
index, starts \`lectern start\` in its own process (rate limits off), and measures REST
(/items?system.type=article&elements.rank[lt]=n&order=elements.rank[desc]&limit=10&depth=1: the 10
articles below n, a different page for each n) against the GraphQL query that returns the same items
and linked items, cache misses (a new n each request) and a cache hit, from a separate load process.
Every answer is checked (a full page, linked items, no GraphQL \`errors\`); the misses seen are
printed beside the requests sent. Then times the schema build of a model of
--types content types.

  --items N         items in the project (default 10000)
  --engine E        pglite or postgres (default pglite; postgres is started like the test engines)
  --seconds S       measured seconds per scenario after a warm-up (default 10)
  --connections C   connections of the throughput rows (default 16; latency rows use 1)
  --types T         content types of the schema-build model (default 100)
  --loader L        wrk or autocannon (default wrk, installed with apt-get on first use)
  --help            this text`;

const argv = process.argv.slice(2);
const { values: args } = parseArgs({
  args: argv[0] === '--' ? argv.slice(1) : argv,
  options: {
    items: { type: 'string', default: '10000' },
    engine: { type: 'string', default: 'pglite' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    types: { type: 'string', default: '100' },
    loader: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const items = Number(args.items);
const seconds = Number(args.seconds);
const connections = Number(args.connections);
const typeCount = Number(args.types);
const engine = args.engine as Engine;
if (
  ![items, seconds, connections, typeCount].every((n) => Number.isInteger(n) && n >= 1) ||
  items < 200 ||
  (engine !== 'pglite' && engine !== 'postgres')
) {
  console.error(`Invalid options (items ≥ 200; whole numbers ≥ 1).\n\n${usage}`);
  process.exit(2);
}
const warmup = Math.min(3, Math.max(1, Math.round(seconds / 3)));

/** The GraphQL query of the REST list: the same 10 articles, their authors and related articles. */
function graphqlQuery(below: string): string {
  const linked = '_system_ { codename name lastModified } ... on Author { name } ... on Article { title rank summary }';
  return (
    `{ article_All(where: { rank: { lt: ${below} } }, order: { rank: desc }, limit: 10) { items { ` +
    `_system_ { codename name lastModified } title rank summary ` +
    `authors { items { ${linked} } } related { items { ${linked} } } } } }`
  );
}

/** The URL of the GraphQL GET with `{n}` left raw for the load generator's walk: in the query text as a literal, or in the variables (one query text, as clients built with codegen send). */
const graphqlPath = (projectId: string, gte: string) =>
  `/${projectId}?query=${encodeURIComponent(graphqlQuery('__N__')).replace('__N__', gte)}`;
const graphqlVariablesPath = (projectId: string, gte: string) =>
  `/${projectId}?query=${encodeURIComponent(`query List($n: Float!) ${graphqlQuery('$n')}`)}&variables=${encodeURIComponent('{"n":__N__}').replace('__N__', gte)}`;
const restPath = (projectId: string, below: string) =>
  `/${projectId}/items?system.type=article&elements.rank%5Blt%5D=${below}&order=elements.rank%5Bdesc%5D&limit=10&depth=1`;

/**
 * What every answer must hold: a full page of 10 articles with their linked items (REST: the
 * pagination count and 10 items + linked ones; GraphQL: 10 items with rank, and no `errors`, which
 * GraphQL sends with HTTP 200).
 */
const restChecks = {
  expect: [{ text: '"pagination":{"skip":0,"limit":10,"count":10,' }, { text: '"system":{', times: 11 }],
};
const graphqlChecks = {
  expect: [{ text: '{"data":{"article_All":{"items":[{' }, { text: '"rank":', times: 10 }],
  reject: ['"errors":'],
};

interface Pair {
  readonly name: string;
  readonly connections: number;
  readonly rest: LoadResult;
  readonly graphql: LoadResult;
  readonly variables: LoadResult;
}

async function main() {
  const loader = chooseLoader(args.loader as LoaderName | undefined);
  console.log(`\n== ${engine}, ${items} items`);
  const postgres = engine === 'postgres' ? await startPostgres() : null;
  const seed = await prepareSeed({ engine, items, ...(postgres ? { postgresAdminUrl: postgres.endpoint } : {}) });
  await timeIndexRebuild(seed);
  const articles = items - authorCount(items);
  const pairs: Pair[] = [];
  try {
    const server = await startLectern(seed, {
      LECTERN_DELIVERY_UNCACHED_PER_SECOND: '0',
      LECTERN_DELIVERY_UNCACHED_PER_MINUTE: '0',
      LECTERN_GRAPHQL_UNITS_PER_SECOND: '0',
      LECTERN_GRAPHQL_UNITS_PER_MINUTE: '0',
      LECTERN_DELIVERY_CACHE_ENTRIES: String(Math.min(5000, Math.floor(articles / 4))),
    });
    try {
      await waitUntilSettled(server.url, 600);
      const graphqlUrl = server.urls?.['graphql'] ?? '';
      const p = seed.projectId;
      const mid = String(Math.floor(articles / 2));
      // The two answers hold the same items and linked items.
      const rest = (await (await fetch(`${server.url}${restPath(p, mid)}`)).json()) as {
        items: { system: { codename: string } }[];
        modular_content: Record<string, unknown>;
      };
      const gql = (await (await fetch(`${graphqlUrl}${graphqlPath(p, mid)}`)).json()) as {
        data?: {
          article_All: {
            items: { _system_: { codename: string }; authors: { items: unknown[] }; related: { items: unknown[] } }[];
          };
        };
        errors?: unknown;
      };
      const gqlItems = gql.data?.article_All.items ?? [];
      const sameItems =
        JSON.stringify(rest.items.map((i) => i.system.codename)) ===
        JSON.stringify(gqlItems.map((i) => i._system_.codename));
      console.log(
        `  same answer: ${sameItems ? 'yes' : `NO ${JSON.stringify(gql.errors ?? null)}`} ` +
          `(${rest.items.length} items, REST modular_content ${Object.keys(rest.modular_content).length}, ` +
          `GraphQL linked ${gqlItems.reduce((n, i) => n + i.authors.items.length + i.related.items.length, 0)})`,
      );
      const viaVariables = (await (await fetch(`${graphqlUrl}${graphqlVariablesPath(p, mid)}`)).json()) as typeof gql;
      if (JSON.stringify(viaVariables.data) !== JSON.stringify(gql.data)) {
        console.log(`  GraphQL with variables answers differently: ${JSON.stringify(viaVariables.errors ?? null)}`);
      }
      let offset = Number(mid) + 1;
      const load = async (
        base: string,
        template: string,
        c: number,
        isWalk: boolean,
        checks: typeof restChecks | typeof graphqlChecks,
      ) => {
        const spec = {
          baseUrl: base,
          template,
          start: 10,
          count: isWalk ? articles - 10 : 0,
          width: 0,
          connections: c,
          ...checks,
        };
        const warm = await runLoad(loader, { ...spec, seconds: warmup, offset });
        const result = await runLoad(loader, { ...spec, seconds, offset: warm.nextOffset });
        offset = result.nextOffset;
        return result;
      };
      const measure = async (name: string, c: number, isWalk: boolean) => {
        process.stdout.write(`  ${name}, c=${c} …`);
        const gte = isWalk ? '{n}' : mid;
        const r = await load(server.url, restPath(p, gte), c, isWalk, restChecks);
        const g = await load(graphqlUrl, graphqlPath(p, gte), c, isWalk, graphqlChecks);
        const v = await load(graphqlUrl, graphqlVariablesPath(p, gte), c, isWalk, graphqlChecks);
        process.stdout.write(
          ` REST ${r.requestsPerSecond.toFixed(0)}, GraphQL ${g.requestsPerSecond.toFixed(0)} (variables ${v.requestsPerSecond.toFixed(0)}) req/s\n`,
        );
        pairs.push({ name, connections: c, rest: r, graphql: g, variables: v });
      };
      await measure('list of 10 + linked, cache miss', 1, true);
      await measure('list of 10 + linked, cache miss', connections, true);
      await measure('list of 10 + linked, cache hit', connections, false);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(seed.dataDir, { recursive: true, force: true });
    await postgres?.stop();
    if (postgres?.dir) rmSync(postgres.dir, { recursive: true, force: true });
  }
  const schema = timeSchemaBuild(typeCount);

  console.log(
    `\n### REST vs GraphQL, ${engine}, ${items} items (${articles} articles)\n` +
      `load: ${loader} from its own process, ${seconds} s per scenario after ${warmup} s warm-up; ` +
      `server: \`lectern start\` in its own process (rate limits off); Node ${process.version}, ${availableParallelism()} CPUs\n`,
  );
  const ms = (r: LoadResult) => `${r.p50Ms.toFixed(2)} / ${r.p99Ms.toFixed(2)}`;
  const ratio = (g: LoadResult, r: LoadResult) => (g.requestsPerSecond / Math.max(1, r.requestsPerSecond)).toFixed(2);
  console.log(
    table(
      [
        'scenario',
        'conns',
        'REST req/s',
        'REST p50/p99 ms',
        'GraphQL literal req/s',
        'p50/p99 ms',
        '÷ REST',
        'GraphQL variables req/s',
        'p50/p99 ms',
        '÷ REST',
        'errors REST/literal/variables',
        'wrong answers',
        'x-cache MISS / requests',
      ],
      pairs.map((x) => [
        x.name,
        String(x.connections),
        x.rest.requestsPerSecond.toFixed(0),
        ms(x.rest),
        x.graphql.requestsPerSecond.toFixed(0),
        ms(x.graphql),
        ratio(x.graphql, x.rest),
        x.variables.requestsPerSecond.toFixed(0),
        ms(x.variables),
        ratio(x.variables, x.rest),
        `${x.rest.errors}/${x.graphql.errors}/${x.variables.errors}`,
        `${x.rest.answerErrors}/${x.graphql.answerErrors}/${x.variables.answerErrors}`,
        [x.rest, x.graphql, x.variables].map((r) => `${r.misses ?? '-'}/${r.requests}`).join(', '),
      ]),
    ),
  );
  console.log(`\n### Schema build, ${schema.types} content types (every element kind twice, 5 snippets)\n`);
  console.log(
    table(
      ['types', 'fields in schema', 'first build ms', 'median build ms', 'cache hit µs'],
      [
        [
          String(schema.types),
          String(schema.fields),
          schema.firstMs.toFixed(1),
          schema.medianMs.toFixed(1),
          schema.cachedMicros.toFixed(1),
        ],
      ],
    ),
  );
}

await main();

// Smart Recommendations benchmark (issue 16). Quality: writes a generated labelled corpus (topical
// clusters, personas) as published articles through core operations, lets the recommendation
// consumer index it, then measures precision@5 of `similar` (same topic as the current item) and
// of search (same topic as the query words), the popular order after visits, and filter
// correctness. Latency (recs-latency.ts): fills the index with N generated entries through its
// writer port, a Zipf-distributed popularity of --visits visits (recs-popularity.ts), and drives recommend/items and search/items with wrk from a separate process. Each
// on the embedded index (PGlite, pgvector) and the cluster's (PostgreSQL + OpenSearch k-NN,
// engines from test/engines). Prints tables; asserts nothing (CONVENTIONS).
// Run: pnpm run bench:recommendations -- [--per-topic 50] [--items 10000,100000] [--engines pgvector,knn]
import { parseArgs } from 'node:util';
import { createHashedEmbedder, createRecsConsumer } from '../../packages/core/src/index.ts';
import { corpusPersonas, corpusTopics, generateCorpus, writeCorpus } from '../../packages/recs-sql/src/index.ts';
import { defaultPgliteSharedBuffersMib } from '../../packages/store-sql/src/index.ts';
import { openBenchProject, stopBenchEngines, type BenchEngine } from './recs-bench-project.ts';
import { latency } from './recs-latency.ts';
import { topicPrecision } from './recs-precision.ts';

const usage = `Usage: pnpm run bench:recommendations -- [options]

  --per-topic N    articles per topic in the quality corpus (6 topics; default 50)
  --borrowed B[,B…] words of 12 per article taken from another topic (default 2,4)
  --overlap O      words of 20 each topic's vocabulary shares with the next topic (default 6;
                   0: topics share almost no words and precision@5 is a sanity check)
  --items N[,N…]   index sizes for the latency table (default 10000,100000)
  --visits V       Zipf-distributed visits written before the latency runs (default 1000000)
  --seconds S      seconds of wrk load per index, size and scenario (default 10)
  --engines E[,E…] pgvector (PGlite, embedded) and/or knn (PostgreSQL + OpenSearch k-NN) (default both)
  --force-merge    merge the k-NN index into one segment after loading (default: as loaded)
  --pglite-buffers M  PGlite's shared buffers in MiB (LECTERN_PGLITE_SHARED_BUFFERS_MB; default ${defaultPgliteSharedBuffersMib})
  --help           this text`;

const argv = process.argv.slice(2);
const { values: args } = parseArgs({
  args: argv[0] === '--' ? argv.slice(1) : argv,
  options: {
    'per-topic': { type: 'string', default: '50' },
    borrowed: { type: 'string', default: '2,4' },
    overlap: { type: 'string', default: '6' },
    items: { type: 'string', default: '10000,100000' },
    visits: { type: 'string', default: '1000000' },
    seconds: { type: 'string', default: '10' },
    engines: { type: 'string', default: 'pgvector,knn' },
    'force-merge': { type: 'boolean', default: false },
    'pglite-buffers': { type: 'string', default: String(defaultPgliteSharedBuffersMib) },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const perTopic = Number(args['per-topic']);
const sizes = args.items.split(',').map(Number);
const seconds = Number(args.seconds);
const pgliteBuffersMib = Number(args['pglite-buffers']);
const benchEngines = args.engines.split(',') as BenchEngine[];
const borrowedCounts = args.borrowed.split(',').map(Number);
const overlap = Number(args.overlap);
const visits = Number(args.visits);
if (
  ![perTopic, seconds, pgliteBuffersMib, visits, ...sizes].every((n) => Number.isInteger(n) && n >= 1) ||
  !(Number.isInteger(overlap) && overlap >= 0 && overlap <= 10) ||
  !borrowedCounts.every((n) => Number.isInteger(n) && n >= 0 && n <= 12) ||
  !benchEngines.every((e) => e === 'pgvector' || e === 'knn')
) {
  console.error(`Invalid options (whole numbers ≥ 1).\n\n${usage}`);
  process.exit(2);
}

const embedder = createHashedEmbedder();
const fmt = (n: number) => n.toFixed(2);

async function quality(borrowed: number, engine: BenchEngine) {
  const p = await openBenchProject({ engine, embedder });
  const corpus = generateCorpus({ perTopic, borrowed, overlap });
  const personaOf = new Map(corpus.map((c) => [c.codename, c.persona]));
  const began = performance.now();
  await writeCorpus(p.core, { projectId: p.projectId, items: corpus });
  const written = performance.now();
  await createRecsConsumer({ core: p.core, writer: p.recs.writer, embedder }).catchUp(p.projectId);
  const indexed = performance.now();
  const recommend = (current: string, extra: Record<string, unknown> = {}) =>
    p.post('recommend/items', {
      visitId: 'bench',
      currentItemCodename: current,
      responseLimit: 5,
      requestedTypeCodename: 'article',
      ...extra,
    });
  const precision = await topicPrecision({ post: p.post, corpus, visitId: 'bench', overlap });
  // Popular: visits 10, 8, 6, 4, 2 on five items must come back in that order.
  const visited = [0, 1, 2, 3, 4].map((k) => corpus[k * Math.floor(corpus.length / 5) + 3]!);
  for (const [i, item] of visited.entries())
    for (let v = 0; v < 10 - 2 * i; v++)
      await p.post('track/visit', { visitId: `v${v}`, currentItemCodename: item.codename });
  const popular = await recommend('none', { recommendationSettings: { scenario: 'popular' } });
  const isPopularOrder = popular.join() === visited.map((v) => v.codename).join();
  // Filters: each persona, every match and nothing else.
  let filterCorrect = 0;
  for (const persona of corpusPersonas) {
    const got = await recommend('none', {
      responseLimit: corpus.length,
      recommendationSettings: { scenario: 'similar', filter: `"persona=${persona}" in 'properties'` },
    });
    const want = corpus
      .filter((c) => c.persona === persona)
      .map((c) => c.codename)
      .sort();
    if (got.every((c) => personaOf.get(c) === persona) && got.sort().join() === want.join()) filterCorrect += 1;
  }
  await p.close();
  console.log(
    `\nQuality (${engine}) on a generated corpus: ${corpus.length} articles, ${Object.keys(corpusTopics).length} topics, ${corpusPersonas.length} personas, ${borrowed} of 12 topical words borrowed from another topic, ${overlap} of 20 words of each topic shared with the next`,
  );
  console.log(
    `(written in ${fmt((written - began) / 1000)} s, indexed in ${fmt((indexed - written) / 1000)} s; embedder ${embedder.id})\n`,
  );
  console.log('| measure | value |\n| --- | --- |');
  console.log(`| precision@5 similar (same topic), ${corpus.length} items | ${fmt(precision.similar)} |`);
  console.log(`| precision@5 search (same topic), ${precision.queries} queries | ${fmt(precision.search)} |`);
  console.log(
    `| popular order after 10/8/6/4/2 visits | ${isPopularOrder ? 'exact' : `wrong: ${popular.join(', ')}`} |`,
  );
  console.log(`| persona filters exactly right | ${filterCorrect}/${corpusPersonas.length} |`);
}

try {
  for (const engine of benchEngines) for (const borrowed of borrowedCounts) await quality(borrowed, engine);
  const rows: string[] = [];
  for (const engine of benchEngines)
    for (const size of sizes)
      rows.push(
        ...(await latency({
          size,
          engine,
          embedder,
          seconds,
          isForceMerged: args['force-merge'],
          pgliteBuffersMib,
          visits,
        })),
      );
  console.log(
    `\nLatency: wrk from a separate process, one connection, ${seconds} s per row after a 2 s warm-up; limit 10; over HTTP with auth and visit tracking:\n`,
  );
  console.log(
    '| index | items | request | p50 ms | p99 ms | requests | errors: failed or non-200 + answers without 10 codenames |\n| --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const r of rows) console.log(r);
} finally {
  await stopBenchEngines();
}

// The latency half of the Smart Recommendations benchmark: fills the recommendation index of one
// project with N generated entries directly through its writer port (RecsIndexWriter.apply, in
// batches of 1000; publishing N items through Management would take far longer and measures
// the write path, not this one), fills the popularity with Zipf-distributed visits
// (recs-popularity.ts), then drives POST /api/v2/recommend/items and /search/items with
// wrk from a separate process, one connection, and prints p50/p99 per scenario.
import { randomUUID } from 'node:crypto';
import { embeddedText, entryOf, words, type EmbeddingProvider, type RecsEntry } from '../../packages/core/src/index.ts';
import { generateCorpus } from '../../packages/recs-sql/src/index.ts';
import { openBenchProject, type BenchEngine } from './recs-bench-project.ts';
import { runPostLoad } from './recs-load.ts';
import { fillZipfVisits } from './recs-popularity.ts';

const fmt = (n: number) => n.toFixed(2);
const engineNames: Readonly<Record<BenchEngine, string>> = {
  pgvector: 'PGlite + pgvector HNSW (embedded)',
  knn: 'PostgreSQL + OpenSearch k-NN, Lucene HNSW (cluster)',
};

/** Entries of N generated articles, one language, with their embeddings. */
async function entries(size: number) {
  const corpus = generateCorpus({ perTopic: Math.ceil(size / 6), seed: 11 }).slice(0, size);
  const rendered = corpus.map((c) => ({
    ...entryOf({
      system: {
        id: randomUUID(),
        name: c.name,
        codename: c.codename,
        language: 'default',
        type: 'article',
        collection: 'default',
        sitemap_locations: [],
        last_modified: new Date().toISOString(),
      },
      elements: {
        body: { type: 'rich_text', name: 'Body', value: `<p>${c.body}</p>` },
        persona: { type: 'multiple_choice', name: 'Persona', value: [{ name: c.persona, codename: c.persona }] },
      },
    }),
    itemId: randomUUID(),
  }));
  const df = new Map<string, number>();
  for (const e of rendered) for (const t of e.terms) df.set(t, (df.get(t) ?? 0) + 1);
  const stats = { documents: rendered.length, documentFrequency: (t: string) => df.get(t) ?? 0 };
  return { corpus, rendered, stats };
}

export async function latency(options: {
  size: number;
  engine: BenchEngine;
  embedder: EmbeddingProvider;
  seconds: number;
  /** Force-merge the k-NN index after loading (see forceMerge). */
  isForceMerged: boolean;
  pgliteBuffersMib: number;
  /** Visits drawn from a Zipf distribution over the entries before the runs (recs-popularity.ts). */
  visits: number;
}): Promise<string[]> {
  const { size, embedder } = options;
  const p = await openBenchProject({ engine: options.engine, embedder, pgliteBuffersMib: options.pgliteBuffersMib });
  const { corpus, rendered, stats } = await entries(size);
  const began = performance.now();
  for (let start = 0; start < rendered.length; start += 1000) {
    const part = rendered.slice(start, start + 1000);
    const vectors = await embedder.embed(part.map(embeddedText), { stats });
    const items = part.map((e, i) => ({ itemId: e.itemId, entries: [{ ...e, embedding: vectors[i]! } as RecsEntry] }));
    const isLast = start + 1000 >= rendered.length;
    await p.recs.writer.apply({ projectId: p.projectId, toSeq: 1, embedder: embedder.id, items, isPartial: !isLast });
  }
  await p.store.analyze();
  const loaded = (performance.now() - began) / 1000;
  const merged = options.isForceMerged ? await p.forceMerge() : '';
  // Popularity with a long tail, as a site that has run a while has it: popular and default rank
  // against a table of (up to) every item, not a handful.
  const fill = await fillZipfVisits(p.store.db, {
    projectId: p.projectId,
    codenames: corpus.map((c) => c.codename),
    visits: options.visits,
  });
  await p.store.analyze();
  const popularNow = await p.post('recommend/items', {
    visitId: 'check',
    currentItemCodename: 'none',
    responseLimit: 10,
    requestedTypeCodename: 'article',
    recommendationSettings: { scenario: 'popular' },
  });
  const popularRight = popularNow.filter((c, i) => c === fill.top[i]).length;
  const scenarios: [string, Record<string, unknown> | null][] = [
    ['similar', { scenario: 'similar' }],
    ['popular', { scenario: 'popular' }],
    ['default', { scenario: 'default' }],
    [
      'similar + filter + booster',
      {
        scenario: 'similar',
        filter: `"persona=developer" in 'properties' and 'lastupdated' > now() - 86400000`,
        booster: `if 'name' != "" then 2 else 1`,
      },
    ],
    ['search (3 words)', null],
  ];
  const rows: string[] = [];
  for (const [name, settings] of scenarios) {
    const currents = Array.from({ length: 300 }, (_, i) => corpus[(i * 7919) % corpus.length]!);
    const bodies = currents.map((c) =>
      JSON.stringify(
        settings === null
          ? { visitId: 'b', query: words(c.body).slice(0, 3).join(' '), resultCount: 10 }
          : {
              visitId: 'b',
              currentItemCodename: c.codename,
              responseLimit: 10,
              requestedTypeCodename: 'article',
              recommendationSettings: settings,
            },
      ),
    );
    const path = settings === null ? '/api/v2/search/items' : '/api/v2/recommend/items';
    await runPostLoad({ baseUrl: p.url, path, key: p.key, bodies, seconds: 2 }); // warm-up
    const r = await runPostLoad({ baseUrl: p.url, path, key: p.key, bodies, seconds: options.seconds, expected: 10 });
    rows.push(
      `| ${options.engine} | ${size} | ${name} | ${fmt(r.p50Ms)} | ${fmt(r.p99Ms)} | ${r.requests} | ${r.errors} + ${r.badBodies} |`,
    );
  }
  const floor = await p.floor();
  await p.close();
  const pool = options.engine === 'pgvector' ? `, shared_buffers ${options.pgliteBuffersMib} MiB` : '';
  console.log(
    `\n${engineNames[options.engine]}${pool}: ${size} entries loaded through the writer port in ${fmt(loaded)} s`,
  );
  console.log(
    `  popularity: ${fill.visits.toLocaleString('en')} Zipf visits over ${fill.distinct.toLocaleString('en')} items ` +
      `(the top 1 % of items got ${(fill.headShare * 100).toFixed(0)} % of them), written in ${fmt(fill.seconds)} s; ` +
      `popular's first 10 in the table's order: ${popularRight}/10`,
  );
  console.log(`  round trips from this process after the runs: ${floor}`);
  if (merged !== '') console.log(`  ${merged}`);
  return rows;
}

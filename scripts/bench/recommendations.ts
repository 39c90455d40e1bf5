// Smart Recommendations benchmark (issue 16). Quality: writes a generated labelled corpus (topical
// clusters, personas) as published articles through core operations on PGlite (pgvector), lets the
// recommendation consumer index it, then measures precision@5 of `similar` (same topic as the
// current item) and of search (same topic as the query words), the popular order after visits, and
// filter correctness. Latency: fills the index with N generated entries and times POST
// /api/v2/recommend/items over HTTP on loopback (auth, validation, one SQL statement), one request
// at a time. Prints tables; asserts nothing (CONVENTIONS: benchmarks are scripts that print tables).
// Run: pnpm run bench:recommendations -- [--per-topic 50] [--items 10000] [--requests 300]
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import {
  createApiKey,
  createHashedEmbedder,
  createProject,
  createRecsConsumer,
  embeddedText,
  entryOf,
  operator,
  randomIds,
  systemClock,
  words,
  type CoreDeps,
  type RecsEntry,
} from '../../packages/core/src/index.ts';
import { createLogger, createProcessMetrics, createReadiness, listen } from '../../packages/http-kit/src/index.ts';
import { buildRecommendationsApp } from '../../services/recommendations/src/index.ts';
import {
  corpusPersonas,
  corpusTopics,
  createSqlRecs,
  generateCorpus,
  writeCorpus,
} from '../../packages/recs-sql/src/index.ts';
import { openPgliteStore } from '../../packages/store-sql/src/index.ts';

const usage = `Usage: pnpm run bench:recommendations -- [options]

  --per-topic N    articles per topic in the quality corpus (6 topics; default 50)
  --borrowed B[,B…] words of 12 per article taken from another topic (default 2,4)
  --items N[,N…]   index sizes for the latency table (default 10000)
  --requests R     timed recommend/items requests per size and scenario (default 300)
  --help           this text`;

const argv = process.argv.slice(2);
const { values: args } = parseArgs({
  args: argv[0] === '--' ? argv.slice(1) : argv,
  options: {
    'per-topic': { type: 'string', default: '50' },
    borrowed: { type: 'string', default: '2,4' },
    items: { type: 'string', default: '10000' },
    requests: { type: 'string', default: '300' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const perTopic = Number(args['per-topic']);
const sizes = args.items.split(',').map(Number);
const requests = Number(args.requests);
const borrowedCounts = args.borrowed.split(',').map(Number);
if (
  ![perTopic, requests, ...sizes].every((n) => Number.isInteger(n) && n >= 1) ||
  !borrowedCounts.every((n) => Number.isInteger(n) && n >= 0 && n <= 12)
) {
  console.error(`Invalid options (whole numbers ≥ 1).\n\n${usage}`);
  process.exit(2);
}

const embedder = createHashedEmbedder();
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const fmt = (n: number) => n.toFixed(2);

async function openProject() {
  const store = await openPgliteStore();
  const core: CoreDeps = { store, clock: systemClock, ids: randomIds };
  const project = await createProject(core, { actor: operator, name: 'Bench' });
  const key = await createApiKey(core, { actor: operator, projectId: project.id, kind: 'recommendations' });
  const recs = await createSqlRecs({ db: store.db });
  const app = buildRecommendationsApp({
    metrics: createProcessMetrics(),
    readiness: createReadiness([]),
    logger: createLogger({ level: 'silent' }),
    engine: { core, reader: recs.reader, tracking: recs.tracking, embedder },
  });
  const listening = await listen(app, { host: '127.0.0.1', port: 0 });
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${listening.url}/api/v2/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    const text = await response.text();
    return text === '' ? [] : ((JSON.parse(text) as { codename: string }[]).map((i) => i.codename) as string[]);
  };
  const close = async () => {
    await listening.close();
    await store.close();
  };
  return { store, core, projectId: project.id, recs, post, close };
}

async function quality(borrowed: number) {
  const p = await openProject();
  const corpus = generateCorpus({ perTopic, borrowed });
  const topicOf = new Map(corpus.map((c) => [c.codename, c.topic]));
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
  // Similar: every item's five recommendations, the share of the same topic.
  let similarHits = 0;
  let similarTotal = 0;
  for (const item of corpus) {
    const got = await recommend(item.codename, { recommendationSettings: { scenario: 'similar' } });
    similarHits += got.filter((c) => topicOf.get(c) === item.topic).length;
    similarTotal += 5;
  }
  // Search: ten queries of three topic words per topic.
  let searchHits = 0;
  let searchTotal = 0;
  let seed = 7;
  const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (const [topic, vocabulary] of Object.entries(corpusTopics))
    for (let q = 0; q < 10; q++) {
      const query = Array.from({ length: 3 }, () => vocabulary[Math.floor(next() * vocabulary.length)]).join(' ');
      const got = await p.post('search/items', {
        visitId: 'bench',
        query,
        resultCount: 5,
        requestedTypeCodename: 'article',
      });
      searchHits += got.filter((c) => topicOf.get(c) === topic).length;
      searchTotal += 5;
    }
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
    `\nQuality on a generated corpus: ${corpus.length} articles, ${Object.keys(corpusTopics).length} topics, ${corpusPersonas.length} personas, ${borrowed} of 12 topical words borrowed from another topic`,
  );
  console.log(
    `(written in ${fmt((written - began) / 1000)} s, indexed in ${fmt((indexed - written) / 1000)} s; embedder ${embedder.id})\n`,
  );
  console.log('| measure | value |\n| --- | --- |');
  console.log(`| precision@5 similar (same topic), ${corpus.length} items | ${fmt(similarHits / similarTotal)} |`);
  console.log(`| precision@5 search (same topic), ${searchTotal / 5} queries | ${fmt(searchHits / searchTotal)} |`);
  console.log(
    `| popular order after 10/8/6/4/2 visits | ${isPopularOrder ? 'exact' : `wrong: ${popular.join(', ')}`} |`,
  );
  console.log(`| persona filters exactly right | ${filterCorrect}/${corpusPersonas.length} |`);
}

async function latency(size: number) {
  const p = await openProject();
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
  const rows: string[] = [];
  const scenarios: [string, Record<string, unknown>][] = [
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
    ['search (3 words)', {}],
  ];
  for (const [name, settings] of scenarios) {
    const times: number[] = [];
    for (let i = -20; i < requests; i++) {
      const current = corpus[((i + 20) * 7919) % corpus.length]!;
      const t0 = performance.now();
      if (name.startsWith('search'))
        await p.post('search/items', {
          visitId: 'b',
          query: words(current.body).slice(0, 3).join(' '),
          resultCount: 10,
        });
      else
        await p.post('recommend/items', {
          visitId: 'b',
          currentItemCodename: current.codename,
          responseLimit: 10,
          requestedTypeCodename: 'article',
          recommendationSettings: settings,
        });
      if (i >= 0) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    rows.push(`| ${size} | ${name} | ${fmt(percentile(times, 0.5))} | ${fmt(percentile(times, 0.99))} |`);
  }
  await p.close();
  console.log(
    `\nLatency at ${size} items (loaded in ${fmt(loaded)} s), ${requests} sequential requests each, limit 10, over HTTP:\n`,
  );
  console.log('| items | request | p50 ms | p99 ms |\n| --- | --- | --- | --- |');
  for (const r of rows) console.log(r);
}

for (const borrowed of borrowedCounts) await quality(borrowed);
for (const size of sizes) await latency(size);

// Smart Recommendations quality by embedding provider (issue 16). For each corpus difficulty
// (--borrowed) and each provider, writes the generated labelled corpus (six topics, personas) as
// published articles through core operations into a project on PGlite (pgvector), lets the
// recommendation consumer embed and index it with that provider, then asks the HTTP API: precision@5
// of `similar` for every article (share of the same topic) and of search for ten three-word topic
// queries per topic. Prints one table; asserts nothing (CONVENTIONS: benchmarks print tables).
// Run: pnpm run bench:recommendations-quality -- [--per-topic 50] [--borrowed 2,4,6] [--providers …]
import { parseArgs } from 'node:util';
import { createHashedEmbedder, createRecsConsumer, type EmbeddingProvider } from '../../packages/core/src/index.ts';
import { loadConfig } from '../../packages/config/src/index.ts';
import {
  createOnnxEmbedder,
  generateCorpus,
  modelDirOf,
  recsEmbeddingSettings,
  writeCorpus,
} from '../../packages/recs-sql/src/index.ts';
import { openBenchProject } from './recs-bench-project.ts';
import { topicPrecision } from './recs-precision.ts';

/** The providers compared: the defaults, and each as it was before (the hashed) or without its name vector. */
const modelDir = modelDirOf(loadConfig({ settings: recsEmbeddingSettings, env: process.env }));
const providers: Record<string, { about: string; open: () => Promise<EmbeddingProvider> }> = {
  'hashed-flat': {
    about: 'hashed as before: one slot per feature, name weighted like the body',
    open: () => Promise.resolve(createHashedEmbedder({ titleWeight: 1, slots: 1 })),
  },
  hashed: {
    about: 'hashed (default: four slots per feature, name ×2)',
    open: () => Promise.resolve(createHashedEmbedder()),
  },
  'onnx-flat': {
    about: 'ONNX all-MiniLM-L6-v2, whole text only',
    open: () => createOnnxEmbedder({ modelDir, padTo: 512, titleWeight: 0 }),
  },
  onnx: {
    about: 'ONNX all-MiniLM-L6-v2 (default: + name vector)',
    open: () => createOnnxEmbedder({ modelDir, padTo: 512 }),
  },
};

const usage = `Usage: pnpm run bench:recommendations-quality -- [options]

  --per-topic N      articles per topic (6 topics; default 50)
  --borrowed B[,B…]  words of 12 per article taken from another topic (default 2,4,6)
  --overlap O[,O…]   words of 20 each topic's vocabulary shares with the next topic (default 0,6:
                     0 as before, where topics share almost no words; 6 makes neighbours share
                     30 % of their vocabulary, queries and articles of shared words ambiguous)
  --providers P[,P…] of ${Object.keys(providers).join(', ')} (default all; the ONNX ones need
                     the model: source scripts/lib/models.sh && lectern_models)
  --help             this text`;

const argv = process.argv.slice(2);
const { values: args } = parseArgs({
  args: argv[0] === '--' ? argv.slice(1) : argv,
  options: {
    'per-topic': { type: 'string', default: '50' },
    borrowed: { type: 'string', default: '2,4,6' },
    overlap: { type: 'string', default: '0,6' },
    providers: { type: 'string', default: Object.keys(providers).join(',') },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const perTopic = Number(args['per-topic']);
const borrowedCounts = args.borrowed.split(',').map(Number);
const overlaps = args.overlap.split(',').map(Number);
const chosen = args.providers.split(',');
if (
  !(Number.isInteger(perTopic) && perTopic >= 2) ||
  !borrowedCounts.every((n) => Number.isInteger(n) && n >= 0 && n <= 12) ||
  !overlaps.every((n) => Number.isInteger(n) && n >= 0 && n <= 10) ||
  !chosen.every((p) => p in providers)
) {
  console.error(`Invalid options.\n\n${usage}`);
  process.exit(2);
}

interface Row {
  readonly borrowed: number;
  readonly overlap: number;
  readonly provider: string;
  readonly similar: number;
  readonly search: number;
  readonly msPerItem: number;
}

async function measure(options: {
  borrowed: number;
  overlap: number;
  provider: string;
  embedder: EmbeddingProvider;
}): Promise<Row> {
  const { embedder } = options;
  const { core, projectId, recs, post, close } = await openBenchProject({ engine: 'pgvector', embedder });
  try {
    const corpus = generateCorpus({ perTopic, borrowed: options.borrowed, overlap: options.overlap });
    await writeCorpus(core, { projectId, items: corpus });
    const began = performance.now();
    await createRecsConsumer({ core, writer: recs.writer, embedder }).catchUp(projectId);
    const msPerItem = (performance.now() - began) / corpus.length;
    // The same measures as bench:recommendations.
    const { similar, search } = await topicPrecision({ post, corpus, visitId: 'quality', overlap: options.overlap });
    return {
      borrowed: options.borrowed,
      overlap: options.overlap,
      provider: options.provider,
      similar,
      search,
      msPerItem,
    };
  } finally {
    await close();
  }
}

const opened = new Map<string, EmbeddingProvider>();
for (const name of chosen) {
  try {
    opened.set(name, await providers[name]!.open());
  } catch (error) {
    console.log(`(${name} left out: ${(error as Error).message})`);
  }
}
const rows: Row[] = [];
for (const overlap of overlaps)
  for (const borrowed of borrowedCounts)
    for (const [provider, embedder] of opened) {
      rows.push(await measure({ borrowed, overlap, provider, embedder }));
      process.stderr.write(`overlap ${overlap}, borrowed ${borrowed}, ${provider}: done\n`);
    }

const fmt = (n: number) => n.toFixed(2);
console.log(
  `\nPrecision@5 on the generated corpus: ${perTopic * 6} articles, 6 topics; similar: every article; ` +
    `search: 60 three-word topic queries. Over HTTP on PGlite (pgvector HNSW).\n`,
);
console.log(
  '| topic overlap of 20 | borrowed of 12 | provider | embedder id | precision@5 similar | precision@5 search | indexing ms/item |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows)
  console.log(
    `| ${r.overlap} | ${r.borrowed} | ${providers[r.provider]!.about} | ${opened.get(r.provider)!.id} | ${fmt(r.similar)} | ${fmt(r.search)} | ${fmt(r.msPerItem)} |`,
  );

// Precision@5 on the generated labelled corpus, for both Smart Recommendations benchmarks: the
// share of the same topic among each article's five `similar` recommendations, and among the
// five results of ten seeded three-word queries per topic (words of the topic's vocabulary, which
// may be shared with a neighbouring topic: such a query is ambiguous, and counts as it answers).
import { topicVocabularies, type CorpusItem } from '../../packages/recs-sql/src/index.ts';

type Post = (path: string, body: unknown) => Promise<string[]>;

export async function topicPrecision(options: {
  post: Post;
  corpus: readonly CorpusItem[];
  visitId: string;
  /** The corpus's topic overlap (generateCorpus): queries are drawn from the same vocabularies. */
  overlap: number;
}): Promise<{ similar: number; search: number; queries: number }> {
  const { post, corpus, visitId } = options;
  const topicOf = new Map(corpus.map((c) => [c.codename, c.topic]));
  let similarHits = 0;
  for (const item of corpus) {
    const got = await post('recommend/items', {
      visitId,
      currentItemCodename: item.codename,
      responseLimit: 5,
      requestedTypeCodename: 'article',
      recommendationSettings: { scenario: 'similar' },
    });
    similarHits += got.filter((c) => topicOf.get(c) === item.topic).length;
  }
  let searchHits = 0;
  let queries = 0;
  let seed = 7;
  const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (const [topic, vocabulary] of Object.entries(topicVocabularies(options.overlap)))
    for (let q = 0; q < 10; q++) {
      const query = Array.from({ length: 3 }, () => vocabulary[Math.floor(next() * vocabulary.length)]).join(' ');
      const got = await post('search/items', { visitId, query, resultCount: 5, requestedTypeCodename: 'article' });
      searchHits += got.filter((c) => topicOf.get(c) === topic).length;
      queries += 1;
    }
  return { similar: similarHits / (corpus.length * 5), search: searchHits / (queries * 5), queries };
}

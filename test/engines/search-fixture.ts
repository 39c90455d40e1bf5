/**
 * Data and expectations shared by the search-engine proofs, so that both official clients are
 * held to the same behaviour: a mapping, documents to bulk-index, one filtered, sorted, paged query
 * and the hits it must return, computed here in plain TypeScript.
 */

export interface Article {
  slug: string;
  title: string;
  category: 'news' | 'blog' | 'docs';
  rank: number;
  published: string;
}

export const articleMapping = {
  properties: {
    slug: { type: 'keyword' },
    title: { type: 'text' },
    category: { type: 'keyword' },
    rank: { type: 'integer' },
    published: { type: 'date' },
  },
} as const;

const categories = ['news', 'blog', 'docs'] as const;

/** 30 articles; ranks repeat so that the sort needs its tie-breaker. */
export const articles: readonly Article[] = Array.from({ length: 30 }, (_, i) => ({
  slug: `article-${String(i).padStart(2, '0')}`,
  title: `Article number ${i} about ${categories[i % 3]}`,
  category: categories[i % 3] ?? 'news',
  rank: i % 4,
  published: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
}));

/** The query under test: news with rank ≥ 1 (7 of the 30), rank descending then slug ascending, pages of 3. */
export const pageSize = 3;
export const articleQuery = {
  bool: {
    filter: [{ term: { category: 'news' } }, { range: { rank: { gte: 1 } } }],
  },
};
export const articleSort: Record<string, { order: 'asc' | 'desc' }>[] = [
  { rank: { order: 'desc' } },
  { slug: { order: 'asc' } },
];

/** What the engine must answer for page `page` (0-based): total matches and the slugs in order. */
export function expectedArticlePage(page: number): { total: number; slugs: string[] } {
  const matching = articles
    .filter((a) => a.category === 'news' && a.rank >= 1)
    .sort((a, b) => b.rank - a.rank || a.slug.localeCompare(b.slug));
  return {
    total: matching.length,
    slugs: matching.slice(page * pageSize, (page + 1) * pageSize).map((a) => a.slug),
  };
}

/** A unique index name per test, so tests never see each other's documents. */
export function uniqueIndexName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

// The benchmark project's shape, shared by the seeding process and the benchmark: 1% authors, the
// rest articles (title, rank = article number, summary, one author, the previous article as related).

/** Authors in a project of `items` items (1%, at least one). */
export function authorCount(items: number): number {
  return Math.max(1, Math.floor(items / 100));
}

export const authorCodename = (n: number) => `author_${String(n).padStart(6, '0')}`;
export const articleCodename = (n: number) => `article_${String(n).padStart(6, '0')}`;

import type { FastifyRequest } from 'fastify';

export interface Pagination {
  skip: number;
  limit: number;
  count: number;
  next_page: string;
  total_count?: number;
}

/**
 * The absolute URL of the next page: the request's own URL and parameters with `limit` and
 * `skip` moved last (reference 1.5); clients such as `toAllPromise` follow it verbatim.
 */
export function nextPageUrl(request: FastifyRequest, limit: number, skip: number): string {
  const [path = '', query = ''] = request.url.split('?');
  const kept = query
    .split('&')
    .filter((part) => part !== '')
    .filter((part) => {
      const key = (part.split('=')[0] ?? '').toLowerCase();
      return key !== 'skip' && key !== 'limit';
    });
  kept.push(`limit=${limit}`, `skip=${skip}`);
  return `${request.protocol}://${request.host}${path}?${kept.join('&')}`;
}

/** Pages a list held in memory (types, taxonomies, languages). */
export function pageOf<T>(
  request: FastifyRequest,
  all: readonly T[],
  query: { readonly skip: number; readonly limit: number | null },
): { page: T[]; pagination: Pagination } {
  const page = all.slice(query.skip, query.limit === null ? undefined : query.skip + query.limit);
  const hasMore = query.limit !== null && query.skip + page.length < all.length;
  return {
    page,
    pagination: {
      skip: query.skip,
      limit: query.limit ?? 0,
      count: page.length,
      next_page: hasMore ? nextPageUrl(request, query.limit ?? 0, query.skip + (query.limit ?? 0)) : '',
    },
  };
}

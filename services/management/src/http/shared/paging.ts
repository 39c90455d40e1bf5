import type { Request } from 'express';

/** The continuation token of a list request: `x-continuation` header, or the deprecated `continuationToken` query. */
export function continuationOf(req: Request): string | undefined {
  const header = req.header('x-continuation');
  if (header) return header;
  const query = req.query['continuationToken'];
  return typeof query === 'string' && query !== '' ? query : undefined;
}

/**
 * The `pagination` object every paged list carries (reference §1.6): both fields null on the
 * last page; `next_page` is the same URL without a query string.
 */
export function paginationJson(
  req: Request,
  token: string | null,
): { continuation_token: string | null; next_page: string | null } {
  if (token === null) return { continuation_token: null, next_page: null };
  return {
    continuation_token: token,
    next_page: `${req.protocol}://${req.get('host') ?? 'localhost'}${req.baseUrl}${req.path}`.replace(/\/$/, ''),
  };
}

import type { Request } from 'express';
import type { Continuation } from '@lectern/core';
import { publicPathOf } from '../public-origin.ts';

/**
 * The continuation token of a list request and what carried it: the `x-continuation` header, or
 * the deprecated `continuationToken` query parameter (v1 items read the query first).
 */
export function continuationOf(req: Request, options: { isQueryFirst?: boolean } = {}): Continuation | undefined {
  const header = req.header('x-continuation');
  const query = req.query['continuationToken'];
  const fromHeader: Continuation | undefined = header
    ? { token: header, source: { kind: 'header', name: 'x-continuation' } }
    : undefined;
  const fromQuery: Continuation | undefined =
    typeof query === 'string' && query !== ''
      ? { token: query, source: { kind: 'query', name: 'continuationToken' } }
      : undefined;
  return options.isQueryFirst ? (fromQuery ?? fromHeader) : (fromHeader ?? fromQuery);
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
    next_page: publicPathOf(req),
  };
}

import { LecternError } from '@lectern/errors';

export interface Page<T> {
  readonly items: T[];
  /** Token of the next page, or null on the last page. */
  readonly continuationToken: string | null;
}

/** Default page sizes seen in Kontent.ai (items 100, variant lists 50). */
export const defaultPageSize = 100;

/**
 * Cuts one page out of an ordered list. Tokens are opaque to clients (base64url of the offset);
 * a malformed one is an INVALID_QUERY error (error_code 1007).
 */
export function paginate<T>(
  all: readonly T[],
  options: { continuation?: string | undefined; pageSize?: number },
): Page<T> {
  const size = options.pageSize ?? defaultPageSize;
  const offset = options.continuation ? decodeToken(options.continuation) : 0;
  const items = all.slice(offset, offset + size);
  const next = offset + size;
  return {
    items,
    continuationToken: next < all.length ? Buffer.from(JSON.stringify({ o: next })).toString('base64url') : null,
  };
}

function decodeToken(token: string): number {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o?: unknown };
    if (typeof parsed.o === 'number' && Number.isInteger(parsed.o) && parsed.o >= 0) return parsed.o;
  } catch {
    // fall through
  }
  throw new LecternError('INVALID_QUERY', {
    message: "Query parameter 'continuationToken' is invalid. Use the continuation token from the previous page.",
  });
}

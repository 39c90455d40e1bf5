import { LecternError } from '@lectern/errors';

/**
 * A position in a paged list: how many items came before, and (in codename order) the codename of
 * the last one, so the next page starts after it by index instead of skipping `offset` rows.
 */
export interface Continuation {
  readonly offset: number;
  readonly afterCodename: string | null;
}

/**
 * Paging tokens of `/items-feed` and used-in (`X-Continuation`): an opaque base64url text naming
 * the position. An absent or empty header is the first page (gatsby-source sends `''`).
 */
export function readContinuation(header: string | string[] | undefined): Continuation {
  const token = Array.isArray(header) ? header[0] : header;
  if (token === undefined || token.trim() === '') return { offset: 0, afterCodename: null };
  try {
    const parsed = JSON.parse(Buffer.from(token.trim(), 'base64url').toString('utf8')) as { o?: unknown; c?: unknown };
    const offset = parsed?.o;
    const after = parsed?.c ?? null;
    if (
      typeof offset === 'number' &&
      Number.isSafeInteger(offset) &&
      offset >= 0 &&
      (after === null || (typeof after === 'string' && after !== ''))
    )
      return { offset, afterCodename: after };
  } catch {
    // falls through to the error below
  }
  throw new LecternError('CONTINUATION_TOKEN_INVALID');
}

export function writeContinuation(position: Continuation): string {
  const token =
    position.afterCodename === null ? { o: position.offset } : { o: position.offset, c: position.afterCodename };
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

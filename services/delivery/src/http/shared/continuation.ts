import { LecternError } from '@lectern/errors';

/**
 * Paging tokens of `/items-feed` and used-in (`X-Continuation`): an opaque base64url text naming
 * the offset. An absent or empty header is the first page (gatsby-source sends `''`).
 */
export function readContinuation(header: string | string[] | undefined): number {
  const token = Array.isArray(header) ? header[0] : header;
  if (token === undefined || token.trim() === '') return 0;
  try {
    const parsed = JSON.parse(Buffer.from(token.trim(), 'base64url').toString('utf8')) as unknown;
    const offset = (parsed as { o?: unknown } | null)?.o;
    if (typeof offset === 'number' && Number.isSafeInteger(offset) && offset >= 0) return offset;
  } catch {
    // falls through to the error below
  }
  throw new LecternError('CONTINUATION_TOKEN_INVALID');
}

export function writeContinuation(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

import { createHash } from 'node:crypto';
import { LecternError } from '@lectern/errors';
import type { KeyedPage, PageKey } from '../../ports/store.ts';

export interface Page<T> {
  readonly items: T[];
  /** Token of the next page, or null on the last page. */
  readonly continuationToken: string | null;
}

/** Default page sizes seen in Kontent.ai (items 100, variant lists 50). */
export const defaultPageSize = 100;

/** A continuation token as the client sent it, and what carried it, so that a refusal names it. */
export interface Continuation {
  readonly token: string;
  /** A header or a query parameter, by name (e.g. `x-continuation`, `continuationToken`). */
  readonly source: { readonly kind: 'header' | 'query'; readonly name: string };
}

/** INVALID_QUERY (error_code 1007) naming where the refused token came from. */
function invalidToken(continuation: Continuation): LecternError {
  const { kind, name } = continuation.source;
  const carrier = kind === 'header' ? `Header '${name}'` : `Query parameter '${name}'`;
  return new LecternError('INVALID_QUERY', {
    message: `${carrier} is invalid. Use the continuation token from the previous page.`,
  });
}

function encode(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decode(continuation: Continuation): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(continuation.token, 'base64url').toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // refused below
  }
  throw invalidToken(continuation);
}

/**
 * Cuts one page out of an ordered list held in memory (the small model lists). Tokens are opaque
 * to clients (base64url JSON of the offset); a malformed one is an INVALID_QUERY error.
 */
export function paginate<T>(
  all: readonly T[],
  options: { continuation?: Continuation | undefined; pageSize?: number },
): Page<T> {
  const size = options.pageSize ?? defaultPageSize;
  let offset = 0;
  if (options.continuation) {
    const o = decode(options.continuation)['o'];
    if (typeof o !== 'number' || !Number.isSafeInteger(o) || o < 0) throw invalidToken(options.continuation);
    offset = o;
  }
  const items = all.slice(offset, offset + size);
  const next = offset + size;
  return { items, continuationToken: next < all.length ? encode({ o: next }) : null };
}

/**
 * A list paged by keys in the store (KeyedPage): its name and what it is scoped to (project,
 * container). A token carries both, so a token of another list, project or container is refused
 * instead of starting at an unrelated key.
 */
export interface KeysetList {
  readonly name: string;
  readonly scope: readonly string[];
  /** How many numbers the store's keys of this list have. */
  readonly keyLength: number;
}

function scopeTag(list: KeysetList): string {
  return createHash('sha256').update(list.scope.join('/')).digest('base64url').slice(0, 8);
}

/** The key to read after for `continuation` (null for the first page); a token not of `list` is INVALID_QUERY. */
export function keysetAfter(list: KeysetList, continuation: Continuation | undefined): PageKey | null {
  if (!continuation) return null;
  const { l, s, k } = decode(continuation);
  const isKey =
    Array.isArray(k) &&
    k.length === list.keyLength &&
    k.every((n) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0);
  if (l !== list.name || s !== scopeTag(list) || !isKey) throw invalidToken(continuation);
  return k as number[];
}

/** The page of `list` the store returned, with the token of the next page. */
export function keysetPage<T>(list: KeysetList, page: KeyedPage<T>): Page<T> {
  return {
    items: page.rows,
    continuationToken: page.next === null ? null : encode({ l: list.name, s: scopeTag(list), k: page.next }),
  };
}

/**
 * Like keysetAfter, for a list whose keys mix strings and numbers (a sort value and a
 * tie-breaker): `kinds` gives the type of each part; a string part is at most 2,000 characters.
 */
export function mixedKeyAfter(
  list: Omit<KeysetList, 'keyLength'> & { readonly kinds: readonly ('string' | 'number')[] },
  continuation: Continuation | undefined,
): (string | number)[] | null {
  if (!continuation) return null;
  const { l, s, k } = decode(continuation);
  const isKey =
    Array.isArray(k) &&
    k.length === list.kinds.length &&
    k.every((part, i) =>
      list.kinds[i] === 'number'
        ? typeof part === 'number' && Number.isSafeInteger(part)
        : typeof part === 'string' && part.length <= 2000,
    );
  if (l !== list.name || s !== scopeTag({ ...list, keyLength: 0 }) || !isKey) throw invalidToken(continuation);
  return k as (string | number)[];
}

/** The token of the page after `next` in `list` (null when no page follows). */
export function mixedKeyToken(
  list: Omit<KeysetList, 'keyLength'>,
  next: readonly (string | number)[] | null,
): string | null {
  return next === null ? null : encode({ l: list.name, s: scopeTag({ ...list, keyLength: 0 }), k: next });
}

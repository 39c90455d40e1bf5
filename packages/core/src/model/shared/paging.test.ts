import { describe, expect, it } from 'vitest';
import { keysetAfter, keysetPage, paginate, type Continuation } from './paging.ts';

const header = (token: string): Continuation => ({ token, source: { kind: 'header', name: 'x-continuation' } });
const query = (token: string): Continuation => ({ token, source: { kind: 'query', name: 'continuationToken' } });
const items = { name: 'items', scope: ['p1'], keyLength: 1 };

describe('keyset tokens', () => {
  it('carry the key of the next page to the same list, and none after the last page', () => {
    const page = keysetPage(items, { rows: ['a', 'b'], next: [42] });
    expect(page.items).toEqual(['a', 'b']);
    expect(page.continuationToken).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(keysetAfter(items, header(page.continuationToken as string))).toEqual([42]);
    expect(keysetPage(items, { rows: [], next: null }).continuationToken).toBeNull();
    expect(keysetAfter(items, undefined)).toBeNull();
  });

  it('refuse tokens of another list or scope, and malformed ones, naming what carried them', () => {
    const token = keysetPage(items, { rows: [], next: [42] }).continuationToken as string;
    const refusals: [Continuation, { name: string; scope: string[]; keyLength: number }][] = [
      [header(token), { ...items, name: 'assets' }],
      [header(token), { ...items, scope: ['p2'] }],
      [header(token), { ...items, keyLength: 2 }],
      [header('%%%'), items],
      [header(Buffer.from('{"o":1}').toString('base64url')), items],
      [query(Buffer.from('[1]').toString('base64url')), items],
    ];
    for (const [continuation, list] of refusals)
      expect(() => keysetAfter(list, continuation)).toThrow(
        expect.objectContaining({
          code: 'INVALID_QUERY',
          message:
            continuation.source.kind === 'header'
              ? "Header 'x-continuation' is invalid. Use the continuation token from the previous page."
              : "Query parameter 'continuationToken' is invalid. Use the continuation token from the previous page.",
        }),
      );
  });
});

describe('paginate (lists held in memory)', () => {
  it('pages by offset and refuses a keyset token', () => {
    const all = Array.from({ length: 5 }, (_, i) => i);
    const first = paginate(all, { pageSize: 3 });
    expect(first.items).toEqual([0, 1, 2]);
    const second = paginate(all, { pageSize: 3, continuation: query(first.continuationToken as string) });
    expect(second).toEqual({ items: [3, 4], continuationToken: null });
    const keyset = keysetPage(items, { rows: [], next: [1] }).continuationToken as string;
    expect(() => paginate(all, { continuation: query(keyset) })).toThrow(/Query parameter 'continuationToken'/);
  });
});

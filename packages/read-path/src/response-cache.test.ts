import { describe, expect, it } from 'vitest';
import { ResponseCache, type CachedResponse } from './response-cache.ts';

const answer = (text: string): CachedResponse => ({
  body: Buffer.from(text),
  etag: `"${text}"`,
  headers: {},
  route: '/:projectId/items',
});

describe('the response cache', () => {
  it('keeps at most maxEntries answers, dropping the least recently used first', () => {
    const cache = new ResponseCache({ maxEntries: 2, maxBytes: 1_000 });
    cache.set('a', answer('a'));
    cache.set('b', answer('b'));
    expect(cache.get('a')?.etag).toBe('"a"'); // a is now the most recent
    cache.set('c', answer('c'));
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.etag).toBe('"a"');
    expect(cache.get('c')?.etag).toBe('"c"');
  });

  it('keeps the sum of body lengths within maxBytes, and never keeps a body over a quarter of it', () => {
    const cache = new ResponseCache({ maxEntries: 100, maxBytes: 40 });
    cache.set('big', answer('x'.repeat(11)));
    expect(cache.get('big')).toBeUndefined();
    for (const key of ['a', 'b', 'c', 'd', 'e']) cache.set(key, answer(key.repeat(10)));
    expect(cache.size).toBe(4);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('e')?.body.toString()).toBe('e'.repeat(10));
  });

  it('replaces an answer under the same key without counting it twice', () => {
    const cache = new ResponseCache({ maxEntries: 100, maxBytes: 40 });
    for (let i = 0; i < 10; i += 1) cache.set('same', answer(String(i).repeat(10)));
    cache.set('other', answer('o'.repeat(10)));
    expect(cache.size).toBe(2);
    expect(cache.get('same')?.body.toString()).toBe('9'.repeat(10));
  });

  it('keeps nothing with maxEntries 0', () => {
    const cache = new ResponseCache({ maxEntries: 0, maxBytes: 1_000 });
    cache.set('a', answer('a'));
    expect(cache.get('a')).toBeUndefined();
  });
});

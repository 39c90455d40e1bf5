import { describe, expect, it } from 'vitest';
import { shapeDifferences } from './fixture-shape.ts';

describe('shapeDifferences', () => {
  it('reports missing fields and type changes, recursively', () => {
    const fixture = { id: 'x', pagination: { continuation_token: null, next_page: 'u' }, items: [{ n: 1 }] };
    expect(
      shapeDifferences(
        { id: 'y', pagination: { continuation_token: 't', next_page: 'v' }, items: [{ n: 2 }] },
        fixture,
      ),
    ).toEqual([]);
    expect(shapeDifferences({ id: 1, pagination: {}, items: [{ n: '2' }] }, fixture)).toEqual([
      '$.id: expected string, got number',
      '$.pagination.continuation_token: missing',
      '$.pagination.next_page: missing',
      '$.items[0].n: expected number, got string',
    ]);
  });

  it('reports extra fields only when asked to be exact', () => {
    expect(shapeDifferences({ a: 1, b: 2 }, { a: 1 })).toEqual([]);
    expect(shapeDifferences({ a: 1, b: 2 }, { a: 1 }, { isExact: true })).toEqual(['$.b: not in the fixture']);
  });
});

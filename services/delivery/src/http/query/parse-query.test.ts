import { describe, expect, it } from 'vitest';
import { LecternError } from '@lectern/errors';
import { parseQuery } from './parse-query.ts';
import { profiles } from './profiles.ts';

const items = (qs: string) => parseQuery(`/p/items?${qs}`, profiles.items);

function rejects(qs: string, profile: Parameters<typeof parseQuery>[1] = profiles.items) {
  try {
    parseQuery(`/p/x?${qs}`, profile);
  } catch (error) {
    expect(error).toBeInstanceOf(LecternError);
    expect((error as LecternError).code).toBe('INVALID_QUERY');
    return;
  }
  throw new Error(`accepted: ${qs}`);
}

describe('parseQuery', () => {
  it('fills the SPEC 4.3 defaults', () => {
    expect(items('')).toEqual({
      language: null,
      elements: null,
      excludeElements: null,
      order: null,
      depth: 1,
      skip: 0,
      limit: null,
      isTotalCountIncluded: false,
      filters: [],
    });
  });

  it('reads a = b as eq, with brackets raw or percent-encoded', () => {
    const expected = [{ property: 'system.type', operator: 'eq', values: ['article'] }];
    expect(items('system.type=article').filters).toEqual(expected);
    expect(items('system.type[eq]=article').filters).toEqual(expected);
    expect(items('system.type%5Beq%5D=article').filters).toEqual(expected);
    expect(items('system.type%5beq%5d=article').filters).toEqual(expected);
  });

  it('reads every operator with its values', () => {
    expect(items('elements.a[neq]=x').filters[0]).toMatchObject({ operator: 'neq', values: ['x'] });
    expect(items('elements.a[empty]').filters[0]).toMatchObject({ operator: 'empty', values: [] });
    expect(items('elements.a%5Bnempty%5D=').filters[0]).toMatchObject({ operator: 'nempty', values: [] });
    for (const op of ['lt', 'lte', 'gt', 'gte']) {
      expect(items(`elements.n[${op}]=5`).filters[0]).toMatchObject({ operator: op, values: ['5'] });
    }
    expect(items('elements.n[range]=6.5,9').filters[0]).toMatchObject({ operator: 'range', values: ['6.5', '9'] });
    for (const op of ['in', 'nin', 'any', 'all', 'contains']) {
      expect(items(`elements.c[${op}]=a,b`).filters[0]).toMatchObject({ operator: op, values: ['a', 'b'] });
    }
    // A comma in an eq value is part of the value.
    expect(items('elements.t[eq]=Hello,%20World').filters[0]?.values).toEqual(['Hello, World']);
    expect(items('elements.t=a+b').filters[0]?.values).toEqual(['a b']);
  });

  it('ANDs repeated filters and adds up repeated projections', () => {
    const q = items('system.type=a&system.type[neq]=b&elements=x,y&elements=z&excludeElements=w');
    expect(q.filters).toHaveLength(2);
    expect(q.elements).toEqual(['x', 'y', 'z']);
    expect(q.excludeElements).toEqual(['w']);
  });

  it('takes up to 100 filters and refuses more, before the index plans them', () => {
    const filters = (n: number) => Array.from({ length: n }, (_, i) => `elements.count[gt]=${i}`).join('&');
    expect(items(filters(100)).filters).toHaveLength(100);
    rejects(filters(101));
    rejects(filters(1_000));
  });

  it('reads order, depth, paging and the total count flag', () => {
    const q = items('order=elements.title[desc]&depth=3&skip=10&limit=5&includeTotalCount=True&language=de-DE');
    expect(q).toMatchObject({
      order: { property: 'elements.title', direction: 'desc' },
      depth: 3,
      skip: 10,
      limit: 5,
      isTotalCountIncluded: true,
      language: 'de-DE',
    });
    expect(items('order=system.last_modified%5Basc%5D').order).toEqual({
      property: 'system.last_modified',
      direction: 'asc',
    });
    expect(items('limit=0').limit).toBeNull();
  });

  it.each([
    'foo=bar',
    'system.type[EQ]=a',
    'system.type[like]=a',
    'system.nope=a',
    'system.type[contains]=a',
    'elements.a[range]=1',
    'elements.a[range]=1,2,3',
    'elements.a[in]=',
    'elements.a[empty]=x',
    'elements.a',
    'elements.a-b=1',
    'elements.=1',
    'elements.a[eq',
    'depth=-1',
    'depth=abc',
    'depth=1.5',
    'skip=1e3',
    'limit=99999999999',
    'limit=1&limit=2',
    'includeTotalCount=yes',
    'order=elements.title[up]',
    'order=title',
    'order=system.sitemap_locations[asc]',
    'language=a%20b',
    'language=',
    'elements=a%2Cb-c',
    '%E0%A4%A=1',
    'system.type=%',
  ])('refuses %s with INVALID_QUERY', (qs) => rejects(qs));

  it('refuses what an endpoint does not take', () => {
    rejects('depth=1', profiles.types);
    rejects('elements.title=a', profiles.usedIn);
    rejects('system.name=a', profiles.usedIn);
    rejects('limit=1', profiles.item);
    rejects('system.type=a', profiles.none);
    expect(parseQuery('/p/used-in?system.type=a&language=en', profiles.usedIn).filters).toHaveLength(1);
  });
});

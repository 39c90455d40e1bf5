import { describe, expect, it } from 'vitest';
import type { IndexedVariant } from '@lectern/core';
import { assembleModularContent, maxReadAhead } from './modular-content.ts';

/** A variant linking `links`, with the read-ahead hint `next` when given. */
function variant(codename: string, links: readonly string[], next?: readonly string[]): IndexedVariant {
  return {
    itemId: `id-${codename}`,
    language: 'default',
    item: {
      system: {
        id: `id-${codename}`,
        name: codename,
        codename,
        language: 'default',
        type: 'article',
        collection: 'default',
        sitemap_locations: [],
        last_modified: '2026-01-01T00:00:00Z',
      },
      elements: { related: { type: 'modular_content', name: 'Related', value: [...links] } },
    },
    linkedItemCodenames: links,
    components: {},
    ...(next === undefined ? {} : { nextLinkedItemCodenames: next }),
  };
}

/** An index of `variants` by codename that records every fetch. */
function indexOf(variants: readonly IndexedVariant[]) {
  const byCodename = new Map(variants.map((v) => [v.item.system.codename, v]));
  const fetches: string[][] = [];
  const fetch = async (codenames: readonly string[]) => {
    fetches.push([...codenames]);
    return codenames.flatMap((c) => byCodename.get(c) ?? []);
  };
  return { fetches, fetch, root: (codename: string) => byCodename.get(codename)! };
}

/** a → b → c → d → e, each hint right (or as `hints` says). */
function chain(hints: Record<string, readonly string[]> = { a: ['c'], b: ['d'], c: ['e'], d: [] }) {
  return indexOf([
    variant('a', ['b'], hints['a']),
    variant('b', ['c'], hints['b']),
    variant('c', ['d'], hints['c']),
    variant('d', ['e'], hints['d']),
    variant('e', []),
  ]);
}

const assemble = (index: ReturnType<typeof indexOf>, depth: number, maxItems?: number) =>
  assembleModularContent({
    roots: [index.root('a')],
    depth,
    projection: { elements: null, excludeElements: null },
    fetch: index.fetch,
    ...(maxItems === undefined ? {} : { maxItems }),
  });

describe('assembleModularContent', () => {
  it('reads two levels per fetch with the hint, and answers what it answers without one', async () => {
    for (const depth of [1, 2, 3, 4]) {
      const hinted = chain();
      const plain = chain({});
      const withHint = await assemble(hinted, depth);
      const without = await assemble(plain, depth);
      expect(withHint).toEqual(without);
      expect(Object.keys(withHint)).toEqual(['b', 'c', 'd', 'e'].slice(0, depth));
      expect(plain.fetches).toHaveLength(depth);
      expect(hinted.fetches).toHaveLength(Math.ceil(depth / 2));
    }
  });

  it('asks for nothing ahead at the last level', async () => {
    const index = chain();
    await assemble(index, 1);
    expect(index.fetches).toEqual([['b']]);
  });

  it('fetches what a stale hint missed, and leaves out what it named wrongly', async () => {
    const index = chain({ a: ['x', 'e'] });
    const answer = await assemble(index, 2);
    expect(Object.keys(answer)).toEqual(['b', 'c']);
    expect(index.fetches).toEqual([['b', 'x', 'e'], ['c']]);
  });

  it('does not ask again for a codename read ahead and not found', async () => {
    const index = indexOf([variant('a', ['b'], ['gone']), variant('b', ['gone'])]);
    const answer = await assemble(index, 3);
    expect(Object.keys(answer)).toEqual(['b']);
    expect(index.fetches).toEqual([['b', 'gone']]);
  });

  it('counts only the items it answers against the response limit, and bounds what it reads ahead', async () => {
    const many = Array.from({ length: maxReadAhead + 20 }, (_, i) => `n${i}`);
    const index = indexOf([variant('a', ['b'], many), variant('b', ['c']), variant('c', [])]);
    const answer = await assemble(index, 2, 3);
    expect(Object.keys(answer)).toEqual(['b', 'c']);
    expect(index.fetches[0]).toHaveLength(1 + maxReadAhead);
  });
});

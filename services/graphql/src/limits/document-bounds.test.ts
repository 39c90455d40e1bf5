import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'graphql';
import { sampleQueriesPath } from '../testing/clients/sample-operations.ts';
import { documentLimits } from '../execute/prepared-documents.ts';
import {
  aliasedFields,
  fragmentBomb,
  manyFragments,
  nestedFragmentBomb,
  nestedLinks,
  repeatedLinks,
} from '../testing/hostile-queries.ts';
import { documentBounds } from './document-bounds.ts';

const link = { link: 'related' };
const bounds = (query: string) =>
  documentBounds(parse(query, { maxTokens: 4_000 }), { ...documentLimits, maxDepth: 124 });
const refusal = (query: string) => {
  const b = bounds(query);
  return b.isWithin ? null : b.code;
};

describe('document bounds before validation (issue 27)', () => {
  it('sums the root queries depths, root fields at level 0 (SPEC 8)', () => {
    expect(bounds('{ article_All { items { title } } }')).toMatchObject({ isWithin: true, depth: 2 });
    expect(
      bounds('{ a: article_All { items { title } } b: article(codename: "x") { _system_ { codename } } }'),
    ).toMatchObject({ depth: 4 });
    // Fragments select fields at the level they are spread.
    const q = `{ article_All { items { ...A } } } fragment A on Article { related { items { ...B } } } fragment B on Article { title }`;
    expect(bounds(q)).toMatchObject({ depth: 4, fields: 5 });
  });

  it('refuses 66 levels of linked items as too deep', () => {
    const query = nestedLinks(66, link);
    expect(query.length).toBeGreaterThan(2_500);
    const b = bounds(query);
    expect(b).toMatchObject({ isWithin: false, code: 'QUERY_TOO_DEEP' });
    expect(b.isWithin ? '' : b.message).toContain('over the limit of 124');
    expect(refusal(nestedLinks(30, link))).toBeNull();
  });

  it('measures depth through fragments spread many times once per fragment', () => {
    // 70 fragments, each nesting the next twice: depth 2 per fragment, 2^70 paths.
    expect(refusal(nestedFragmentBomb(70, link))).toBe('QUERY_TOO_DEEP');
    expect(bounds(nestedFragmentBomb(4, link))).toMatchObject({ isWithin: true, depth: 2 + 2 * 3 });
    expect(refusal(nestedFragmentBomb(40, link))).toBe('QUERY_TOO_COMPLEX');
  });

  it('refuses a fragment bomb by its expanded size', () => {
    const b = bounds(fragmentBomb(60));
    expect(b).toMatchObject({ isWithin: false, code: 'QUERY_TOO_COMPLEX' });
    expect(b.isWithin ? '' : b.message).toContain('more than 10^15 fields');
    expect(refusal(fragmentBomb(6))).toBeNull();
  });

  it('refuses fragment cycles and repeated fragment names as validation would', () => {
    const cycle = `{ article_All { items { ...A } } } fragment A on Article { ...B } fragment B on Article { related { items { ...A } } }`;
    expect(refusal(cycle)).toBe('GRAPHQL_VALIDATION_FAILED');
    const twice = `{ article_All { items { ...A } } } fragment A on Article { title } fragment A on Article { title }`;
    expect(refusal(twice)).toBe('GRAPHQL_VALIDATION_FAILED');
    // An unspread fragment's cycle is still found.
    expect(refusal(`{ __typename } fragment A on Article { ...A }`)).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('refuses the same field repeated until merging it is quadratic, and accepts 8 kB of distinct aliases', () => {
    expect(refusal(repeatedLinks(8_000, link))).toBe('QUERY_TOO_COMPLEX');
    expect(refusal(manyFragments(120, link))).toBe('QUERY_TOO_COMPLEX');
    expect(refusal(repeatedLinks(1_500, link))).toBeNull();
    const wide = aliasedFields(8_000);
    expect(bounds(wide)).toMatchObject({ isWithin: true, overlapPairs: 0 });
  });

  it("keeps every sample query of the project's clients within bounds", () => {
    const b = bounds(readFileSync(sampleQueriesPath, 'utf8'));
    expect(b).toMatchObject({ isWithin: true });
  });
});

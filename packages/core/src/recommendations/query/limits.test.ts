import { describe, expect, it } from 'vitest';
import { parseRecsQuery } from './check.ts';
import { parseQuery, QueryLimitError, type QueryLimit } from './grammar.ts';
import { queryLimits } from './limits.ts';

const refusal = (text: string): { limit: QueryLimit; column: number; message: string } => {
  try {
    parseRecsQuery(text, 'filter');
  } catch (error) {
    if (error instanceof QueryLimitError) return { limit: error.limit, column: error.column, message: error.message };
    throw error;
  }
  throw new Error('accepted');
};
const terms = (n: number) => Array.from({ length: n }, () => '1').join('+');

describe('the bounds on a filter or booster', () => {
  it.each([
    ['1+1+… of 50,000 terms', `${terms(50_000)} > 0`],
    ['100,000 opening parentheses', '('.repeat(100_000)],
    ['25,000 nots', `${'not '.repeat(25_000)}true`],
    ['10,000 terms', `${terms(10_000)} > 0`],
  ])('refuses %s by its length before parsing it', (_, text) => {
    const started = performance.now();
    expect(refusal(text)).toMatchObject({
      limit: 'length',
      column: queryLimits.maxLength + 1,
      message: expect.stringMatching(/at most 4,000 characters long/),
    });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it.each([
    ['parentheses', `${'('.repeat(33)}true${')'.repeat(33)}`, 33],
    ['nots', `${'not '.repeat(33)}true`, 129],
    ['minus signs', `${'-'.repeat(33)}1 > 0`, 33],
    ['ifs', `${'if true then '.repeat(33)}1${' else 2'.repeat(33)} > 0`, 417],
    ['sets', `"a" in ${'{'.repeat(33)}"a"${'}'.repeat(33)}`, 40],
    ['calls', `${'now('.repeat(33)}${')'.repeat(33)} > 0`, 132],
  ])('refuses %s nested deeper than the bound, naming where', (_, text, column) => {
    expect(refusal(text)).toMatchObject({
      limit: 'nesting',
      column,
      message: expect.stringMatching(/nest at most 32 levels deep/),
    });
  });

  it('parses nesting up to the bound', () => {
    expect(parseQuery(`${'('.repeat(32)}true${')'.repeat(32)}`)).toMatchObject({ kind: 'boolean' });
    expect(parseRecsQuery(`${'not '.repeat(32)}true`, 'filter')).toMatchObject({ kind: 'not' });
  });

  it('refuses a tree deeper than the bound: a chain of arithmetic adds a level per operator', () => {
    // The k-th '+' is at depth k + 1: the 64th, read with the 65th term, is one too deep.
    expect(refusal(`${terms(100)} > 0`)).toMatchObject({
      limit: 'depth',
      column: 129,
      message: expect.stringMatching(/at most 64 operations deep/),
    });
    expect(parseRecsQuery(`${terms(62)} > 0`, 'filter')).toMatchObject({ kind: 'binary', op: '>' });
  });

  it('builds a chain of ors or ands balanced, so hundreds of alternatives are accepted', () => {
    const alternatives = `${'true or '.repeat(449)}true`;
    expect(parseRecsQuery(alternatives, 'filter')).toMatchObject({ kind: 'binary', op: 'or' });
    expect(parseRecsQuery(`${'true and '.repeat(399)}true`, 'filter')).toMatchObject({ kind: 'binary', op: 'and' });
  });

  it('refuses more nodes than the bound, naming where the query went over', () => {
    // Item k of the set is at column 2k; item 1,201 is one node too many.
    expect(refusal(`{${'1,'.repeat(1_300)}1} == 1`)).toMatchObject({
      limit: 'nodes',
      column: 2_402,
      message: expect.stringMatching(/at most 1,200 values and operators/),
    });
  });

  it('reads a string of the longest length with escapes in linear time', () => {
    const text = `"${'\\"'.repeat(1_990)}" in 'name'`;
    expect(text.length).toBeLessThanOrEqual(queryLimits.maxLength);
    expect(parseQuery(text)).toMatchObject({ kind: 'in', needle: { kind: 'string', value: '"'.repeat(1_990) } });
  });
});

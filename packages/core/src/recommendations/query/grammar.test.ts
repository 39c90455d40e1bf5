import { describe, expect, it } from 'vitest';
import { parseRecsQuery } from './check.ts';
import { parseQuery, QuerySyntaxError } from './grammar.ts';

const columnOf = (run: () => unknown): number => {
  try {
    run();
  } catch (error) {
    if (error instanceof QuerySyntaxError) return error.column;
    throw error;
  }
  throw new Error('no error');
};

describe('recommendation query grammar', () => {
  it('parses membership in properties, with and/or/not in any case and parentheses', () => {
    const node = parseQuery(`"persona=developer" in 'properties' AND NOT ('type' == "article" Or 'name' != "x")`);
    expect(node).toMatchObject({
      kind: 'binary',
      op: 'and',
      left: { kind: 'in', needle: { kind: 'string', value: 'persona=developer' }, haystack: { kind: 'property' } },
      right: { kind: 'not', operand: { kind: 'binary', op: 'or' } },
    });
  });

  it('gives multiplication precedence over addition and comparison', () => {
    expect(parseQuery(`'lastupdated' > now() - 7 * 86400000`)).toMatchObject({
      kind: 'binary',
      op: '>',
      right: { kind: 'binary', op: '-', left: { kind: 'call', name: 'now' }, right: { kind: 'binary', op: '*' } },
    });
  });

  it('parses if … then … else as a booster', () => {
    expect(parseRecsQuery(`if 'lastupdated' > now() - 1000 then 2 else 0.5`, 'booster')).toMatchObject({
      kind: 'if',
      then: { kind: 'number', value: 2 },
      otherwise: { kind: 'number', value: 0.5 },
    });
  });

  it('points at the column of a syntax error', () => {
    expect(columnOf(() => parseQuery(`'type' == "a" and and`))).toBe(19);
    expect(columnOf(() => parseQuery(`('type' == "a"`))).toBe(15);
    expect(columnOf(() => parseQuery(`"unterminated`))).toBe(1);
    expect(columnOf(() => parseQuery(`'type' # 1`))).toBe(8);
  });

  it('points at the column of a type error, an unknown property or function', () => {
    expect(columnOf(() => parseRecsQuery(`'type' == 3`, 'filter'))).toBe(11);
    expect(columnOf(() => parseRecsQuery(`'colour' == "red"`, 'filter'))).toBe(1);
    expect(columnOf(() => parseRecsQuery(`'lastupdated' > today()`, 'filter'))).toBe(17);
    expect(columnOf(() => parseRecsQuery(`'lastupdated' + 1`, 'filter'))).toBe(1);
    expect(columnOf(() => parseRecsQuery(`if 'type' == "a" then 2 else "x"`, 'booster'))).toBe(30);
  });

  it('reads escaped quotes in strings and property names', () => {
    expect(parseQuery(`"say ""hi"" \\"there\\""`)).toMatchObject({ kind: 'string', value: 'say "hi" "there"' });
  });
});

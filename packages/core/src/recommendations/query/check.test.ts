import { describe, expect, it } from 'vitest';
import { parseRecsQuery, typeOf } from './check.ts';
import { QuerySyntaxError, type QueryNode } from './grammar.ts';

/** `1 + 1 + … + 1` of `terms` terms, left-associated as the parser builds it, built directly. */
const chain = (terms: number, op: '+' | '-' = '+'): QueryNode => {
  let node: QueryNode = { kind: 'number', value: 1, column: 1 };
  for (let i = 1; i < terms; i++)
    node = { kind: 'binary', op, left: node, right: { kind: 'number', value: 1, column: 2 * i + 1 }, column: 1 };
  return node;
};

const messageOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof QuerySyntaxError) return error.message;
    throw error;
  }
  throw new Error('no error');
};

describe('the type check of filters and boosters', () => {
  it('checks a chain of 30 terms in well under a second (each term doubled the work: minutes)', () => {
    const started = performance.now();
    expect(parseRecsQuery(`${Array.from({ length: 30 }, () => '1').join('+')} > 0`, 'filter')).toMatchObject({
      kind: 'binary',
      op: '>',
    });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('gives the type of a chain of 24 terms, of 1,000 and of a tree of 5,000 terms, each node once', () => {
    expect(typeOf(chain(24))).toBe('number');
    expect(typeOf(chain(1_000))).toBe('number');
    expect(typeOf(chain(1_000, '-'))).toBe('number');
    // Balanced, so deep recursion is not what is measured: 5,000 terms, 13 levels.
    const tree = (n: number): QueryNode =>
      n === 1 ? chain(1) : { kind: 'binary', op: '*', left: tree(n >> 1), right: tree(n - (n >> 1)), column: 1 };
    expect(typeOf(tree(5_000))).toBe('number');
  });

  it('accepts and checks a chain of 60 terms and a list of 299 alternatives', () => {
    const text = `${Array.from({ length: 60 }, () => '1').join('+')} > now()`;
    expect(parseRecsQuery(text, 'filter')).toMatchObject({ kind: 'binary', op: '>' });
    expect(messageOf(() => parseRecsQuery(`${text.slice(0, -8)}+"x" > now()`, 'filter'))).toMatch(
      /right side of '\+' must be a number, not a string/,
    );
    const alternatives = Array.from({ length: 299 }, () => `1>0`).join(' or ');
    expect(typeOf(parseRecsQuery(alternatives, 'filter'))).toBe('boolean');
    expect(messageOf(() => parseRecsQuery(`${alternatives} or 1`, 'filter'))).toMatch(/'or' must be a boolean/);
  });

  it.each([
    [`'constructor' == 'constructor'`, /Unknown property 'constructor'/],
    [`'__proto__' == '__proto__'`, /Unknown property '__proto__'/],
    [`'toString' == "x"`, /Unknown property 'toString'/],
    [`'hasOwnProperty' != ""`, /Unknown property 'hasOwnProperty'/],
    [`constructor() == constructor()`, /Unknown function 'constructor'/],
    [`valueOf() > 1`, /Unknown function 'valueof'/],
    [`__proto__() > 1`, /Unknown function '__proto__'/],
  ])('knows no property or function of Object.prototype: %s', (text, message) => {
    expect(messageOf(() => parseRecsQuery(text, 'filter'))).toMatch(message);
  });

  it('takes `in` over an if whose branches are sets or strings, and refuses mixed branches', () => {
    expect(typeOf(parseRecsQuery(`"a" in (if true then {"a"} else {"b"})`, 'filter'))).toBe('boolean');
    expect(typeOf(parseRecsQuery(`"a" in (if 'type' == "x" then "abc" else 'name')`, 'filter'))).toBe('boolean');
    expect(messageOf(() => parseRecsQuery(`"a" in (if true then {"a"} else 'name')`, 'filter'))).toMatch(
      /'else' value must be a set, not a string/,
    );
  });

  it("refuses a '%' inside an operand of '%' (its SQL writes each operand twice)", () => {
    expect(typeOf(parseRecsQuery(`'lastupdated' % 7 + 'lastupdated' % 3 == 0`, 'filter'))).toBe('boolean');
    expect(messageOf(() => parseRecsQuery(`1 % (2 % 3) == 1`, 'filter'))).toMatch(
      /operand of '%' cannot itself use '%' at column 6/,
    );
    expect(messageOf(() => parseRecsQuery(`'lastupdated' % 7 % 3 == 1`, 'filter'))).toMatch(
      /operand of '%' cannot itself use '%' at column 1/,
    );
  });

  it('refuses a number literal out of range', () => {
    expect(messageOf(() => parseRecsQuery(`'lastupdated' < 1e999`, 'filter'))).toMatch(/1e999 is out of range/);
  });
});

import { parseQuery, QuerySyntaxError, type QueryNode } from './grammar.ts';

export type QueryType = 'number' | 'string' | 'boolean' | 'set';

/** The properties of an index entry (SPEC 2.9) and their types. */
export const queryProperties: Readonly<Record<string, QueryType>> = {
  codename: 'string',
  name: 'string',
  type: 'string',
  lastupdated: 'number',
  properties: 'set',
};

/** Functions and the type they return (all take no arguments). */
const functions: Readonly<Record<string, QueryType>> = { now: 'number' };

const describe = (t: QueryType) => (t === 'set' ? 'a set' : `a ${t}`);

function expect(node: QueryNode, type: QueryType, what: string): void {
  const actual = typeOf(node);
  if (actual !== type)
    throw new QuerySyntaxError(`${what} must be ${describe(type)}, not ${describe(actual)}`, node.column);
}

/** The type of the node's value; throws QuerySyntaxError where types do not fit. */
export function typeOf(node: QueryNode): QueryType {
  switch (node.kind) {
    case 'number':
    case 'string':
    case 'boolean':
      return node.kind;
    case 'property': {
      const type = queryProperties[node.name.toLowerCase()];
      if (!type)
        throw new QuerySyntaxError(
          `Unknown property '${node.name}' (known: ${Object.keys(queryProperties).join(', ')})`,
          node.column,
        );
      return type;
    }
    case 'set':
      for (const item of node.items) expect(item, 'string', 'A set item');
      return 'set';
    case 'call': {
      const type = functions[node.name];
      if (!type) throw new QuerySyntaxError(`Unknown function '${node.name}'`, node.column);
      if (node.args.length > 0) throw new QuerySyntaxError(`${node.name}() takes no arguments`, node.args[0]!.column);
      return type;
    }
    case 'not':
      expect(node.operand, 'boolean', "The operand of 'not'");
      return 'boolean';
    case 'negate':
      expect(node.operand, 'number', "The operand of '-'");
      return 'number';
    case 'in': {
      expect(node.needle, 'string', "The left side of 'in'");
      const haystack = typeOf(node.haystack);
      if (haystack !== 'set' && haystack !== 'string')
        throw new QuerySyntaxError(`The right side of 'in' must be a set or a string`, node.haystack.column);
      return 'boolean';
    }
    case 'if': {
      expect(node.condition, 'boolean', 'The condition of if');
      const then = typeOf(node.then);
      expect(node.otherwise, then, "The 'else' value");
      return then;
    }
    case 'binary': {
      const { op, left, right } = node;
      if (op === 'and' || op === 'or') {
        expect(left, 'boolean', `The left side of '${op}'`);
        expect(right, 'boolean', `The right side of '${op}'`);
        return 'boolean';
      }
      const l = typeOf(left);
      if (op === '==' || op === '!=') {
        if (l === 'set') throw new QuerySyntaxError(`A set cannot be compared with '${op}'`, left.column);
        expect(right, l, `The right side of '${op}'`);
        return 'boolean';
      }
      if (op === '<' || op === '<=' || op === '>' || op === '>=') {
        if (l !== 'number' && l !== 'string')
          throw new QuerySyntaxError(`'${op}' compares numbers or strings, not ${describe(l)}`, left.column);
        expect(right, l, `The right side of '${op}'`);
        return 'boolean';
      }
      expect(left, 'number', `The left side of '${op}'`);
      expect(right, 'number', `The right side of '${op}'`);
      return 'number';
    }
  }
}

/**
 * Parses and checks a filter (its value must be true or false) or a booster (a number, the
 * multiplier of an item's score). Throws QuerySyntaxError naming the column of the problem.
 */
export function parseRecsQuery(input: string, purpose: 'filter' | 'booster'): QueryNode {
  const node = parseQuery(input);
  const wanted: QueryType = purpose === 'filter' ? 'boolean' : 'number';
  const actual = typeOf(node);
  if (actual !== wanted)
    throw new QuerySyntaxError(`A ${purpose} must give ${describe(wanted)}, not ${describe(actual)}`, node.column);
  return node;
}

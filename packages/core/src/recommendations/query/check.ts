import { childrenOf, parseQuery, QuerySyntaxError, type QueryNode } from './grammar.ts';

export type QueryType = 'number' | 'string' | 'boolean' | 'set';

/**
 * The properties of an index entry (SPEC 2.9) and their types. A Map, not an object: a name a
 * query gives (`'constructor'`, `'__proto__'`) must never find something Object.prototype holds.
 */
export const queryProperties: ReadonlyMap<string, QueryType> = new Map([
  ['codename', 'string'],
  ['name', 'string'],
  ['type', 'string'],
  ['lastupdated', 'number'],
  ['properties', 'set'],
]);

/** Functions and the type they return (all take no arguments); a Map for the same reason. */
const functions: ReadonlyMap<string, QueryType> = new Map([['now', 'number']]);

const describe = (t: QueryType) => (t === 'set' ? 'a set' : `a ${t}`);

/** Throws unless `actual`, the type of `node`, is `wanted`. */
function must(node: QueryNode, actual: QueryType, wanted: QueryType, what: string): void {
  if (actual !== wanted)
    throw new QuerySyntaxError(`${what} must be ${describe(wanted)}, not ${describe(actual)}`, node.column);
}

/**
 * The type of every node checked so far. Nodes are immutable, so a node's type never changes; the
 * compilers ask the type of many subtrees (painless.ts, query-sql.ts), and remembering it keeps
 * every walk that does so linear in the tree.
 */
const types = new WeakMap<QueryNode, QueryType>();
/** The checked nodes that are or hold a `%` (children are checked first, so this is linear). */
const holdsModulo = new WeakSet<QueryNode>();

/**
 * The type of the node's value; throws QuerySyntaxError where types do not fit. Each node's type
 * is computed once, from its children's (so a check is linear in the tree), and remembered.
 */
export function typeOf(node: QueryNode): QueryType {
  const known = types.get(node);
  if (known !== undefined) return known;
  const type = computeType(node);
  if ((node.kind === 'binary' && node.op === '%') || childrenOf(node).some((c) => holdsModulo.has(c)))
    holdsModulo.add(node);
  types.set(node, type);
  return type;
}

function computeType(node: QueryNode): QueryType {
  switch (node.kind) {
    case 'number':
    case 'string':
    case 'boolean':
      return node.kind;
    case 'property': {
      const type = queryProperties.get(node.name.toLowerCase());
      if (type === undefined)
        throw new QuerySyntaxError(
          `Unknown property '${node.name}' (known: ${[...queryProperties.keys()].join(', ')})`,
          node.column,
        );
      return type;
    }
    case 'set':
      for (const item of node.items) must(item, typeOf(item), 'string', 'A set item');
      return 'set';
    case 'call': {
      const type = functions.get(node.name);
      if (type === undefined) throw new QuerySyntaxError(`Unknown function '${node.name}'`, node.column);
      if (node.args.length > 0) throw new QuerySyntaxError(`${node.name}() takes no arguments`, node.args[0]!.column);
      return type;
    }
    case 'not':
      must(node.operand, typeOf(node.operand), 'boolean', "The operand of 'not'");
      return 'boolean';
    case 'negate':
      must(node.operand, typeOf(node.operand), 'number', "The operand of '-'");
      return 'number';
    case 'in': {
      must(node.needle, typeOf(node.needle), 'string', "The left side of 'in'");
      const haystack = typeOf(node.haystack);
      if (haystack !== 'set' && haystack !== 'string')
        throw new QuerySyntaxError(`The right side of 'in' must be a set or a string`, node.haystack.column);
      return 'boolean';
    }
    case 'if': {
      must(node.condition, typeOf(node.condition), 'boolean', 'The condition of if');
      const then = typeOf(node.then);
      must(node.otherwise, typeOf(node.otherwise), then, "The 'else' value");
      return then;
    }
    case 'binary':
      return binaryType(node);
  }
}

function binaryType(node: QueryNode & { kind: 'binary' }): QueryType {
  const { op, left, right } = node;
  // Each side's type is asked once (re-asking per operator made a chain `1+1+…` cost 2^n, issue
  // 27), the left side's first, so the first error from the left is the one reported.
  const l = typeOf(left);
  if (op === 'and' || op === 'or') {
    must(left, l, 'boolean', `The left side of '${op}'`);
    must(right, typeOf(right), 'boolean', `The right side of '${op}'`);
    return 'boolean';
  }
  if (op === '==' || op === '!=') {
    if (l === 'set') throw new QuerySyntaxError(`A set cannot be compared with '${op}'`, left.column);
    must(right, typeOf(right), l, `The right side of '${op}'`);
    return 'boolean';
  }
  if (op === '<' || op === '<=' || op === '>' || op === '>=') {
    if (l !== 'number' && l !== 'string')
      throw new QuerySyntaxError(`'${op}' compares numbers or strings, not ${describe(l)}`, left.column);
    must(right, typeOf(right), l, `The right side of '${op}'`);
    return 'boolean';
  }
  must(left, l, 'number', `The left side of '${op}'`);
  must(right, typeOf(right), 'number', `The right side of '${op}'`);
  // SQL has no floored modulo for floats, so `l % r` is written `l - r * floor(l / r)`, each side
  // twice (query-sql.ts): a `%` inside a side would double the SQL again per level.
  if (op === '%' && (holdsModulo.has(left) || holdsModulo.has(right)))
    throw new QuerySyntaxError(
      `An operand of '%' cannot itself use '%'`,
      holdsModulo.has(left) ? left.column : right.column,
    );
  return 'number';
}

/**
 * Parses and checks a filter (its value must be true or false) or a booster (a number, the
 * multiplier of an item's score). Throws QuerySyntaxError naming the column of the problem, or
 * QueryLimitError (a QuerySyntaxError too) for a query over a bound of `queryLimits`.
 */
export function parseRecsQuery(input: string, purpose: 'filter' | 'booster'): QueryNode {
  const node = parseQuery(input);
  const wanted: QueryType = purpose === 'filter' ? 'boolean' : 'number';
  const actual = typeOf(node);
  if (actual !== wanted)
    throw new QuerySyntaxError(`A ${purpose} must give ${describe(wanted)}, not ${describe(actual)}`, node.column);
  return node;
}

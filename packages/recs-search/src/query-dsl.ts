import { typeOf, type QueryNode } from '@lectern/core';
import { evaluateQuery, type RecsFields } from './evaluate.ts';

/** An OpenSearch query clause. */
export type Dsl = Record<string, unknown>;

const noFields: RecsFields = { codename: '', name: '', type: '', lastupdated: 0, properties: [] };

const hasProperty = (n: QueryNode): boolean => {
  switch (n.kind) {
    case 'property':
      return true;
    case 'set':
      return n.items.some(hasProperty);
    case 'not':
    case 'negate':
      return hasProperty(n.operand);
    case 'in':
      return hasProperty(n.needle) || hasProperty(n.haystack);
    case 'if':
      return hasProperty(n.condition) || hasProperty(n.then) || hasProperty(n.otherwise);
    case 'binary':
      return hasProperty(n.left) || hasProperty(n.right);
    default:
      return false;
  }
};

const flipped: Readonly<Record<string, string>> = {
  '<': '>',
  '<=': '>=',
  '>': '<',
  '>=': '<=',
  '==': '==',
  '!=': '!=',
};
const rangeKey: Readonly<Record<string, string>> = { '<': 'lt', '<=': 'lte', '>': 'gt', '>=': 'gte' };

const not = (q: Dsl): Dsl => ({ bool: { must_not: [q] } });
const wildcardEscape = (s: string) => s.replace(/[\\*?]/g, (c) => `\\${c}`);

/**
 * Compiles a checked filter (see `parseRecsQuery`) to an OpenSearch query over the recommendation
 * index's fields, for the `filter` of a k-NN query (applied inside the vector search). Parts
 * without a property are folded to constants; a property compared with a constant becomes a
 * term, range or wildcard query; `and`, `or`, `not` and `if` become bool queries. What is left
 * (arithmetic on properties) runs as a Painless script query (see painless.ts).
 */
export function filterDsl(node: QueryNode, options: { nowMs: number; script: (n: QueryNode) => Dsl }): Dsl {
  const go = (n: QueryNode) => filterDsl(n, options);
  if (!hasProperty(node))
    return evaluateQuery(node, noFields, options.nowMs) === true ? { match_all: {} } : { match_none: {} };
  switch (node.kind) {
    case 'not':
      return not(go(node.operand));
    case 'if': {
      const c = go(node.condition);
      return {
        bool: {
          should: [{ bool: { filter: [c, go(node.then)] } }, { bool: { filter: [go(node.otherwise)], must_not: [c] } }],
          minimum_should_match: 1,
        },
      };
    }
    case 'binary':
      if (node.op === 'and') return { bool: { filter: [go(node.left), go(node.right)] } };
      if (node.op === 'or') return { bool: { should: [go(node.left), go(node.right)], minimum_should_match: 1 } };
      return comparison(node, options) ?? options.script(node);
    case 'in':
      return membership(node, options) ?? options.script(node);
    default:
      return options.script(node);
  }
}

function constantOf(n: QueryNode, nowMs: number): string | number | readonly string[] | undefined {
  if (hasProperty(n)) return undefined;
  const v = evaluateQuery(n, noFields, nowMs);
  return v === null || typeof v === 'boolean' ? undefined : v;
}

function comparison(node: QueryNode & { kind: 'binary' }, options: { nowMs: number }): Dsl | undefined {
  let [property, value, op] = [node.left, constantOf(node.right, options.nowMs), node.op as string];
  if (value === undefined) [property, value, op] = [node.right, constantOf(node.left, options.nowMs), flipped[op]!];
  if (value === undefined || property.kind !== 'property' || Array.isArray(value) || op === undefined) return undefined;
  const field = property.name.toLowerCase();
  if (field === 'properties' || typeOf(property) !== (typeof value === 'number' ? 'number' : 'string'))
    return undefined;
  if (op === '==') return { term: { [field]: value } };
  if (op === '!=') return not({ term: { [field]: value } });
  const key = rangeKey[op];
  return key === undefined ? undefined : { range: { [field]: { [key]: value } } };
}

function membership(node: QueryNode & { kind: 'in' }, options: { nowMs: number }): Dsl | undefined {
  const { needle, haystack } = node;
  let test: Dsl | undefined;
  const needleValue = constantOf(needle, options.nowMs);
  const haystackValue = constantOf(haystack, options.nowMs);
  if (typeof needleValue === 'string' && haystack.kind === 'property') {
    const field = haystack.name.toLowerCase();
    test =
      field === 'properties'
        ? { term: { properties: needleValue } }
        : { wildcard: { [field]: { value: `*${wildcardEscape(needleValue)}*` } } };
  } else if (Array.isArray(haystackValue) && needle.kind === 'property' && typeOf(needle) === 'string') {
    test = { terms: { [needle.name.toLowerCase()]: haystackValue } };
  }
  return test === undefined ? undefined : node.isNegated ? not(test) : test;
}

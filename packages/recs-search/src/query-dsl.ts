import { assertNever, childrenOf, typeOf, type QueryNode } from '@lectern/core';
import { evaluateQuery, type RecsFields } from './evaluate.ts';

/** An OpenSearch query clause. */
export type Dsl = Record<string, unknown>;

const noFields: RecsFields = { codename: '', name: '', type: '', lastupdated: 0, properties: [] };

/** What a subtree holds, computed once per node (nodes are immutable): see `factsOf`. */
interface Facts {
  /** It reads a property, so it cannot be folded to a constant. */
  readonly hasProperty: boolean;
  /** It holds an `if`, whose query form repeats its condition. */
  readonly hasIf: boolean;
}
const facts = new WeakMap<QueryNode, Facts>();
/**
 * The facts of a subtree, remembered, so asking them at every level of a compile is linear in the
 * tree overall (asked afresh, a chain of `or`s cost the square of its length).
 */
function factsOf(n: QueryNode): Facts {
  const known = facts.get(n);
  if (known !== undefined) return known;
  let [hasProperty, hasIf] = [n.kind === 'property', n.kind === 'if'];
  for (const child of childrenOf(n)) {
    const f = factsOf(child);
    hasProperty ||= f.hasProperty;
    hasIf ||= f.hasIf;
  }
  const found = { hasProperty, hasIf };
  facts.set(n, found);
  return found;
}
const hasProperty = (n: QueryNode) => factsOf(n).hasProperty;

/**
 * The operands of `a op b op c …` however the parser grouped it (balanced, or by parentheses), in
 * order, from an explicit stack.
 */
function chain(node: QueryNode, op: 'and' | 'or'): QueryNode[] {
  const operands: QueryNode[] = [];
  const stack = [node];
  for (let n = stack.pop(); n !== undefined; n = stack.pop())
    if (n.kind === 'binary' && n.op === op) stack.push(n.right, n.left);
    else operands.push(n);
  return operands;
}

const flipped: ReadonlyMap<string, string> = new Map([
  ['<', '>'],
  ['<=', '>='],
  ['>', '<'],
  ['>=', '<='],
  ['==', '=='],
  ['!=', '!='],
]);
const rangeKey: ReadonlyMap<string, string> = new Map([
  ['<', 'lt'],
  ['<=', 'lte'],
  ['>', 'gt'],
  ['>=', 'gte'],
]);

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
      // The query form repeats the condition; with an `if` inside it, the size would double per
      // level, so such an `if` runs as one script, which writes each part once.
      if (factsOf(node.condition).hasIf) return options.script(node);
      const c = go(node.condition);
      return {
        bool: {
          should: [{ bool: { filter: [c, go(node.then)] } }, { bool: { filter: [go(node.otherwise)], must_not: [c] } }],
          minimum_should_match: 1,
        },
      };
    }
    case 'binary':
      // A chain of `and`s or `or`s is one bool query: its depth does not grow with the chain.
      if (node.op === 'and') return { bool: { filter: chain(node, 'and').map(go) } };
      if (node.op === 'or') return { bool: { should: chain(node, 'or').map(go), minimum_should_match: 1 } };
      return comparison(node, options) ?? options.script(node);
    case 'in':
      return membership(node, options) ?? options.script(node);
    case 'number':
    case 'string':
    case 'boolean':
    case 'property':
    case 'set':
    case 'call':
    case 'negate':
      return options.script(node);
    default:
      return assertNever(node, 'query node');
  }
}

function constantOf(n: QueryNode, nowMs: number): string | number | readonly string[] | undefined {
  if (hasProperty(n)) return undefined;
  const v = evaluateQuery(n, noFields, nowMs);
  // Infinity and NaN have no JSON form (they would reach OpenSearch as null): left to the script.
  return v === null || typeof v === 'boolean' || (typeof v === 'number' && !Number.isFinite(v)) ? undefined : v;
}

function comparison(node: QueryNode & { kind: 'binary' }, options: { nowMs: number }): Dsl | undefined {
  let [property, value, op] = [node.left, constantOf(node.right, options.nowMs), node.op as string | undefined];
  if (value === undefined)
    [property, value, op] = [node.right, constantOf(node.left, options.nowMs), flipped.get(node.op)];
  if (value === undefined || property.kind !== 'property' || Array.isArray(value) || op === undefined) return undefined;
  const field = property.name.toLowerCase();
  if (field === 'properties' || typeOf(property) !== (typeof value === 'number' ? 'number' : 'string'))
    return undefined;
  if (op === '==') return { term: { [field]: value } };
  if (op === '!=') return not({ term: { [field]: value } });
  const key = rangeKey.get(op);
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

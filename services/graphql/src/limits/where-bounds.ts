import { Kind, type ValueNode } from 'graphql';

/**
 * Bounds of a `where` argument, checked before the query runs: every `AND` / `OR` member becomes
 * a branch of the index query (an SQL `or` of `exists` lookups, an OpenSearch bool `should`), so
 * their number and nesting bound what one root query asks of the index (an `OR` of 100 filters,
 * 200 conditions, over 5,000 items took 150–190 ms on PGlite, which runs in the event loop's
 * thread; of 50 filters, 100 conditions, about 65 ms). Today's reference gives no figures; these are far above what a page filters by.
 */
export const whereLimits = {
  /** Conditions (filter operators and `AND` / `OR` members) in all `where` arguments of a request. */
  maxConditions: 100,
  /** `AND` / `OR` lists nested in one another. */
  maxNesting: 5,
} as const;

export interface WhereMeasure {
  readonly conditions: number;
  readonly nesting: number;
}

/** A value to look at: a literal of the document, or (once a variable is reached) plain JSON. */
type Pending = { readonly value: ValueNode | unknown; readonly isNode: boolean; readonly nesting: number };

/**
 * Counts the conditions and the `AND` / `OR` nesting of one `where` value, a literal or a
 * variable (read from `variables`), without recursion and stopping as soon as either passes its
 * limit: linear in what it looks at, whatever the client sent.
 */
export function measureWhere(
  node: ValueNode,
  variables: Readonly<Record<string, unknown>>,
  limits: { readonly maxConditions: number; readonly maxNesting: number } = whereLimits,
): WhereMeasure {
  let conditions = 0;
  let nesting = 0;
  const stack: Pending[] = [{ value: node, isNode: true, nesting: 0 }];
  while (stack.length > 0 && conditions <= limits.maxConditions && nesting <= limits.maxNesting) {
    const { value, isNode, nesting: level } = stack.pop()!;
    for (const [key, inner, isInnerNode] of entriesOf(value, isNode, variables)) {
      const items = listOf(inner, isInnerNode, variables);
      if ((key === 'AND' || key === 'OR') && items !== null) {
        nesting = Math.max(nesting, level + 1);
        conditions += items.values.length;
        if (conditions > limits.maxConditions || nesting > limits.maxNesting) break;
        for (const item of items.values) stack.push({ value: item, isNode: items.isNode, nesting: level + 1 });
      } else if (isObject(inner, isInnerNode, variables)) {
        stack.push({ value: inner, isNode: isInnerNode, nesting: level });
      } else conditions += 1;
    }
  }
  return { conditions, nesting };
}

function resolved(value: unknown, isNode: boolean, variables: Readonly<Record<string, unknown>>) {
  if (isNode && (value as ValueNode).kind === Kind.VARIABLE) {
    return { value: variables[(value as { name: { value: string } }).name.value], isNode: false };
  }
  return { value, isNode };
}

function entriesOf(
  value: unknown,
  isNode: boolean,
  variables: Readonly<Record<string, unknown>>,
): [string, unknown, boolean][] {
  const r = resolved(value, isNode, variables);
  if (r.isNode) {
    const n = r.value as ValueNode;
    return n.kind === Kind.OBJECT ? n.fields.map((f) => [f.name.value, f.value, true]) : [];
  }
  if (typeof r.value !== 'object' || r.value === null || Array.isArray(r.value)) return [];
  return Object.entries(r.value).map(([k, v]) => [k, v, false]);
}

function listOf(value: unknown, isNode: boolean, variables: Readonly<Record<string, unknown>>) {
  const r = resolved(value, isNode, variables);
  if (r.isNode) {
    const n = r.value as ValueNode;
    // A single object where a list is expected is a list of one (input coercion).
    if (n.kind === Kind.LIST) return { values: n.values as readonly unknown[], isNode: true };
    return n.kind === Kind.OBJECT ? { values: [n] as readonly unknown[], isNode: true } : null;
  }
  if (Array.isArray(r.value)) return { values: r.value as readonly unknown[], isNode: false };
  return typeof r.value === 'object' && r.value !== null ? { values: [r.value], isNode: false } : null;
}

function isObject(value: unknown, isNode: boolean, variables: Readonly<Record<string, unknown>>): boolean {
  const r = resolved(value, isNode, variables);
  if (r.isNode) return (r.value as ValueNode).kind === Kind.OBJECT;
  return typeof r.value === 'object' && r.value !== null && !Array.isArray(r.value);
}

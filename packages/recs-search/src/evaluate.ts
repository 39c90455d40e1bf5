import { assertNever, type BinaryOp, type QueryNode } from '@lectern/core';

/** The fields of an index entry a filter or booster reads. */
export interface RecsFields {
  readonly codename: string;
  readonly name: string;
  readonly type: string;
  readonly lastupdated: number;
  readonly properties: readonly string[];
}

export type QueryValue = number | string | boolean | readonly string[] | null;

/** A field by its query name; an own field only, so no name can reach Object.prototype. */
function propertyOf(fields: RecsFields, name: string): QueryValue {
  switch (name) {
    case 'codename':
    case 'name':
    case 'type':
    case 'lastupdated':
    case 'properties':
      return fields[name];
    default:
      // Open input: a property name as written in the query; an unknown one reads as null.
      return null;
  }
}

/**
 * Evaluates a checked filter or booster (see `parseRecsQuery`) on one entry, with the SQL
 * adapter's meaning: division by zero gives null, and null propagates (a comparison with null is
 * null, a filter that gives null is false, a booster that gives null counts 0).
 */
export function evaluateQuery(node: QueryNode, fields: RecsFields, nowMs: number): QueryValue {
  const go = (n: QueryNode) => evaluateQuery(n, fields, nowMs);
  switch (node.kind) {
    case 'number':
    case 'string':
    case 'boolean':
      return node.value;
    case 'property':
      return propertyOf(fields, node.name.toLowerCase());
    case 'set':
      return node.items.map((i) => String(go(i)));
    case 'call':
      return nowMs;
    case 'not': {
      const v = go(node.operand);
      return v === null ? null : !v;
    }
    case 'negate': {
      const v = go(node.operand);
      return v === null ? null : -(v as number);
    }
    case 'in': {
      const needle = go(node.needle);
      const haystack = go(node.haystack);
      if (needle === null || haystack === null) return null;
      const found = Array.isArray(haystack)
        ? haystack.includes(String(needle))
        : String(haystack).includes(String(needle));
      return node.isNegated ? !found : found;
    }
    case 'if':
      return go(node.condition) === true ? go(node.then) : go(node.otherwise);
    case 'binary':
      return binary(node.op, go(node.left), go(node.right));
  }
}

function binary(op: BinaryOp, l: QueryValue, r: QueryValue): QueryValue {
  if (op === 'and') return l === false || r === false ? false : l === null || r === null ? null : true;
  if (op === 'or') return l === true || r === true ? true : l === null || r === null ? null : false;
  if (l === null || r === null) return null;
  switch (op) {
    case '==':
      return l === r;
    case '!=':
      return l !== r;
    case '<':
      return l < r;
    case '<=':
      return l <= r;
    case '>':
      return l > r;
    case '>=':
      return l >= r;
  }
  const [a, b] = [l as number, r as number];
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return b === 0 ? null : a / b;
    case '%':
      return b === 0 ? null : a - b * Math.floor(a / b);
    default:
      return assertNever(op, 'query operator');
  }
}

/** A booster's factor for an entry: its value, 0 when negative or null. */
export function boostOf(booster: QueryNode | null, fields: RecsFields, nowMs: number): number {
  if (booster === null) return 1;
  const v = evaluateQuery(booster, fields, nowMs);
  return typeof v === 'number' && Number.isFinite(v) ? Math.max(v, 0) : 0;
}

import { typeOf, type BinaryOp, type QueryNode } from '@lectern/core';
import type { Dsl } from './query-dsl.ts';

/** Doc-value reads for the query properties; a Map, so no name can reach Object.prototype. */
const fields: ReadonlyMap<string, string> = new Map([
  ['codename', "doc['codename'].value"],
  ['name', "doc['name'].value"],
  ['type', "doc['type'].value"],
  ['lastupdated', "(double) doc['lastupdated'].value"],
  ['properties', "doc['properties']"],
]);

const ops: ReadonlyMap<BinaryOp, string> = new Map([
  ['and', '&&'],
  ['or', '||'],
  ['+', '+'],
  ['-', '-'],
  ['*', '*'],
  ['<', '<'],
  ['<=', '<='],
  ['>', '>'],
  ['>=', '>='],
  ['==', '=='],
  ['!=', '!='],
]);

/**
 * Division and floored modulo as functions, so each operand is written once: inline, `r == 0 ? NaN
 * : l / r` repeated `r`, and a nested chain doubled the script per operator (issue 27).
 */
const helpers =
  'double lecternDiv(double l, double r) { return r == 0.0 ? Double.NaN : l / r; } ' +
  'double lecternMod(double l, double r) { return r == 0.0 ? Double.NaN : l - r * Math.floor(l / r); } ';

/**
 * A Painless script query for the parts of a filter the query DSL cannot express (arithmetic on
 * properties). Every literal is a parameter. Division by zero gives NaN, so a comparison with it
 * is false (`!=` excepted: true, where the SQL adapter says null). Linear in the tree: each node
 * is written once and its type is remembered (`typeOf`).
 */
export function scriptQuery(node: QueryNode, options: { nowMs: number }): Dsl {
  const params: Record<string, unknown> = { now: options.nowMs };
  let count = 0;
  const param = (value: unknown) => {
    const name = `p${++count}`;
    params[name] = value;
    return `params.${name}`;
  };
  const go = (n: QueryNode): string => {
    switch (n.kind) {
      case 'number':
        return `((Number) ${param(n.value)}).doubleValue()`;
      case 'string':
        return `((String) ${param(n.value)})`;
      case 'boolean':
        return String(n.value);
      case 'property':
        return fields.get(n.name.toLowerCase()) ?? 'null';
      case 'set':
        return `[${n.items.map(go).join(', ')}]`;
      case 'call':
        return '((Number) params.now).doubleValue()';
      case 'not':
        return `!(${go(n.operand)})`;
      case 'negate':
        return `(-(${go(n.operand)}))`;
      case 'in': {
        const [haystack, needle] = [go(n.haystack), go(n.needle)];
        const test =
          typeOf(n.haystack) === 'set' ? `${haystack}.contains(${needle})` : `(${haystack}.indexOf(${needle}) >= 0)`;
        return n.isNegated ? `!${test}` : test;
      }
      case 'if':
        return `((${go(n.condition)}) ? (${go(n.then)}) : (${go(n.otherwise)}))`;
      case 'binary': {
        const [l, r] = [go(n.left), go(n.right)];
        const isString = n.op !== 'and' && n.op !== 'or' && typeOf(n.left) === 'string';
        if (isString && (n.op === '==' || n.op === '!=')) return `(${n.op === '!=' ? '!' : ''}${l}.equals(${r}))`;
        if (isString) return `(${l}.compareTo(${r}) ${n.op} 0)`;
        if (n.op === '/') return `lecternDiv(${l}, ${r})`;
        if (n.op === '%') return `lecternMod(${l}, ${r})`;
        return `(${l} ${ops.get(n.op) ?? n.op} ${r})`;
      }
    }
  };
  const source = `${helpers}return ${go(node)};`;
  return { script: { script: { lang: 'painless', source, params } } };
}

import { typeOf, type QueryNode } from '@lectern/core';
import type { Dsl } from './query-dsl.ts';

const fields: Readonly<Record<string, string>> = {
  codename: "doc['codename'].value",
  name: "doc['name'].value",
  type: "doc['type'].value",
  lastupdated: "(double) doc['lastupdated'].value",
  properties: "doc['properties']",
};

const ops: Readonly<Record<string, string>> = { and: '&&', or: '||', '+': '+', '-': '-', '*': '*' };

/**
 * A Painless script query for the parts of a filter the query DSL cannot express (arithmetic on
 * properties). Every literal is a parameter. Division by zero gives NaN, so a comparison with it
 * is false (`!=` excepted: true, where the SQL adapter says null).
 */
export function scriptQuery(node: QueryNode, options: { nowMs: number }): Dsl {
  const params: Record<string, unknown> = { now: options.nowMs };
  const param = (value: unknown) => {
    const name = `p${Object.keys(params).length}`;
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
        return fields[n.name.toLowerCase()] ?? 'null';
      case 'set':
        return `[${n.items.map(go).join(', ')}]`;
      case 'call':
        return '((Number) params.now).doubleValue()';
      case 'not':
        return `!(${go(n.operand)})`;
      case 'negate':
        return `(-(${go(n.operand)}))`;
      case 'in': {
        const test =
          typeOf(n.haystack) === 'set'
            ? `${go(n.haystack)}.contains(${go(n.needle)})`
            : `(${go(n.haystack)}.indexOf(${go(n.needle)}) >= 0)`;
        return n.isNegated ? `!${test}` : test;
      }
      case 'if':
        return `((${go(n.condition)}) ? (${go(n.then)}) : (${go(n.otherwise)}))`;
      case 'binary': {
        const [l, r] = [go(n.left), go(n.right)];
        const isString = n.op !== 'and' && n.op !== 'or' && typeOf(n.left) === 'string';
        if (isString && (n.op === '==' || n.op === '!=')) return `(${n.op === '!=' ? '!' : ''}${l}.equals(${r}))`;
        if (isString) return `(${l}.compareTo(${r}) ${n.op} 0)`;
        if (n.op === '/') return `(${r} == 0.0 ? Double.NaN : ${l} / ${r})`;
        if (n.op === '%') return `(${r} == 0.0 ? Double.NaN : ${l} - ${r} * Math.floor(${l} / ${r}))`;
        return `(${l} ${ops[n.op] ?? n.op} ${r})`;
      }
    }
  };
  const source = go(node);
  return { script: { script: { lang: 'painless', source, params } } };
}

import { sql, type RawBuilder } from 'kysely';
import type { QueryNode } from '@lectern/core';

type Sql = RawBuilder<unknown>;

/** Columns of `recs_items` (aliased `r`) for the query properties. */
const columns: Readonly<Record<string, Sql>> = {
  codename: sql`r.codename`,
  name: sql`r.name`,
  type: sql`r.type`,
  lastupdated: sql`r.lastupdated::float8`,
  properties: sql`r.properties`,
};

const comparisonSql: Readonly<Record<string, Sql>> = {
  '==': sql`=`,
  '!=': sql`<>`,
  '<': sql`<`,
  '<=': sql`<=`,
  '>': sql`>`,
  '>=': sql`>=`,
  '+': sql`+`,
  '-': sql`-`,
  '*': sql`*`,
  and: sql`and`,
  or: sql`or`,
};

/**
 * Compiles a checked filter or booster (see `parseRecsQuery`) to a SQL expression over the
 * `recs_items` row `r`, every value a parameter. `now()` is `nowMs`, fixed for the request, so
 * one request sees one instant. Division by zero gives null: a filter is then false, a booster 0.
 */
export function querySql(node: QueryNode, options: { nowMs: number }): Sql {
  const go = (n: QueryNode): Sql => querySql(n, options);
  switch (node.kind) {
    case 'number':
      return sql`${node.value}::float8`;
    case 'string':
      return sql`${node.value}::text`;
    case 'boolean':
      return node.value ? sql`true` : sql`false`;
    case 'property':
      return columns[node.name.toLowerCase()] ?? sql`null`;
    case 'set':
      return sql`array[${sql.join(node.items.map(go))}]::text[]`;
    case 'call':
      return sql`${options.nowMs}::float8`;
    case 'not':
      return sql`(not ${go(node.operand)})`;
    case 'negate':
      return sql`(- ${go(node.operand)})`;
    case 'in': {
      const isSet =
        node.haystack.kind === 'set' ||
        (node.haystack.kind === 'property' && node.haystack.name.toLowerCase() === 'properties');
      const test = isSet
        ? sql`(${go(node.haystack)} @> array[${go(node.needle)}]::text[])`
        : sql`(strpos(${go(node.haystack)}, ${go(node.needle)}) > 0)`;
      return node.isNegated ? sql`(not ${test})` : test;
    }
    case 'if':
      return sql`(case when ${go(node.condition)} then ${go(node.then)} else ${go(node.otherwise)} end)`;
    case 'binary': {
      const l = go(node.left);
      const r = go(node.right);
      if (node.op === '/') return sql`(${l} / nullif(${r}, 0))`;
      if (node.op === '%') return sql`(${l} - ${r} * floor(${l} / nullif(${r}, 0)))`;
      return sql`(${l} ${comparisonSql[node.op]!} ${r})`;
    }
  }
}

import { sql, type RawBuilder } from 'kysely';
import { typeOf, type BinaryOp, type QueryNode } from '@lectern/core';

type Sql = RawBuilder<unknown>;

/**
 * Columns of `recs_items` (aliased `r`) for the query properties. Maps, not objects, so no name in
 * a query can reach Object.prototype (`'constructor'` once compiled to a function, a 500).
 */
const columns: ReadonlyMap<string, Sql> = new Map([
  ['codename', sql`r.codename`],
  ['name', sql`r.name`],
  ['type', sql`r.type`],
  ['lastupdated', sql`r.lastupdated::float8`],
  ['properties', sql`r.properties`],
]);

const operatorSql: ReadonlyMap<BinaryOp, Sql> = new Map([
  ['==', sql`=`],
  ['!=', sql`<>`],
  ['<', sql`<`],
  ['<=', sql`<=`],
  ['>', sql`>`],
  ['>=', sql`>=`],
  ['+', sql`+`],
  ['-', sql`-`],
  ['*', sql`*`],
  ['and', sql`and`],
  ['or', sql`or`],
]);

/**
 * Compiles a checked filter or booster (see `parseRecsQuery`) to a SQL expression over the
 * `recs_items` row `r`, every value a parameter. `now()` is `nowMs`, fixed for the request, so
 * one request sees one instant. Division by zero gives null: a filter is then false, a booster 0.
 * Linear in the tree and in the SQL it writes: each node is compiled once and written once (the
 * operands of `%` twice, see below), and the types it asks are remembered (`typeOf`).
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
      return columns.get(node.name.toLowerCase()) ?? sql`null`;
    case 'set':
      return sql`array[${sql.join(node.items.map(go))}]::text[]`;
    case 'call':
      return sql`${options.nowMs}::float8`;
    case 'not':
      return sql`(not ${go(node.operand)})`;
    case 'negate':
      return sql`(- ${go(node.operand)})`;
    case 'in': {
      // By the haystack's type, not its shape: `"a" in (if … then {…} else {…})` is a set too.
      const test =
        typeOf(node.haystack) === 'set'
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
      // Floored modulo; it writes each side twice, which stays linear because the type check
      // refuses a `%` inside either side. (Numeric `mod` writes the left side once but cost about
      // 8 ms per `%` per 1,000 rows in PGlite, and a chain of 400 failed there.)
      if (node.op === '%') return sql`(${l} - ${r} * floor(${l} / nullif(${r}, 0)))`;
      const op = operatorSql.get(node.op);
      if (op === undefined) throw new Error(`No SQL for the operator '${node.op}'`);
      return sql`(${l} ${op} ${r})`;
    }
  }
}

import { sql, type RawBuilder } from 'kysely';
import type { ItemFilter, ItemOrder } from '@lectern/core';

/**
 * SQL fragments of `queryItems` (SPEC 4.3 rules 2–6) over a candidate row aliased `d`: the
 * columns of `delivery_documents` plus the jsonb values the query reads, extracted once per row by
 * `Extracts` (each `d.doc` access decodes the whole document again; extracting in a fenced
 * subquery and comparing the small values is several times faster than chained `->` per use).
 * Every expression is total: a value of an unexpected JSON type compares false instead of failing
 * (on PGlite a failing query could abort another caller's transaction on the one connection).
 */

type Expr = RawBuilder<unknown>;

/** The jsonb values a query reads, each selected once as `x<n>` by the candidate subquery. */
export class Extracts {
  readonly #byKey = new Map<string, { alias: string; expr: Expr }>();

  /** `d.doc #> {path}` as a column of the candidates; the reference to use in outer expressions. */
  ref(path: readonly string[]): Expr {
    const key = JSON.stringify(path);
    let hit = this.#byKey.get(key);
    if (hit === undefined) {
      hit = {
        alias: `x${this.#byKey.size}`,
        expr: sql`d.doc #> array[${sql.join(path.map((p) => sql`${p}::text`))}]`,
      };
      this.#byKey.set(key, hit);
    }
    return sql.ref(`d.${hit.alias}`);
  }

  get isEmpty(): boolean {
    return this.#byKey.size === 0;
  }

  /** The select-list entries (`, <expr> as x<n>` each) for the candidate subquery. */
  columns(): Expr {
    return sql.join(
      [...this.#byKey.values()].map((e) => sql`, ${e.expr} as ${sql.ref(e.alias)}`),
      sql``,
    );
  }
}

/** The jsonb of a property (`system.x` or `elements.x` value), null when absent. */
function valueOf(property: string, extracts: Extracts): { value: Expr; exists: Expr; arrayCodenames: Expr } | null {
  const dot = property.indexOf('.');
  const scope = property.slice(0, dot);
  const name = property.slice(dot + 1);
  if (dot < 0 || name === '') return null;
  if (scope === 'system') {
    const value = extracts.ref(['item', 'system', name]);
    return { value, exists: sql`(${value} is not null)`, arrayCodenames: sql`null::jsonb` };
  }
  if (scope === 'elements') {
    const element = extracts.ref(['item', 'elements', name]);
    return {
      value: sql`(${element}->'value')`,
      exists: sql`(${element} is not null)`,
      arrayCodenames: sql`(d.arrays->${name}::text)`,
    };
  }
  return null;
}

function asNumber(value: string): number | null {
  if (value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** `v <op> given` on a scalar: numbers numerically (when the given value is a number), strings as strings. */
function compare(v: Expr, op: '=' | '<' | '<=' | '>' | '>=', given: string): Expr {
  const n = asNumber(given);
  const o = sql.raw(op);
  const numeric = n === null ? sql`false` : sql`(${v}#>>'{}')::numeric ${o} ${String(n)}::numeric`;
  return sql`(case jsonb_typeof(${v}) when 'number' then ${numeric} when 'string' then (${v}#>>'{}') collate "C" ${o} ${given}::text collate "C" else false end)`;
}

function isEmptyValue(v: Expr): Expr {
  return sql`(${v} is null or jsonb_typeof(${v}) = 'null' or ${v} = '""'::jsonb or ${v} = '[]'::jsonb)`;
}

function anyOf(parts: Expr[]): Expr {
  return parts.length === 0 ? sql`false` : sql`(${sql.join(parts, sql` or `)})`;
}

/** One filter as a boolean SQL expression; a filter on a missing element matches nothing. */
export function filterSql(filter: ItemFilter, extracts: Extracts): Expr {
  const target = valueOf(filter.property, extracts);
  if (!target) return sql`false`;
  const { value: v, exists } = target;
  const values = filter.values;
  const first = values[0] ?? '';
  const scalar = (e: Expr) => sql`(${exists} and ${e})`;
  switch (filter.operator) {
    case 'eq':
      return scalar(compare(v, '=', first));
    case 'neq':
      return scalar(sql`not ${compare(v, '=', first)}`);
    case 'lt':
      return scalar(compare(v, '<', first));
    case 'lte':
      return scalar(compare(v, '<=', first));
    case 'gt':
      return scalar(compare(v, '>', first));
    case 'gte':
      return scalar(compare(v, '>=', first));
    case 'range':
      return scalar(sql`(${compare(v, '>=', first)} and ${compare(v, '<=', values[1] ?? '')})`);
    case 'in':
      return scalar(anyOf(values.map((x) => compare(v, '=', x))));
    case 'nin':
      return scalar(sql`not ${anyOf(values.map((x) => compare(v, '=', x)))}`);
    case 'empty':
      return scalar(isEmptyValue(v));
    case 'nempty':
      return scalar(sql`not ${isEmptyValue(v)}`);
    case 'contains':
    case 'all': {
      const a = target.arrayCodenames;
      return sql`(${a} is not null and ${a} @> ${JSON.stringify(values)}::jsonb)`;
    }
    case 'any': {
      const a = target.arrayCodenames;
      return sql`(${a} is not null and ${anyOf(values.map((x) => sql`${a} @> ${JSON.stringify([x])}::jsonb`))})`;
    }
  }
}

/** ORDER BY of a query: the property (numbers numerically, then as strings), ties by codename. */
export function orderSql(order: ItemOrder | null, extracts: Extracts): Expr {
  if (!order) return sql`d.codename collate "C" asc`;
  const target = valueOf(order.property, extracts);
  if (!target) return sql`d.codename collate "C" asc`;
  const dir = sql.raw(order.direction === 'desc' ? 'desc' : 'asc');
  const v = target.value;
  return sql`(case when jsonb_typeof(${v}) = 'number' then (${v}#>>'{}')::numeric end) ${dir}, (case when jsonb_typeof(${v}) in ('string', 'array', 'object') then ${v}#>>'{}' end) collate "C" ${dir}, d.codename collate "C" asc`;
}

/** Item-level system properties kept as columns: the same in every language of an item. */
const itemColumns: Readonly<Record<string, Expr>> = {
  'system.codename': sql`d.codename`,
  'system.type': sql`d.type`,
  'system.collection': sql`d.collection`,
  'system.id': sql`d.item_id::text`,
};

function isPushedDown(f: ItemFilter): boolean {
  return itemColumns[f.property] !== undefined && (f.operator === 'eq' || f.operator === 'in') && f.values.length > 0;
}

/**
 * The eq/in filters on item-level columns, as a condition safe to apply before the language
 * fallback picks one variant per item (every language of an item agrees on them). Lets the
 * codename and type indexes narrow the candidates instead of scanning the project.
 */
export function pushdownSql(filters: readonly ItemFilter[]): Expr {
  const parts: Expr[] = [];
  for (const f of filters) {
    const column = itemColumns[f.property];
    if (!column || !isPushedDown(f)) continue;
    parts.push(sql`${column} in (${sql.join(f.values.map((v) => sql`${v}::text`))})`);
  }
  return parts.length === 0 ? sql`true` : sql`(${sql.join(parts, sql` and `)})`;
}

/**
 * The filters still to apply to the candidates: those `pushdownSql` applied are left out, since
 * the columns hold exactly the document's string values (`system.id`, `codename`, `type`,
 * `collection` are set from the same document), so the comparison would repeat the same test.
 */
export function residualFilters(filters: readonly ItemFilter[]): ItemFilter[] {
  return filters.filter((f) => !isPushedDown(f));
}

import { sql, type RawBuilder } from 'kysely';
import type { DeliveryChannel, FilterOperator, ItemFilter, ItemOrder } from '@lectern/core';
import { systemColumns, type SystemColumn } from './document-rows.ts';

/**
 * SQL of `queryItems` (SPEC 4.3 rules 2–6) over the tables of migration 0008. A candidate document
 * is aliased `d`; every filter is an indexed lookup: a column of `d`, an `exists` on its typed
 * value row (`delivery_values`) or on its array members (`delivery_members`). Ordering by a value
 * joins that value row as `o`; when a filter on the same property already requires the row, the
 * join is inner and carries the filter, so an index on (property, value) can feed the order and
 * the limit directly. Every expression is total: a value of another type compares false.
 */

type Expr = RawBuilder<unknown>;

/** Long strings (rich text) are indexed by their first 200 characters (migration 0008). */
const prefixLength = 200;
const prefix = (s: string) => [...s].slice(0, prefixLength).join('');

type Comparison = '=' | '<' | '<=' | '>' | '>=';
/** The comparison of prefixes that a comparison of whole strings implies. */
const onPrefix: Record<Comparison, string> = { '=': '=', '<': '<=', '<=': '<=', '>': '>=', '>=': '>=' };

function asNumber(value: string): number | null {
  if (value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What a filter or order property names. */
type Target =
  | { readonly kind: 'column'; readonly column: SystemColumn }
  | { readonly kind: 'value'; readonly property: string }
  | { readonly kind: 'none' };

export function targetOf(property: string): Target {
  const dot = property.indexOf('.');
  const scope = property.slice(0, dot);
  if (dot < 0 || property.length === dot + 1) return { kind: 'none' };
  if (scope === 'system') {
    const column = (systemColumns as Record<string, SystemColumn | undefined>)[property];
    return column === undefined ? { kind: 'value', property } : { kind: 'column', column };
  }
  return scope === 'elements' ? { kind: 'value', property } : { kind: 'none' };
}

const isArrayOperator = (op: FilterOperator) => op === 'contains' || op === 'any' || op === 'all';

// ---- values (alias `v` of a delivery_values row) ----

/** `v <op> given` as Delivery compares: numbers numerically when `given` is a number, strings as strings. */
function compareValue(v: string, op: Comparison, given: string): Expr {
  const n = asNumber(given);
  const o = sql.raw(op);
  const num = sql.ref(`${v}.num`);
  const txt = sql.ref(`${v}.txt`);
  const kind = sql.ref(`${v}.kind`);
  const numeric = n === null ? sql`false` : sql`(${kind} = 'n' and ${num} ${o} ${n}::float8)`;
  return sql`(${numeric} or (${kind} = 's' and left(${txt}, ${sql.lit(prefixLength)}) ${sql.raw(onPrefix[op])} ${prefix(given)}::text and ${txt} ${o} ${given}::text))`;
}

function inValues(v: string, values: readonly string[]): Expr {
  const numbers = values.map(asNumber).filter((n): n is number => n !== null);
  const num = sql.ref(`${v}.num`);
  const txt = sql.ref(`${v}.txt`);
  const kind = sql.ref(`${v}.kind`);
  const numeric = numbers.length === 0 ? sql`false` : sql`(${kind} = 'n' and ${num} = any(${numbers}::float8[]))`;
  return sql`(${numeric} or (${kind} = 's' and left(${txt}, ${sql.lit(prefixLength)}) = any(${values.map(prefix)}::text[]) and ${txt} = any(${values}::text[])))`;
}

function isEmptyValue(v: string): Expr {
  const txt = sql.ref(`${v}.txt`);
  const kind = sql.ref(`${v}.kind`);
  return sql`(${kind} = 'z' or (${kind} = 's' and ${txt} = '') or (${kind} = 'a' and ${txt} = '[]'))`;
}

/** The condition a scalar filter puts on its value row (the row's existence is the caller's). */
function valueCondition(v: string, filter: ItemFilter): Expr {
  const [first = '', second = ''] = filter.values;
  switch (filter.operator) {
    case 'eq':
      return compareValue(v, '=', first);
    case 'neq':
      return sql`not ${compareValue(v, '=', first)}`;
    case 'lt':
      return compareValue(v, '<', first);
    case 'lte':
      return compareValue(v, '<=', first);
    case 'gt':
      return compareValue(v, '>', first);
    case 'gte':
      return compareValue(v, '>=', first);
    case 'range':
      return sql`(${compareValue(v, '>=', first)} and ${compareValue(v, '<=', second)})`;
    case 'in':
      return inValues(v, filter.values);
    case 'nin':
      return sql`not ${inValues(v, filter.values)}`;
    case 'empty':
      return isEmptyValue(v);
    case 'nempty':
      return sql`not ${isEmptyValue(v)}`;
    default:
      return sql`false`;
  }
}

function memberCondition(property: string, filter: ItemFilter): Expr {
  const member = (condition: Expr) =>
    sql`exists (select 1 from delivery_members m where m.doc_id = d.doc_id and m.property = ${property}::text and ${condition})`;
  if (filter.operator === 'any') return member(sql`m.member = any(${filter.values}::text[])`);
  // contains / all: every value is a member
  return sql`(${sql.join(
    [...new Set(filter.values)].map((x) => member(sql`m.member = ${x}::text`)),
    sql` and `,
  )})`;
}

// ---- columns of d ----

function columnCondition(column: SystemColumn, filter: ItemFilter): Expr {
  const values = filter.values;
  const [first = '', second = ''] = values;
  if (column === 'item_id') {
    // The id compares as its canonical text; the uuid column serves equality.
    const ids = values.filter((x) => uuidPattern.test(x));
    const text = sql`d.item_id::text`;
    switch (filter.operator) {
      case 'eq':
      case 'in':
        return ids.length === 0 ? sql`false` : sql`d.item_id = any(${ids}::uuid[])`;
      case 'neq':
      case 'nin':
        return ids.length === 0 ? sql`true` : sql`not (d.item_id = any(${ids}::uuid[]))`;
      default:
        return columnComparison(text, filter.operator, first, second);
    }
  }
  const c = sql.ref(`d.${column}`);
  switch (filter.operator) {
    case 'eq':
      return sql`${c} = ${first}::text`;
    case 'neq':
      return sql`${c} <> ${first}::text`;
    case 'in':
      return sql`${c} = any(${values}::text[])`;
    case 'nin':
      return sql`not (${c} = any(${values}::text[]))`;
    default:
      return columnComparison(c, filter.operator, first, second);
  }
}

function columnComparison(c: Expr, operator: FilterOperator, first: string, second: string): Expr {
  switch (operator) {
    case 'lt':
      return sql`${c} < ${first}::text`;
    case 'lte':
      return sql`${c} <= ${first}::text`;
    case 'gt':
      return sql`${c} > ${first}::text`;
    case 'gte':
      return sql`${c} >= ${first}::text`;
    case 'range':
      return sql`(${c} >= ${first}::text and ${c} <= ${second}::text)`;
    case 'empty':
      return sql`${c} = ''`;
    case 'nempty':
      return sql`${c} <> ''`;
    default:
      // contains / any / all: system properties are no arrays
      return sql`false`;
  }
}

// ---- the query ----

export interface SqlItemQuery {
  readonly projectId: string;
  readonly channel: DeliveryChannel;
  readonly languages: readonly string[];
  readonly filters: readonly ItemFilter[];
  readonly order: ItemOrder | null;
  /** Only these item codenames (multi-get); absent: every item. */
  readonly codenames?: readonly string[];
}

/** Each item once, in the first language of the list it has a variant in. */
function languageCondition(languages: readonly string[]): Expr {
  const inList = sql`d.language = any(${languages}::text[])`;
  if (languages.length <= 1) return inList;
  const earlier = sql`(case d.language ${sql.join(
    languages.slice(1).map((l, i) => sql`when ${l}::text then ${languages.slice(0, i + 1)}::text[]`),
    sql` `,
  )} else array[]::text[] end)`;
  return sql`${inList} and not exists (select 1 from delivery_documents e
    where e.project_id = d.project_id and e.channel = d.channel and e.item_id = d.item_id and e.language = any(${earlier}))`;
}

/** The FROM, WHERE and ORDER BY of a list (or, with `isCount`, a count without the order). */
export function itemQuerySql(query: SqlItemQuery, options: { readonly isCount: boolean }): Expr {
  const conditions: Expr[] = [
    sql`d.project_id = ${query.projectId}::uuid`,
    sql`d.channel = ${query.channel}::text`,
    languageCondition(query.languages),
  ];
  if (query.codenames !== undefined) conditions.push(sql`d.codename = any(${query.codenames}::text[])`);
  const orderTarget = query.order === null || options.isCount ? null : targetOf(query.order.property);
  const orderProperty = orderTarget?.kind === 'value' ? orderTarget.property : null;
  const onOrderRow: Expr[] = [];
  for (const filter of query.filters) {
    const target = targetOf(filter.property);
    if (target.kind === 'none') conditions.push(sql`false`);
    else if (target.kind === 'column') conditions.push(columnCondition(target.column, filter));
    else if (isArrayOperator(filter.operator)) conditions.push(memberCondition(target.property, filter));
    else if (target.property === orderProperty) onOrderRow.push(valueCondition('o', filter));
    else {
      conditions.push(
        sql`exists (select 1 from delivery_values v where v.doc_id = d.doc_id and v.property = ${target.property}::text and ${valueCondition('v', filter)})`,
      );
    }
  }
  // Any filter on the order property means its row exists: an inner join is the same answer.
  const isInner =
    orderProperty !== null &&
    query.filters.some((f) => {
      const t = targetOf(f.property);
      return t.kind === 'value' && t.property === orderProperty;
    });
  const join =
    orderProperty === null
      ? sql``
      : sql`${sql.raw(isInner ? 'join' : 'left join')} delivery_values o on o.doc_id = d.doc_id and o.property = ${orderProperty}::text
          ${isInner ? sql`and o.project_id = ${query.projectId}::uuid and o.channel = ${query.channel}::text` : sql``}
          ${onOrderRow.length === 0 ? sql`` : sql`and ${sql.join(onOrderRow, sql` and `)}`}`;
  const where = sql`where ${sql.join(conditions, sql` and `)}`;
  if (options.isCount || query.order === null || orderTarget === null)
    return sql`from delivery_documents d ${join} ${where} ${options.isCount ? sql`` : sql`order by d.codename asc`}`;
  const dir = sql.raw(query.order.direction === 'desc' ? 'desc' : 'asc');
  const order =
    orderTarget.kind === 'column'
      ? sql`${sql.ref(`d.${orderTarget.column}`)} ${dir}, d.codename asc`
      : orderTarget.kind === 'value'
        ? // Numbers first by number, then strings, arrays and objects by their text; nulls as the greatest.
          sql`o.num ${dir}, left(o.txt, ${sql.lit(prefixLength)}) ${dir}, o.txt ${dir}, d.codename asc`
        : sql`d.codename asc`;
  return sql`from delivery_documents d ${join} ${where} order by ${order}`;
}

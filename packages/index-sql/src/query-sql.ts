import { sql } from 'kysely';
import type { ItemOrder, ItemQuery, TypeElements } from '@lectern/core';
import {
  conditionSql,
  filterCondition,
  isArrayOperator,
  isPresentInFilteredTypes,
  kindsOf,
  prefixLength,
  targetOf,
  valueCondition,
  valueTypeOf,
  type Expr,
  type ValueType,
} from './filter-sql.ts';

/**
 * SQL of `queryItems` (SPEC 4.3) over the tables of migration 0008: the filters of
 * `filter-sql.ts` on a candidate document `d`, the language fallbacks, and the order. Ordering by
 * a value joins that value row as `o`; when a filter on the same property already requires the
 * row, the join is inner and carries the filter, so an index on (property, value) can feed the
 * order and the limit directly. Orders for ties join their value rows as `o1`, `o2`…
 */

/** The rows one list reads: an index query's selection and order, without its paging. */
export interface SqlItemQuery extends Pick<
  ItemQuery,
  'projectId' | 'channel' | 'languages' | 'filters' | 'conditions' | 'order' | 'thenBy'
> {
  /** Only these item codenames (multi-get); absent: every item. */
  readonly codenames?: readonly string[];
  readonly typeElements?: TypeElements;
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

/** Numbers by number, then strings, arrays and objects by their text; null sorts as the greatest. */
function valueOrder(alias: string, type: ValueType, direction: ItemOrder['direction']): Expr {
  const dir = sql.raw(direction === 'desc' ? 'desc' : 'asc');
  const num = sql`${sql.ref(`${alias}.num`)} ${dir}`;
  const txt = sql.ref(`${alias}.txt`);
  const text = sql`left(${txt}, ${sql.lit(prefixLength)}) ${dir}, ${txt} ${dir}`;
  return type === 'number' ? num : type === 'string' ? text : sql`${num}, ${text}`;
}

/** The joins and ORDER BY terms of the orders after the first (`thenBy`), value rows as `o1`, `o2`… */
function tieOrders(query: SqlItemQuery): { joins: Expr[]; terms: Expr[] } {
  const joins: Expr[] = [];
  const terms: Expr[] = [];
  (query.thenBy ?? []).forEach((order, i) => {
    const target = targetOf(order.property);
    if (target.kind === 'none') return;
    if (target.kind === 'column') {
      terms.push(sql`${sql.ref(`d.${target.column}`)} ${sql.raw(order.direction === 'desc' ? 'desc' : 'asc')}`);
      return;
    }
    const alias = `o${i + 1}`;
    joins.push(
      sql`left join delivery_values ${sql.raw(alias)} on ${sql.ref(`${alias}.doc_id`)} = d.doc_id and ${sql.ref(`${alias}.property`)} = ${target.property}::text`,
    );
    terms.push(valueOrder(alias, valueTypeOf(target.property, query.typeElements), order.direction));
  });
  return { joins, terms };
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
    if (target.kind === 'value' && target.property === orderProperty && !isArrayOperator(filter.operator)) {
      onOrderRow.push(valueCondition('o', valueTypeOf(target.property, query.typeElements), filter));
    } else conditions.push(filterCondition(filter, query.typeElements));
  }
  for (const condition of query.conditions ?? []) conditions.push(conditionSql(condition, query.typeElements));
  const where = sql`where ${sql.join(conditions, sql` and `)}`;
  if (options.isCount || query.order === null || orderTarget === null || orderTarget.kind === 'none')
    return sql`from delivery_documents d ${where} ${options.isCount ? sql`` : sql`order by d.codename asc`}`;
  const ties = tieOrders(query);
  const tieJoins = sql.join(ties.joins, sql` `);
  const tieTerms = sql.join([...ties.terms, sql`d.codename asc`], sql`, `);
  if (orderTarget.kind === 'column') {
    const dir = sql.raw(query.order.direction === 'desc' ? 'desc' : 'asc');
    return sql`from delivery_documents d ${tieJoins} ${where} order by ${sql.ref(`d.${orderTarget.column}`)} ${dir}, ${tieTerms}`;
  }

  // Ordering by a value row `o`. An inner join gives the same answer when every candidate has the
  // row: a filter on the property requires it, and so do types that all define the element.
  const property = orderTarget.property;
  const type = valueTypeOf(property, query.typeElements);
  const isInner =
    query.filters.some((f) => targetOf(f.property).kind === 'value' && f.property === property) ||
    isPresentInFilteredTypes(property, query.filters, query.typeElements);
  const kinds = kindsOf(type);
  const join = isInner
    ? sql`join delivery_values o on o.doc_id = d.doc_id and o.property = ${property}::text
        and o.project_id = ${query.projectId}::uuid and o.channel = ${query.channel}::text
        ${kinds === null ? sql`` : sql`and o.kind in ${kinds}`}
        ${onOrderRow.length === 0 ? sql`` : sql`and ${sql.join(onOrderRow, sql` and `)}`}`
    : sql`left join delivery_values o on o.doc_id = d.doc_id and o.property = ${property}::text`;
  return sql`from delivery_documents d ${join} ${tieJoins} ${where} order by ${valueOrder('o', type, query.order.direction)}, ${tieTerms}`;
}

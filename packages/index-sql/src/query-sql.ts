import { sql, type RawBuilder } from 'kysely';
import {
  systemColumns,
  type DeliveryChannel,
  type FilterOperator,
  type ItemFilter,
  type ItemOrder,
  type SystemColumn,
  type TypeElements,
} from '@lectern/core';

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

/** What a value row of a property can hold: numbers (or null), strings (or null), or anything. */
type ValueType = 'number' | 'string' | 'any';

const numberKinds = new Set(['number']);
const stringKinds = new Set(['text', 'rich_text', 'url_slug', 'date_time', 'custom']);
const stringSystemProperties = new Set(['system.workflow', 'system.workflow_step']);

/** The value type of a property from the model hint (`any` without one). */
function valueTypeOf(property: string, typeElements: TypeElements | undefined): ValueType {
  if (stringSystemProperties.has(property)) return 'string';
  if (typeElements === undefined || !property.startsWith('elements.')) return 'any';
  const codename = property.slice('elements.'.length);
  const kinds = Object.values(typeElements)
    .map((elements) => elements[codename])
    .filter((k): k is string => k !== undefined);
  if (kinds.length === 0) return 'any';
  if (kinds.every((k) => numberKinds.has(k))) return 'number';
  if (kinds.every((k) => stringKinds.has(k))) return 'string';
  return 'any';
}

/** Whether every item of the types a filter restricts to has the element (so has its value row). */
function isPresentInFilteredTypes(
  property: string,
  filters: readonly ItemFilter[],
  typeElements: TypeElements | undefined,
): boolean {
  if (typeElements === undefined || !property.startsWith('elements.')) return false;
  const codename = property.slice('elements.'.length);
  return filters.some(
    (f) =>
      f.property === 'system.type' &&
      (f.operator === 'eq' || f.operator === 'in') &&
      f.values.length > 0 &&
      f.values.every((type) => typeElements[type]?.[codename] !== undefined),
  );
}

/** The kinds a value row of that type holds (the partial indexes of migration 0008 match them). */
function kindsOf(type: ValueType): Expr | null {
  if (type === 'number') return sql`('n', 'z')`;
  if (type === 'string') return sql`('s', 'z')`;
  return null;
}

// ---- values (alias `v` of a delivery_values row) ----

/** `v <op> given` as Delivery compares: numbers numerically when `given` is a number, strings as strings. */
/** Either of two conditions, leaving out the branch a value of that type never meets. */
function branches(type: ValueType, numeric: Expr, text: Expr): Expr {
  if (type === 'number') return numeric;
  if (type === 'string') return text;
  return sql`(${numeric} or ${text})`;
}

function compareValue(v: string, type: ValueType, op: Comparison, given: string): Expr {
  const n = asNumber(given);
  const o = sql.raw(op);
  const txt = sql.ref(`${v}.txt`);
  const kind = sql.ref(`${v}.kind`);
  const numeric = n === null ? sql`false` : sql`(${kind} = 'n' and ${sql.ref(`${v}.num`)} ${o} ${n}::float8)`;
  const text = sql`(${kind} = 's' and left(${txt}, ${sql.lit(prefixLength)}) ${sql.raw(onPrefix[op])} ${prefix(given)}::text and ${txt} ${o} ${given}::text)`;
  return branches(type, numeric, text);
}

function inValues(v: string, type: ValueType, values: readonly string[]): Expr {
  const numbers = values.map(asNumber).filter((n): n is number => n !== null);
  const txt = sql.ref(`${v}.txt`);
  const kind = sql.ref(`${v}.kind`);
  const numeric =
    numbers.length === 0 ? sql`false` : sql`(${kind} = 'n' and ${sql.ref(`${v}.num`)} = any(${numbers}::float8[]))`;
  const text = sql`(${kind} = 's' and left(${txt}, ${sql.lit(prefixLength)}) = any(${values.map(prefix)}::text[]) and ${txt} = any(${values}::text[]))`;
  return branches(type, numeric, text);
}

function isEmptyValue(v: string, type: ValueType): Expr {
  const txt = sql.ref(`${v}.txt`);
  const kind = sql.ref(`${v}.kind`);
  if (type === 'number') return sql`${kind} = 'z'`;
  if (type === 'string') return sql`(${kind} = 'z' or (${kind} = 's' and ${txt} = ''))`;
  return sql`(${kind} = 'z' or (${kind} = 's' and ${txt} = '') or (${kind} = 'a' and ${txt} = '[]'))`;
}

/** The condition a scalar filter puts on its value row (the row's existence is the caller's). */
function valueCondition(v: string, type: ValueType, filter: ItemFilter): Expr {
  const [first = '', second = ''] = filter.values;
  switch (filter.operator) {
    case 'eq':
      return compareValue(v, type, '=', first);
    case 'neq':
      return sql`not ${compareValue(v, type, '=', first)}`;
    case 'lt':
      return compareValue(v, type, '<', first);
    case 'lte':
      return compareValue(v, type, '<=', first);
    case 'gt':
      return compareValue(v, type, '>', first);
    case 'gte':
      return compareValue(v, type, '>=', first);
    case 'range':
      return sql`(${compareValue(v, type, '>=', first)} and ${compareValue(v, type, '<=', second)})`;
    case 'in':
      return inValues(v, type, filter.values);
    case 'nin':
      return sql`not ${inValues(v, type, filter.values)}`;
    case 'empty':
      return isEmptyValue(v, type);
    case 'nempty':
      return sql`not ${isEmptyValue(v, type)}`;
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
    else {
      const type = valueTypeOf(target.property, query.typeElements);
      if (target.property === orderProperty) onOrderRow.push(valueCondition('o', type, filter));
      else {
        conditions.push(
          sql`exists (select 1 from delivery_values v where v.doc_id = d.doc_id and v.property = ${target.property}::text and ${valueCondition('v', type, filter)})`,
        );
      }
    }
  }
  const where = sql`where ${sql.join(conditions, sql` and `)}`;
  if (options.isCount || query.order === null || orderTarget === null || orderTarget.kind === 'none')
    return sql`from delivery_documents d ${where} ${options.isCount ? sql`` : sql`order by d.codename asc`}`;
  const dir = sql.raw(query.order.direction === 'desc' ? 'desc' : 'asc');
  if (orderTarget.kind === 'column')
    return sql`from delivery_documents d ${where} order by ${sql.ref(`d.${orderTarget.column}`)} ${dir}, d.codename asc`;

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
  // Numbers by number, then strings, arrays and objects by their text; null sorts as the greatest.
  const text = sql`left(o.txt, ${sql.lit(prefixLength)}) ${dir}, o.txt ${dir}`;
  const order = type === 'number' ? sql`o.num ${dir}` : type === 'string' ? text : sql`o.num ${dir}, ${text}`;
  return sql`from delivery_documents d ${join} ${where} order by ${order}, d.codename asc`;
}

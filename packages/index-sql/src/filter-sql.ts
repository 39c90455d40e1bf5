import { sql, type RawBuilder } from 'kysely';
import {
  assertNever,
  systemColumns,
  type FilterOperator,
  type ItemCondition,
  type ItemFilter,
  type SystemColumn,
  type TypeElements,
} from '@lectern/core';

/**
 * The filters of `queryItems` (SPEC 4.3 rules 2–6) over the tables of migration 0008, and their
 * AND / OR combinations. A candidate document is aliased `d`; every filter is an indexed lookup: a
 * column of `d`, an `exists` on its typed value row (`delivery_values`) or on its array members
 * (`delivery_members`). Every expression is total: a value of another type compares false.
 */

export type Expr = RawBuilder<unknown>;

/** Long strings (rich text) are indexed by their first 200 characters (migration 0008). */
export const prefixLength = 200;
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

export const isArrayOperator = (op: FilterOperator) => op === 'contains' || op === 'any' || op === 'all';

/** What a value row of a property can hold: numbers (or null), strings (or null), or anything. */
export type ValueType = 'number' | 'string' | 'any';

const numberKinds = new Set(['number']);
const stringKinds = new Set(['text', 'rich_text', 'url_slug', 'date_time', 'custom']);
const stringSystemProperties = new Set(['system.workflow', 'system.workflow_step']);

/** The value type of a property from the model hint (`any` without one). */
export function valueTypeOf(property: string, typeElements: TypeElements | undefined): ValueType {
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
export function isPresentInFilteredTypes(
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
export function kindsOf(type: ValueType): Expr | null {
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
export function valueCondition(v: string, type: ValueType, filter: ItemFilter): Expr {
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
    case 'contains':
    case 'any':
    case 'all':
      // Array operators read the member rows (`memberCondition`), never a value row.
      return sql`false`;
    default:
      return assertNever(filter.operator, 'filter operator');
  }
}

/**
 * `alias` is a row of the candidate's project and channel. Redundant for the answer (a doc_id
 * belongs to one project and channel) but not for the plan: the value and member indexes lead with
 * (project_id, channel, property), and only with these terms can the planner turn a selective
 * `exists` into an index lookup that finds the few documents, instead of scanning every value row
 * of the property (an equality filter on a slug took 57 ms at 100,000 items; 0.1 ms with them).
 */
function sameScope(alias: string): Expr {
  return sql`${sql.ref(`${alias}.project_id`)} = d.project_id and ${sql.ref(`${alias}.channel`)} = d.channel`;
}

function memberCondition(property: string, filter: ItemFilter): Expr {
  const member = (condition: Expr) =>
    sql`exists (select 1 from delivery_members m where m.doc_id = d.doc_id and ${sameScope('m')} and m.property = ${property}::text and ${condition})`;
  if (filter.operator === 'any') return member(sql`m.member = any(${filter.values}::text[])`);
  // contains / all: every value is a member
  return sql`(${sql.join(
    [...new Set(filter.values)].map((x) => member(sql`m.member = ${x}::text`)),
    sql` and `,
  )})`;
}

// ---- columns of d ----

function columnCondition(column: SystemColumn, filter: ItemFilter): Expr {
  if (column === 'item_id') {
    // The id compares as its canonical text; the uuid column serves equality.
    const ids = filter.values.filter((x) => uuidPattern.test(x));
    switch (filter.operator) {
      case 'eq':
      case 'in':
        return ids.length === 0 ? sql`false` : sql`d.item_id = any(${ids}::uuid[])`;
      case 'neq':
      case 'nin':
        return ids.length === 0 ? sql`true` : sql`not (d.item_id = any(${ids}::uuid[]))`;
      default:
        return columnComparison(sql`d.item_id::text`, filter.operator, filter.values);
    }
  }
  return columnComparison(sql.ref(`d.${column}`), filter.operator, filter.values);
}

function columnComparison(c: Expr, operator: FilterOperator, values: readonly string[]): Expr {
  const [first = '', second = ''] = values;
  switch (operator) {
    case 'eq':
      return sql`${c} = ${first}::text`;
    case 'neq':
      return sql`${c} <> ${first}::text`;
    case 'in':
      return sql`${c} = any(${values}::text[])`;
    case 'nin':
      return sql`not (${c} = any(${values}::text[]))`;
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
    case 'contains':
    case 'any':
    case 'all':
      // System properties are no arrays.
      return sql`false`;
    default:
      return assertNever(operator, 'filter operator');
  }
}

/** The condition one filter puts on a candidate `d`, its value row read by an `exists`. */
export function filterCondition(filter: ItemFilter, typeElements: TypeElements | undefined): Expr {
  const target = targetOf(filter.property);
  if (target.kind === 'none') return sql`false`;
  if (target.kind === 'column') return columnCondition(target.column, filter);
  if (isArrayOperator(filter.operator)) return memberCondition(target.property, filter);
  const type = valueTypeOf(target.property, typeElements);
  return sql`exists (select 1 from delivery_values v where v.doc_id = d.doc_id and ${sameScope('v')} and v.property = ${target.property}::text and ${valueCondition('v', type, filter)})`;
}

/** An AND / OR combination of filters (`true` for an empty AND, `false` for an empty OR). */
export function conditionSql(condition: ItemCondition, typeElements: TypeElements | undefined): Expr {
  if ('allOf' in condition) {
    const members = condition.allOf.map((c) => conditionSql(c, typeElements));
    return members.length === 0 ? sql`true` : sql`(${sql.join(members, sql` and `)})`;
  }
  if ('anyOf' in condition) {
    const members = condition.anyOf.map((c) => conditionSql(c, typeElements));
    return members.length === 0 ? sql`false` : sql`(${sql.join(members, sql` or `)})`;
  }
  return filterCondition(condition, typeElements);
}

import type { FilterOperator, ItemCondition, ItemFilter, ItemOrder } from '@lectern/core';
import type { ModelElement, ModelType } from '../schema/content-model.ts';
import { badInput } from './item-view.ts';

/** GraphQL filter operators (SPEC 4.4 rule 4) and the index's operator for each. */
const operators: Readonly<Record<string, FilterOperator>> = {
  eq: 'eq',
  notEq: 'neq',
  lt: 'lt',
  lte: 'lte',
  gt: 'gt',
  gte: 'gte',
  in: 'in',
  notIn: 'nin',
  containsAll: 'all',
  containsAny: 'any',
};

const systemProperties: Readonly<Record<string, string>> = {
  id: 'system.id',
  codename: 'system.codename',
  name: 'system.name',
  lastModified: 'system.last_modified',
  collection: 'system.collection',
  workflow: 'system.workflow',
  workflowStep: 'system.workflow_step',
};

type Input = Readonly<Record<string, unknown>>;
const isInput = (value: unknown): value is Input =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The filters one filter input (`{eq: …, in: […]}`) holds for a property. */
function filtersOf(property: string, filter: Input): ItemFilter[] {
  const out: ItemFilter[] = [];
  for (const [name, value] of Object.entries(filter)) {
    if (value === null || value === undefined) continue;
    if (name === 'isEmpty') {
      out.push({ property, operator: value === true ? 'empty' : 'nempty', values: [] });
      continue;
    }
    const operator = operators[name];
    if (operator === undefined) continue;
    out.push({ property, operator, values: (Array.isArray(value) ? value : [value]).map(String) });
  }
  return out;
}

/** Each element's fields by GraphQL field name, snippet elements under their snippet's field. */
function elementFields(type: ModelType): Map<string, ModelElement | Map<string, ModelElement>> {
  const out = new Map<string, ModelElement | Map<string, ModelElement>>();
  const add = (target: Map<string, unknown>, e: ModelElement) => {
    target.set(e.fieldName, e);
    if (e.kind === 'date_time') target.set(`${e.fieldName}_with_timezone`, e);
  };
  for (const e of type.elements) add(out, e);
  for (const s of type.snippets) {
    const inner = new Map<string, ModelElement>();
    for (const e of s.elements) add(inner, e);
    out.set(s.fieldName, inner);
  }
  return out;
}

function elementFilters(field: string, element: ModelElement, input: Input): ItemFilter[] {
  const property = `elements.${element.key}`;
  const filter = field.endsWith('_with_timezone') ? input['value'] : input;
  return isInput(filter) ? filtersOf(property, filter) : [];
}

/** The leaf filters of conditions, however nested. */
export function* leafFilters(conditions: readonly ItemCondition[]): Generator<ItemFilter> {
  for (const c of conditions) {
    if ('allOf' in c) yield* leafFilters(c.allOf);
    else if ('anyOf' in c) yield* leafFilters(c.anyOf);
    else yield c;
  }
}

/** One condition for what several must all meet. */
const allOf = (conditions: ItemCondition[]): ItemCondition =>
  conditions.length === 1 ? conditions[0]! : { allOf: conditions };

/** The conditions one `where` object holds, ANDed; `AND` and `OR` nest (`limits/where-bounds.ts` bounds them first). */
function whereConditions(fields: ReturnType<typeof elementFields>, where: Input): ItemCondition[] {
  const out: ItemCondition[] = [];
  for (const [field, input] of Object.entries(where)) {
    if (field === 'AND' || field === 'OR') {
      if (!Array.isArray(input)) continue;
      // Today's reference: "Both operators take an array of at least two values".
      if (input.length < 2) throw badInput(`${field} takes a list of at least two conditions (got ${input.length}).`);
      const members = input.filter(isInput).map((w) => allOf(whereConditions(fields, w)));
      out.push(field === 'AND' ? allOf(members) : { anyOf: members });
      continue;
    }
    if (!isInput(input)) continue;
    if (field === '_system_') {
      for (const [name, filter] of Object.entries(input)) {
        if (!isInput(filter)) continue;
        const nested = name === 'language' && isInput(filter['_system_']) ? filter['_system_']['codename'] : filter;
        const property = name === 'language' ? 'system.language' : systemProperties[name];
        if (property !== undefined && isInput(nested)) out.push(...filtersOf(property, nested));
      }
      continue;
    }
    const target = fields.get(field);
    if (target instanceof Map) {
      for (const [inner, filter] of Object.entries(input)) {
        const element = target.get(inner);
        if (element !== undefined && isInput(filter)) out.push(...elementFilters(inner, element, filter));
      }
    } else if (target !== undefined) out.push(...elementFilters(field, target, input));
  }
  // An AND inside the list is ANDed with it already.
  return out.flatMap((c) => ('allOf' in c ? c.allOf : [c]));
}

/**
 * The index conditions of a `<type>_All` `where` (SPEC 4.4 rules 3–5), to be ANDed: plain filters
 * and, for `AND` / `OR`, combinations. Without `isCombined` (SPEC 4.4) a `where` holds one
 * condition with one filter; with it (today's Kontent.ai, the default) it takes any number, fields of one object ANDed, with `AND` and
 * `OR` lists of at least two nested `where` objects.
 */
export function whereFilters(options: { type: ModelType; where: Input | null | undefined; isCombined: boolean }) {
  const conditions = whereConditions(elementFields(options.type), options.where ?? {});
  const count = [...leafFilters(conditions)].length;
  if (!options.isCombined && count > 1) {
    throw badInput(
      `where holds one condition with one filter (SPEC 4.4 rule 3), and this one holds ${count}. ` +
        'This server is set to SPEC 4.4 (LECTERN_GRAPHQL_WHERE_COMBINED=false); true combines conditions with AND and OR.',
    );
  }
  return conditions;
}

/** Fields one `order` may name (not in the reference: it documents one). */
export const maxOrderFields = 5;

const directionOf = (value: unknown): 'asc' | 'desc' | null => (value === 'asc' || value === 'desc' ? value : null);

/**
 * The index orders of a `<type>_All` `order` input, first to last in the order the client wrote
 * the fields (`paths`, from `writtenPaths`); ties then break by codename. A property named twice
 * (`postDate` and `postDate_with_timezone`) counts once, where first written.
 */
export function orderOf(options: {
  type: ModelType;
  order: Input | null | undefined;
  paths: readonly (readonly string[])[];
}): ItemOrder[] {
  const found: ItemOrder[] = [];
  const fields = elementFields(options.type);
  const add = (property: string, value: unknown, field: string) => {
    const direction = directionOf(field.endsWith('_with_timezone') && isInput(value) ? value['value'] : value);
    if (direction !== null && !found.some((o) => o.property === property)) found.push({ property, direction });
  };
  const order = options.order ?? {};
  for (const [field, inner] of options.paths) {
    if (field === undefined) continue;
    const value = order[field];
    const target = field === '_system_' ? undefined : fields.get(field);
    if (inner !== undefined && isInput(value) && (field === '_system_' || target instanceof Map)) {
      const property =
        field === '_system_' ? systemProperties[inner] : (target as Map<string, ModelElement>).get(inner)?.key;
      if (property !== undefined) add(field === '_system_' ? property : `elements.${property}`, value[inner], inner);
    } else if (target !== undefined && !(target instanceof Map)) add(`elements.${target.key}`, value, field);
  }
  // Each order by an element joins its value rows once more: a few fields decide any real list.
  if (found.length > maxOrderFields) {
    throw badInput(`order takes at most ${maxOrderFields} fields; this one names ${found.length}.`);
  }
  return found;
}

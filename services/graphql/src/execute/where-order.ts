import type { FilterOperator, ItemFilter, ItemOrder } from '@lectern/core';
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

/**
 * The index filters of a `<type>_All` `where` (SPEC 4.4 rules 3–5). By default it holds one
 * condition with one filter; `isCombined` (today's Kontent.ai) ANDs any number of them.
 */
export function whereFilters(options: { type: ModelType; where: Input | null | undefined; isCombined: boolean }) {
  const filters: ItemFilter[] = [];
  const fields = elementFields(options.type);
  for (const [field, input] of Object.entries(options.where ?? {})) {
    if (!isInput(input)) continue;
    if (field === '_system_') {
      for (const [name, filter] of Object.entries(input)) {
        if (!isInput(filter)) continue;
        const nested = name === 'language' && isInput(filter['_system_']) ? filter['_system_']['codename'] : filter;
        const property = name === 'language' ? 'system.language' : systemProperties[name];
        if (property !== undefined && isInput(nested)) filters.push(...filtersOf(property, nested));
      }
      continue;
    }
    const target = fields.get(field);
    if (target instanceof Map) {
      for (const [inner, filter] of Object.entries(input)) {
        const element = target.get(inner);
        if (element !== undefined && isInput(filter)) filters.push(...elementFilters(inner, element, filter));
      }
    } else if (target !== undefined) filters.push(...elementFilters(field, target, input));
  }
  if (!options.isCombined && filters.length > 1) {
    throw badInput(
      `where holds one condition with one filter (SPEC 4.4 rule 3), and this one holds ${filters.length}. ` +
        'The server setting LECTERN_GRAPHQL_WHERE_COMBINED=true combines conditions with AND.',
    );
  }
  return filters;
}

const directionOf = (value: unknown): 'asc' | 'desc' | null => (value === 'asc' || value === 'desc' ? value : null);

/** The index order of a `<type>_All` `order` input: one field (the index orders by one). */
export function orderOf(options: { type: ModelType; order: Input | null | undefined }): ItemOrder | null {
  const found: ItemOrder[] = [];
  const fields = elementFields(options.type);
  const add = (property: string, value: unknown, field: string) => {
    const direction = directionOf(field.endsWith('_with_timezone') && isInput(value) ? value['value'] : value);
    if (direction !== null) found.push({ property, direction });
  };
  for (const [field, value] of Object.entries(options.order ?? {})) {
    if (field === '_system_' && isInput(value)) {
      for (const [name, direction] of Object.entries(value)) {
        const property = systemProperties[name];
        if (property !== undefined) add(property, direction, name);
      }
      continue;
    }
    const target = fields.get(field);
    if (target instanceof Map && isInput(value)) {
      for (const [inner, direction] of Object.entries(value)) {
        const element = target.get(inner);
        if (element !== undefined) add(`elements.${element.key}`, direction, inner);
      }
    } else if (target !== undefined && !(target instanceof Map)) add(`elements.${target.key}`, value, field);
  }
  if (found.length > 1) throw badInput('order takes one field; this one names several.');
  return found[0] ?? null;
}

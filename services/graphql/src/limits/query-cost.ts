import {
  GraphQLInt,
  Kind,
  getNamedType,
  getVariableValues,
  isInterfaceType,
  isObjectType,
  isUnionType,
  valueFromAST,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { measureWhere, type WhereMeasure } from './where-bounds.ts';

/** What a query may cost, computed from the query alone, before it runs (SPEC 8). */
export interface QueryCost {
  /** The most items and components the query can return (SPEC 8 "complexity"). */
  readonly complexity: number;
  /** The most field values its answer can hold: what executing it and writing the answer cost. */
  readonly values: number;
  /** Conditions of its `where` arguments, each counted where it runs (`where-bounds.ts`). */
  readonly whereConditions: number;
  /** The deepest `AND` / `OR` nesting of its `where` arguments. */
  readonly whereNesting: number;
}

/** What one item of a collection brings. */
interface Each {
  readonly items: number;
  readonly values: number;
}

interface Walk {
  /** Items and components one instance of the parent can bring. */
  readonly items: number;
  /** Field values one instance of the parent holds, its collections' items included. */
  readonly values: number;
  /**
   * For a collection: what one of its items brings, per response name of its `items` fields
   * (the largest when several selections merge into one name).
   */
  readonly perItem: ReadonlyMap<string, Each>;
  /** `where` conditions in and below it, and their deepest nesting. */
  readonly where: WhereMeasure;
}

const noItems: ReadonlyMap<string, Each> = new Map();

/**
 * Collection types whose `items` are content items: the generic one, each type's `<Type>_All` and
 * a restricted element's `<Type>_<Element>_Collection` (items of one type or of a union of types).
 */
function isItemCollection(type: GraphQLNamedType | null): boolean {
  if (type === null || !isObjectType(type) || !isCollection(type)) return false;
  const items = type.getFields()['items'];
  const item = items === undefined ? null : getNamedType(items.type);
  if (item === null) return false;
  if (item.name === '_Item' || isUnionType(item)) return true;
  return isObjectType(item) && item.getInterfaces().some((i) => i.name === '_Item');
}

/** Any paged collection (items, assets, renditions, terms, options): `items` and `limit` fields. */
function isCollection(type: GraphQLNamedType | null): boolean {
  if (type === null || !isObjectType(type)) return false;
  const fields = type.getFields();
  return fields['items'] !== undefined && fields['limit'] !== undefined;
}

/** The operation the request runs: the named one, or the only one. */
export function selectOperation(document: DocumentNode, operationName: string | null): OperationDefinitionNode | null {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (operationName !== null) return operations.find((o) => o.name?.value === operationName) ?? null;
  return operations.length === 1 ? (operations[0] ?? null) : null;
}

/**
 * The variables as execution will see them: the request's values coerced, each omitted one taking
 * its declared default (what graphql-js passes to resolvers). Null when they do not coerce: the
 * query will fail on them, and until then every `limit` given by a variable counts as the page
 * size maximum.
 */
function executionVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>>,
): Record<string, unknown> | null {
  const result = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 1 });
  return result.coerced ?? null;
}

/**
 * The complexity of a validated operation. Complexity counts, for every collection of items, its
 * `limit` times one plus what each of its items can bring, and one for a single root item: 20
 * items with up to 10 linked items each give 20 + 20 × 10 = 220 (SPEC 8). Values count every
 * field of the answer, each collection's items `limit` times. A `limit` is the value execution
 * will use: a literal, a variable's value, else its declared default, else the argument's
 * default (10); with variables that do not coerce, the page size maximum. Every selection set is
 * walked once and each fragment once, so the time is linear in the document (`documentBounds`
 * has bounded its size and depth first).
 */
export function queryCost(options: {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Readonly<Record<string, unknown>>;
  maxPageSize: number;
}): QueryCost {
  const { schema, operation } = options;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of options.document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const variables = executionVariables(schema, operation, options.variables);
  const memo = new Map<string, Walk | null>();

  const fieldDefOf = (field: FieldNode, parent: GraphQLNamedType | null) =>
    parent !== null && (isObjectType(parent) || isInterfaceType(parent))
      ? parent.getFields()[field.name.value]
      : undefined;

  const limitOf = (field: FieldNode, parent: GraphQLNamedType | null): number => {
    const node = field.arguments?.find((a) => a.name.value === 'limit');
    if (node !== undefined && variables === null && node.value.kind === Kind.VARIABLE) return options.maxPageSize;
    const value = node === undefined ? undefined : valueFromAST(node.value, GraphQLInt, variables ?? {});
    if (typeof value === 'number') return Math.max(0, value);
    const fallback = fieldDefOf(field, parent)?.args.find((a) => a.name === 'limit')?.defaultValue;
    return typeof fallback === 'number' ? fallback : 10;
  };

  const walk = (set: SelectionSetNode | undefined, parent: GraphQLNamedType | null): Walk => {
    let items = 0;
    let values = 0;
    let where = { conditions: 0, nesting: 0 };
    const addWhere = (m: WhereMeasure) => {
      where = { conditions: where.conditions + m.conditions, nesting: Math.max(where.nesting, m.nesting) };
    };
    const perItem = new Map<string, Each>();
    const addPerItem = (key: string, each: Each) => {
      const known = perItem.get(key);
      perItem.set(
        key,
        known === undefined
          ? each
          : { items: Math.max(known.items, each.items), values: Math.max(known.values, each.values) },
      );
    };
    for (const s of set?.selections ?? []) {
      if (s.kind === Kind.FIELD) {
        values += 1;
        const whereArgument = s.arguments?.find((a) => a.name.value === 'where');
        if (whereArgument !== undefined) addWhere(measureWhere(whereArgument.value, variables ?? options.variables));
        if (s.selectionSet === undefined) continue;
        const fieldDef = fieldDefOf(s, parent);
        const type = fieldDef === undefined ? null : getNamedType(fieldDef.type);
        const inner = walk(s.selectionSet, type);
        addWhere(inner.where);
        if (s.name.value === 'items' && isCollection(parent)) {
          // Counted by the collection that holds it, `limit` times.
          addPerItem(s.alias?.value ?? 'items', { items: inner.items, values: inner.values });
          continue;
        }
        values += inner.values;
        if (!isCollection(type)) {
          items += inner.items;
          continue;
        }
        const limit = limitOf(s, parent);
        const isOfItems = isItemCollection(type);
        for (const each of inner.perItem.values()) {
          items += limit * ((isOfItems ? 1 : 0) + each.items);
          values += limit * each.values;
        }
        continue;
      }
      let inner: Walk | null;
      if (s.kind === Kind.INLINE_FRAGMENT) {
        inner = walk(
          s.selectionSet,
          s.typeCondition === undefined ? parent : (schema.getType(s.typeCondition.name.value) ?? null),
        );
      } else {
        const name = s.name.value;
        inner = memo.get(name) ?? null;
        if (!memo.has(name)) {
          const fragment = fragments.get(name);
          // A cycle was refused before validation; seen again on the way down it adds nothing.
          memo.set(name, null);
          inner =
            fragment === undefined
              ? null
              : walk(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) ?? null);
          memo.set(name, inner);
        }
      }
      if (inner === null) continue;
      // Fragments select fields of the same level: their counts add up, `items` selections merge.
      items += inner.items;
      addWhere(inner.where);
      values += inner.values;
      for (const [key, each] of inner.perItem) addPerItem(key, each);
    }
    return { items, values, perItem: perItem.size === 0 ? noItems : perItem, where };
  };

  const root = schema.getQueryType() ?? null;
  const whole = walk(operation.selectionSet, root);
  let complexity = whole.items;
  // A single root item counts one, besides what it brings.
  const countRootItems = (set: SelectionSetNode, seen: Set<string>): void => {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        const def = root?.getFields()[s.name.value];
        const type = def === undefined ? null : getNamedType(def.type);
        if (type !== null && isObjectType(type) && type.getInterfaces().some((i) => i.name === '_Item'))
          complexity += 1;
      } else if (s.kind === Kind.INLINE_FRAGMENT) countRootItems(s.selectionSet, seen);
      else if (!seen.has(s.name.value)) {
        seen.add(s.name.value);
        const fragment = fragments.get(s.name.value);
        if (fragment !== undefined) countRootItems(fragment.selectionSet, seen);
      }
    }
  };
  countRootItems(operation.selectionSet, new Set());
  return {
    complexity,
    values: whole.values,
    whereConditions: whole.where.conditions,
    whereNesting: whole.where.nesting,
  };
}

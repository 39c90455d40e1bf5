import {
  GraphQLInt,
  Kind,
  getNamedType,
  isInterfaceType,
  isObjectType,
  valueFromAST,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** What a query may cost, computed from the query alone, before it runs (SPEC 8). */
export interface QueryCost {
  /** The most items and components the query can return (SPEC 8 "complexity"). */
  readonly complexity: number;
  /** The sum over root fields of their deepest nesting, root fields at level 0 (SPEC 8 "depth"). */
  readonly depth: number;
}

interface Walk {
  /** Items and components one instance of the parent can bring. */
  readonly items: number;
  /** Levels of fields below the parent. */
  readonly depth: number;
}

const none: Walk = { items: 0, depth: 0 };

/** Collection types whose `items` are content items: the generic one and each type's `<Type>_All`. */
function isItemCollection(type: GraphQLNamedType | null): boolean {
  return type !== null && isObjectType(type) && (type.name === '_ItemCollection' || type.name.endsWith('_All'));
}

/** The operation the request runs: the named one, or the only one. */
export function selectOperation(document: DocumentNode, operationName: string | null): OperationDefinitionNode | null {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (operationName !== null) return operations.find((o) => o.name?.value === operationName) ?? null;
  return operations.length === 1 ? (operations[0] ?? null) : null;
}

/**
 * The complexity and depth of a validated operation. Complexity counts, for every collection of
 * items, its `limit` (default 10) times one plus what each of its items can bring, and one for a
 * single root item: 20 items with up to 10 linked items each give 20 + 20 × 10 = 220 (SPEC 8).
 * Fragments are walked once each, so a query that spreads them many times stays cheap to measure.
 */
export function queryCost(options: {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Readonly<Record<string, unknown>>;
}): QueryCost {
  const { schema, variables } = options;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of options.document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const memo = new Map<string, Walk>();
  const itemsMemo = new Map<string, number | null>();

  const limitOf = (field: FieldNode, parent: GraphQLNamedType | null): number => {
    const node = field.arguments?.find((a) => a.name.value === 'limit');
    const value =
      node === undefined ? undefined : valueFromAST(node.value, GraphQLInt, variables as Record<string, unknown>);
    if (typeof value === 'number') return Math.max(0, value);
    const fieldDef =
      parent !== null && (isObjectType(parent) || isInterfaceType(parent))
        ? parent.getFields()[field.name.value]
        : undefined;
    const fallback = fieldDef?.args.find((a) => a.name === 'limit')?.defaultValue;
    return typeof fallback === 'number' ? fallback : 10;
  };

  const walk = (set: SelectionSetNode | undefined, parent: GraphQLNamedType | null, path: Set<string>): Walk => {
    let items = 0;
    let depth = 0;
    for (const s of set?.selections ?? []) {
      let w: Walk;
      if (s.kind === Kind.FIELD) {
        w = fieldWalk(s, parent, path);
        depth = Math.max(depth, 1 + w.depth);
        items += w.items;
        continue;
      }
      if (s.kind === Kind.INLINE_FRAGMENT) {
        const on = s.typeCondition === undefined ? parent : (schema.getType(s.typeCondition.name.value) ?? null);
        w = walk(s.selectionSet, on, path);
      } else {
        const name = s.name.value;
        const fragment = fragments.get(name);
        // A cycle is a validation error; a spread seen on the way down adds nothing here.
        if (fragment === undefined || path.has(name)) continue;
        let known = memo.get(name);
        if (known === undefined) {
          known = walk(
            fragment.selectionSet,
            schema.getType(fragment.typeCondition.name.value) ?? null,
            new Set([...path, name]),
          );
          memo.set(name, known);
        }
        w = known;
      }
      // Fragments select fields of the same level: their depth counts from here, their items add up.
      depth = Math.max(depth, w.depth);
      items += w.items;
    }
    return { items, depth };
  };

  const fieldWalk = (field: FieldNode, parent: GraphQLNamedType | null, path: Set<string>): Walk => {
    if (field.selectionSet === undefined) return none;
    const fieldDef =
      parent !== null && (isObjectType(parent) || isInterfaceType(parent))
        ? parent.getFields()[field.name.value]
        : undefined;
    const type = fieldDef === undefined ? null : getNamedType(fieldDef.type);
    const inner = walk(field.selectionSet, type, path);
    if (!isItemCollection(type)) return inner;
    // The collection's own fields: only `items` brings items, each with what its selection brings.
    const perItem = itemsSelections(field.selectionSet, type, path);
    return { items: perItem === null ? 0 : limitOf(field, parent) * (1 + perItem), depth: inner.depth };
  };

  /** What one item of a collection brings (null: `items` is not selected). */
  const itemsSelections = (
    set: SelectionSetNode,
    collection: GraphQLNamedType | null,
    path: Set<string>,
  ): number | null => {
    let found: number | null = null;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD && s.name.value === 'items') {
        const itemsType =
          collection !== null && isObjectType(collection)
            ? getNamedType(collection.getFields()['items']?.type ?? collection)
            : null;
        found = Math.max(found ?? 0, walk(s.selectionSet, itemsType, path).items);
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        const inner = itemsSelections(s.selectionSet, collection, path);
        if (inner !== null) found = Math.max(found ?? 0, inner);
      } else if (s.kind === Kind.FRAGMENT_SPREAD) {
        const name = s.name.value;
        const fragment = fragments.get(name);
        if (fragment === undefined || path.has(name)) continue;
        let inner = itemsMemo.get(name);
        if (inner === undefined) {
          inner = itemsSelections(fragment.selectionSet, collection, new Set([...path, name]));
          itemsMemo.set(name, inner);
        }
        if (inner !== null) found = Math.max(found ?? 0, inner);
      }
    }
    return found;
  };

  const root = schema.getQueryType() ?? null;
  let complexity = 0;
  let depth = 0;
  for (const s of options.operation.selectionSet.selections) {
    const w = walk({ kind: Kind.SELECTION_SET, selections: [s] }, root, new Set());
    depth += w.depth - 1 < 0 ? 0 : w.depth - 1;
    let items = w.items;
    // A single root item counts one, besides what it brings.
    if (s.kind === Kind.FIELD && root !== null) {
      const def = root.getFields()[s.name.value];
      const type = def === undefined ? null : getNamedType(def.type);
      if (type !== null && isObjectType(type) && type.getInterfaces().some((i) => i.name === '_Item')) items += 1;
    }
    complexity += items;
  }
  return { complexity, depth };
}

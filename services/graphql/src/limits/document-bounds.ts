import { Kind, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/** The bounds a parsed document must keep before anything else looks at it (SPEC 8, issue 27). */
export interface DocumentLimits {
  /** Largest sum over one operation's root fields of their deepest nesting (SPEC 8: 124). */
  readonly maxDepth: number;
  /** Most field selections once every fragment spread is expanded where it is spread. */
  readonly maxFields: number;
  /** Most pairs of fields sharing a response path (what graphql-js compares to merge fields). */
  readonly maxOverlapPairs: number;
}

export type DocumentBounds =
  | { readonly isWithin: true; readonly depth: number; readonly fields: number; readonly overlapPairs: number }
  | {
      readonly isWithin: false;
      readonly code: 'QUERY_TOO_DEEP' | 'QUERY_TOO_COMPLEX' | 'GRAPHQL_VALIDATION_FAILED';
      readonly message: string;
    };

/** What one selection set brings, its fragments expanded (memoised per fragment, so linear). */
interface Measure {
  /** Levels of fields in and below the set: `{ items { title } }` is 2. */
  readonly levels: number;
  /** The set's fields read as root fields: the sum of each one's levels below it. */
  readonly rootDepth: number;
  /** Field selections, every spread counted where it is spread. */
  readonly fields: number;
}

const inProgress = Symbol('in progress');

/** Thrown inside the walk; turned into a refusal by `documentBounds`. */
class Refusal {
  readonly code: 'QUERY_TOO_COMPLEX' | 'GRAPHQL_VALIDATION_FAILED';
  readonly message: string;
  constructor(code: Refusal['code'], message: string) {
    this.code = code;
    this.message = message;
  }
}

/**
 * Measures a parsed, not yet validated document in time linear in its size, without the schema:
 * the depth of each operation (SPEC 8's depth, root fields at level 0; the deepest operation
 * counts), the number of fields it expands to, and how many pairs of same-path fields
 * graphql-js's OverlappingFieldsCanBeMerged rule would compare (quadratic in repeated fields, so
 * it is bounded before validation runs). Fragments are measured once each; a fragment cycle or a
 * repeated fragment name is refused here, as validation would, so the expanded walk is finite.
 * Call it right after `parse` and before `validate`, the cost walk or execution.
 */
export function documentBounds(document: DocumentNode, limits: DocumentLimits): DocumentBounds {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) {
    if (d.kind !== Kind.FRAGMENT_DEFINITION) continue;
    if (fragments.has(d.name.value)) {
      return refuse(
        new Refusal('GRAPHQL_VALIDATION_FAILED', `There can be only one fragment named "${d.name.value}".`),
      );
    }
    fragments.set(d.name.value, d);
  }
  const memo = new Map<string, Measure | typeof inProgress>();

  const measure = (set: SelectionSetNode | undefined): Measure => {
    let levels = 0;
    let rootDepth = 0;
    let fields = 0;
    for (const s of set?.selections ?? []) {
      let m: Measure;
      if (s.kind === Kind.FIELD) {
        const below = s.selectionSet === undefined ? null : measure(s.selectionSet);
        levels = Math.max(levels, 1 + (below?.levels ?? 0));
        rootDepth += below?.levels ?? 0;
        fields += 1 + (below?.fields ?? 0);
        continue;
      }
      if (s.kind === Kind.INLINE_FRAGMENT) m = measure(s.selectionSet);
      else {
        const known = memo.get(s.name.value);
        if (known === inProgress) {
          throw new Refusal('GRAPHQL_VALIDATION_FAILED', `Cannot spread fragment "${s.name.value}" within itself.`);
        }
        if (known !== undefined) m = known;
        else {
          const fragment = fragments.get(s.name.value);
          // An unknown fragment brings nothing here; validation names it.
          if (fragment === undefined) continue;
          memo.set(s.name.value, inProgress);
          m = measure(fragment.selectionSet);
          memo.set(s.name.value, m);
        }
      }
      // A fragment's fields sit at the level of the spread: depths take the max, counts add up.
      levels = Math.max(levels, m.levels);
      rootDepth += m.rootDepth;
      fields += m.fields;
    }
    return { levels, rootDepth, fields };
  };

  try {
    let depth = 0;
    let fields = 0;
    for (const d of document.definitions) {
      if (d.kind !== Kind.OPERATION_DEFINITION) continue;
      const m = measure(d.selectionSet);
      depth = Math.max(depth, m.rootDepth);
      fields += m.fields;
    }
    const reached = new Set(memo.keys());
    // Fragments no operation spreads are still validated: count them as well.
    for (const [name, fragment] of fragments) {
      if (!memo.has(name)) fields += measure(fragment.selectionSet).fields;
    }
    if (depth > limits.maxDepth) {
      return {
        isWithin: false,
        code: 'QUERY_TOO_DEEP',
        message: `The query's total depth is ${depth}, over the limit of ${limits.maxDepth}.`,
      };
    }
    if (fields > limits.maxFields) {
      throw new Refusal(
        'QUERY_TOO_COMPLEX',
        `The query selects ${fields > 1e15 ? 'more than 10^15' : fields} fields once its fragments are expanded, over the limit of ${limits.maxFields}. Select fewer fields or spread each fragment fewer times.`,
      );
    }
    const overlapPairs = countOverlapPairs({ document, fragments, reached, max: limits.maxOverlapPairs });
    return { isWithin: true, depth, fields, overlapPairs };
  } catch (error) {
    if (error instanceof Refusal) return refuse(error);
    throw error;
  }
}

function refuse(refusal: Refusal): DocumentBounds {
  return { isWithin: false, code: refusal.code, message: refusal.message };
}

interface PathNode {
  count: number;
  readonly children: Map<string, PathNode>;
}

/**
 * Pairs of fields with the same response path, fragments expanded: graphql-js compares each such
 * pair once to check that they merge, so this bounds its work. Runs only once the expanded field
 * count is bounded (and cycles refused), so the walk is linear in that count; it stops at `max`.
 */
function countOverlapPairs(input: {
  document: DocumentNode;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  /** Fragments the operations spread. */
  reached: ReadonlySet<string>;
  max: number;
}): number {
  const { fragments, max } = input;
  let pairs = 0;
  const visit = (set: SelectionSetNode, node: PathNode): void => {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) visitField(s, node);
      else if (s.kind === Kind.INLINE_FRAGMENT) visit(s.selectionSet, node);
      else {
        const fragment = fragments.get(s.name.value);
        if (fragment !== undefined) visit(fragment.selectionSet, node);
      }
    }
  };
  const visitField = (field: FieldNode, node: PathNode): void => {
    const key = field.alias?.value ?? field.name.value;
    let child = node.children.get(key);
    if (child === undefined) {
      child = { count: 0, children: new Map() };
      node.children.set(key, child);
    }
    pairs += child.count;
    child.count += 1;
    if (pairs > max) {
      throw new Refusal(
        'QUERY_TOO_COMPLEX',
        `The query repeats fields under the same response names too often: merging them takes over ${max} comparisons. Select each field once, or give repeated fields distinct aliases.`,
      );
    }
    if (field.selectionSet !== undefined) visit(field.selectionSet, child);
  };
  for (const d of input.document.definitions) {
    if (d.kind === Kind.OPERATION_DEFINITION) visit(d.selectionSet, { count: 0, children: new Map() });
  }
  // Unspread fragments are validated on their own: walk those no other fragment spreads either.
  const spreadInFragments = new Set<string>();
  const collect = (set: SelectionSetNode): void => {
    for (const s of set.selections) {
      if (s.kind === Kind.FRAGMENT_SPREAD) spreadInFragments.add(s.name.value);
      else if (s.selectionSet !== undefined) collect(s.selectionSet);
    }
  };
  for (const fragment of fragments.values()) collect(fragment.selectionSet);
  for (const [name, fragment] of fragments) {
    if (!input.reached.has(name) && !spreadInFragments.has(name)) {
      visit(fragment.selectionSet, { count: 0, children: new Map() });
    }
  }
  return pairs;
}

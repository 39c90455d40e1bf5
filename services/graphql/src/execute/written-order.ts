import { Kind, type ValueNode } from 'graphql';

/**
 * The paths of an input object's leaves in the order the client wrote them: graphql-js coerces
 * input objects in the order of the type's fields, which loses the order a multi-field `order`
 * argument gives. Reads the argument's literal, or the request's raw variables (JSON keeps its
 * key order), two levels deep (`_system_ { lastModified }`, `_seo { title }`,
 * `postDate_with_timezone { value }`).
 */
export function writtenPaths(node: ValueNode | undefined, variables: Readonly<Record<string, unknown>>): string[][] {
  return node === undefined ? [] : pathsOf(astEntries(node, variables));
}

/** The same for a value already coerced (in the order of the type's fields). */
export function valuePaths(value: unknown): string[][] {
  return pathsOf(rawEntries(value));
}

function pathsOf(entries: Entry[] | null): string[][] {
  const out: string[][] = [];
  const visit = (entries: Entry[] | null, path: string[]): void => {
    if (entries === null) {
      if (path.length > 0) out.push(path);
      return;
    }
    // Order inputs are two levels deep; anything deeper is left to validation.
    if (path.length >= 2) return;
    for (const [key, inner] of entries) visit(inner(), [...path, key]);
  };
  visit(entries, []);
  return out;
}

/** A key and, lazily, the entries of its value (null: a leaf). */
type Entry = readonly [string, () => Entry[] | null];

function astEntries(node: ValueNode, variables: Readonly<Record<string, unknown>>): Entry[] | null {
  if (node.kind === Kind.VARIABLE) return rawEntries(variables[node.name.value]);
  if (node.kind !== Kind.OBJECT) return null;
  return node.fields.map((f) => [f.name.value, () => astEntries(f.value, variables)] as const);
}

function rawEntries(value: unknown): Entry[] | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  return Object.entries(value).map(([key, inner]) => [key, () => rawEntries(inner)] as const);
}

const opening = new Set(['{', '[', '(']);
const closing = new Set(['}', ']', ')']);

/**
 * Whether a GraphQL text nests brackets (`{`, `[`, `(`) deeper than `max`, read in one linear scan
 * before parsing: graphql-js parses recursively, and about 2,000 nested lists in a 4 kB argument
 * overflow the stack (a RangeError, not a syntax error). Strings, block strings and comments are
 * skipped; a malformed text is left for `parse` to name. Returns the depth first found over `max`,
 * or null.
 */
export function excessNesting(text: string, max: number): number | null {
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '#') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i += 1;
    } else if (c === '"' && text.startsWith('"""', i)) {
      i += 3;
      while (i < text.length && !text.startsWith('"""', i)) i += text.startsWith('\\"""', i) ? 4 : 1;
      i += 2;
    } else if (c === '"') {
      i += 1;
      while (i < text.length && text[i] !== '"' && text[i] !== '\n' && text[i] !== '\r') {
        i += text[i] === '\\' ? 2 : 1;
      }
    } else if (c !== undefined && opening.has(c)) {
      depth += 1;
      if (depth > max) return depth;
    } else if (c !== undefined && closing.has(c)) depth -= 1;
    i += 1;
  }
  return null;
}

/**
 * The bounds on a filter or booster, checked before the work they bound (docs/recommendations.md,
 * "Limits on filters and boosters"). Every walk of a query — the type check, the SQL, query-DSL
 * and Painless compilers, the in-process evaluator — is linear in its nodes and recursive in its
 * depth, and so are the engines that receive the compiled form; these bounds keep all of them
 * small.
 *
 * - `maxLength`: the documented examples are under 200 characters and a filter listing a hundred
 *   codenames in a set is about 2,000; 4,000 leaves room for that and keeps the compiled Painless
 *   script well under OpenSearch's default 65,535-byte script limit.
 * - `maxNesting`: nesting of parentheses, `not`, unary `-`, `if … then … else`, sets and function
 *   calls, each a level of the parser's recursion; checked as the parser enters a level, so no
 *   input can exhaust the stack.
 * - `maxDepth`: the depth of the parsed tree, which every later walk recurses through — ours, and
 *   PostgreSQL's (PGlite failed on a chain of 400 `%`, about 1,600 levels of SQL) and OpenSearch's.
 *   A chain of arithmetic (`1+1+…`) adds a level per operator; a chain of `and`s or `or`s is built
 *   balanced, so a list of hundreds of alternatives is about ten levels deep.
 * - `maxNodes`: values and operators in the tree, which bounds the size of the compiled forms (a
 *   Painless script of at most about 50 kB, fewer leaf queries than OpenSearch's 1,024 clauses)
 *   and the work per item the database does.
 */
export const queryLimits = Object.freeze({
  /** Characters (UTF-16 code units, as columns count them). */
  maxLength: 4_000,
  /** Levels of nesting. */
  maxNesting: 32,
  /** Levels of the parsed tree. */
  maxDepth: 64,
  /** Nodes of the parsed tree: every value, property, call, set and operator. */
  maxNodes: 1_200,
});

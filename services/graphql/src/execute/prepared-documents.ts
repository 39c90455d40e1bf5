import {
  GraphQLError,
  execute,
  parse,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { documentBounds } from '../limits/document-bounds.ts';
import { excessNesting } from '../limits/text-nesting.ts';

/** A query text parsed and validated against one schema, with what it has been compiled to. */
export interface PreparedDocument {
  readonly document: DocumentNode;
  /** Field selections once fragments are expanded (what compiling it costs). */
  readonly fields: number;
  /** Requests that ran it. */
  hits: number;
  /** graphql-jit's compiled query per operation name ('' for none); null when it could not compile. */
  readonly compiled: Map<string, CompiledQuery | null>;
}

type Checked =
  { readonly prepared: PreparedDocument } | { readonly code: string; readonly errors: readonly GraphQLError[] };

/**
 * Tokens a query may hold: about what an 8 kB body of short aliased fields holds, and the bound
 * on parsing work (graphql-js stops at it).
 */
const maxTokens = 4_000;
/**
 * Brackets a query text may nest, checked before parsing (graphql-js parses recursively): far
 * above any accepted query (depth 124, values a few levels), far below a stack overflow.
 */
const maxNesting = 500;
/**
 * Bounds of a document once parsed, checked before validation (issue 27): at most 2,000 fields
 * with fragments expanded (an 8 kB body holds about 700 aliased fields) and 10,000
 * pairs of same-path fields for OverlappingFieldsCanBeMerged to compare (a few ms; 60 types'
 * fragments each selecting the same four fields make 7,080).
 */
export const documentLimits = { maxFields: 2_000, maxOverlapPairs: 10_000 } as const;
/**
 * graphql-jit compiles every spread where it is spread, in time that grows with the expanded
 * document (about 0.2 ms a field): larger documents are always interpreted by graphql-js.
 */
const maxCompiledFields = 300;
const maxDocuments = 500;
const documents = new WeakMap<GraphQLSchema, Map<string, Checked>>();

/**
 * The query parsed, bounded and validated against the schema, or why not: its bracket nesting is
 * bounded before parsing, its token count while parsing, then its depth, expanded size and field
 * overlaps in one linear pass (`documentBounds`, QUERY_TOO_DEEP or QUERY_TOO_COMPLEX), and only
 * then is it validated. The last answers are kept per schema by query text: clients send the
 * same text with new variables, and validation is most of what a query costs before it reads
 * anything.
 */
export function checkedDocument(schema: GraphQLSchema, query: string, limits: { maxDepth: number }): Checked {
  let known = documents.get(schema);
  if (known === undefined) {
    known = new Map();
    documents.set(schema, known);
  }
  const key = `${limits.maxDepth}\u0000${query}`;
  const hit = known.get(key);
  if (hit !== undefined) return hit;
  const result = check(schema, query, limits.maxDepth);
  known.set(key, result);
  if (known.size > maxDocuments) known.delete(known.keys().next().value ?? key);
  return result;
}

function check(schema: GraphQLSchema, query: string, maxDepth: number): Checked {
  if (excessNesting(query, maxNesting) !== null) {
    const message = `The query nests brackets more than ${maxNesting} levels deep.`;
    return { code: 'QUERY_TOO_DEEP', errors: [new GraphQLError(message)] };
  }
  try {
    const document = parse(query, { maxTokens });
    const bounds = documentBounds(document, { ...documentLimits, maxDepth });
    if (!bounds.isWithin) return { code: bounds.code, errors: [new GraphQLError(bounds.message)] };
    const invalid = validate(schema, document);
    return invalid.length > 0
      ? { code: 'GRAPHQL_VALIDATION_FAILED', errors: invalid }
      : { prepared: { document, fields: bounds.fields, hits: 0, compiled: new Map() } };
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    return { code: 'GRAPHQL_PARSE_FAILED', errors: [error] };
  }
}

/**
 * Runs a prepared document: with graphql-js the first times, compiled by graphql-jit once the same
 * text has run `jitAfterHits` times (0: never), as Mercurius does — compiling costs more than one
 * interpreted run, so only repeated queries gain — and only documents small enough to compile fast.
 */
export async function runPrepared(input: {
  schema: GraphQLSchema;
  prepared: PreparedDocument;
  operationName: string | null;
  rootValue: unknown;
  contextValue: unknown;
  variables: Readonly<Record<string, unknown>>;
  jitAfterHits: number;
}): Promise<ExecutionResult> {
  const { prepared } = input;
  prepared.hits += 1;
  const isCompilable = prepared.fields <= maxCompiledFields;
  if (isCompilable && input.jitAfterHits > 0 && prepared.hits >= input.jitAfterHits) {
    const key = input.operationName ?? '';
    let compiled = prepared.compiled.get(key);
    if (compiled === undefined) {
      compiled = null;
      try {
        const outcome = compileQuery(input.schema, prepared.document, input.operationName ?? undefined);
        if (isCompiledQuery(outcome)) compiled = outcome;
      } catch {
        // What graphql-jit cannot compile, graphql-js runs.
      }
      prepared.compiled.set(key, compiled);
    }
    if (compiled !== null) return compiled.query(input.rootValue, input.contextValue, input.variables);
  }
  return execute({
    schema: input.schema,
    document: prepared.document,
    rootValue: input.rootValue,
    contextValue: input.contextValue,
    variableValues: input.variables,
    operationName: input.operationName,
  });
}

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

/** A query text parsed and validated against one schema, with what it has been compiled to. */
export interface PreparedDocument {
  readonly document: DocumentNode;
  /** Requests that ran it. */
  hits: number;
  /** graphql-jit's compiled query per operation name ('' for none); null when it could not compile. */
  readonly compiled: Map<string, CompiledQuery | null>;
}

type Checked =
  { readonly prepared: PreparedDocument } | { readonly code: string; readonly errors: readonly GraphQLError[] };

/** Tokens a query may hold: far above any 8 kB query, it bounds parsing work. */
const maxTokens = 4_000;
const maxDocuments = 500;
const documents = new WeakMap<GraphQLSchema, Map<string, Checked>>();

/**
 * The query parsed and validated against the schema, or why not. The last answers are kept per
 * schema by query text: clients send the same text with new variables, and validation is most of
 * what a query costs before it reads anything.
 */
export function checkedDocument(schema: GraphQLSchema, query: string): Checked {
  let known = documents.get(schema);
  if (known === undefined) {
    known = new Map();
    documents.set(schema, known);
  }
  const hit = known.get(query);
  if (hit !== undefined) return hit;
  let result: Checked;
  try {
    const document = parse(query, { maxTokens });
    const invalid = validate(schema, document);
    result =
      invalid.length > 0
        ? { code: 'GRAPHQL_VALIDATION_FAILED', errors: invalid }
        : { prepared: { document, hits: 0, compiled: new Map() } };
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    result = { code: 'GRAPHQL_PARSE_FAILED', errors: [error] };
  }
  known.set(query, result);
  if (known.size > maxDocuments) known.delete(known.keys().next().value ?? query);
  return result;
}

/**
 * Runs a prepared document: with graphql-js the first times, compiled by graphql-jit once the same
 * text has run `jitAfterHits` times (0: never), as Mercurius does — compiling costs more than one
 * interpreted run, so only repeated queries gain.
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
  if (input.jitAfterHits > 0 && prepared.hits >= input.jitAfterHits) {
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

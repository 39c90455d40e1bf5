import { GraphQLError, type ExecutionResult, type GraphQLFormattedError } from 'graphql';
import type { IndexedLanguage, TypeElements, TypeLinks } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import type { ResolvedGraphqlOptions } from '../graphql-options.ts';
import { queryCost, selectOperation } from '../limits/query-cost.ts';
import { whereLimits } from '../limits/where-bounds.ts';
import type { SchemaCache } from '../schema/schema-cache.ts';
import type { ReadScopeLike } from './read-scope.ts';
import { checkedDocument, runPrepared } from './prepared-documents.ts';
import { rootValue, type QueryContext } from './root-value.ts';

/** One GraphQL request as it arrived (GET parameters or POST body). */
export interface GraphqlRequest {
  readonly query: string;
  readonly variables: Readonly<Record<string, unknown>> | null;
  readonly operationName: string | null;
}

export interface GraphqlAnswer {
  readonly body: { data?: unknown; errors?: readonly GraphQLFormattedError[] };
  /** Items and components read (`X-Request-Charge`). */
  readonly charge: number;
  /** The query's complexity, when it got that far (`X-Complexity`). */
  readonly complexity: number | null;
}

/** What a query reads from the project's model at its watermark. */
export interface ModelSource {
  types(): Promise<Record<string, unknown>[]>;
  typeElements(): Promise<TypeElements>;
  /** Restricted elements' allowed types (the schema's unions). */
  typeLinks(): Promise<TypeLinks>;
  languages(): Promise<IndexedLanguage[]>;
}

/** The root resolvers of each schema, made once. */
const roots = new WeakMap<object, Record<string, unknown>>();

const failure = (code: string, errors: readonly { message: string; toJSON?: () => GraphQLFormattedError }[]) => ({
  body: {
    errors: errors.map((e) => {
      const json = e.toJSON?.() ?? { message: e.message };
      return { ...json, extensions: { ...json.extensions, code } };
    }),
  },
  charge: 0,
  complexity: null,
});

/** An error of the store or the index is the server's, not the query's: it becomes a 5xx. */
function serverFailure(result: ExecutionResult): unknown {
  for (const error of result.errors ?? []) {
    const cause = error.originalError;
    if (cause === undefined || cause instanceof GraphQLError) continue;
    if (cause instanceof LecternError && cause.kind !== 'internal' && cause.kind !== 'unavailable') continue;
    return cause;
  }
  return null;
}

function formatErrors(result: ExecutionResult): GraphQLFormattedError[] | undefined {
  return result.errors?.map((error) => {
    const json = error.toJSON();
    const cause = error.originalError;
    const code = cause instanceof LecternError ? cause.code : (json.extensions?.['code'] ?? 'BAD_USER_INPUT');
    return { ...json, extensions: { ...json.extensions, code } };
  });
}

/**
 * Parses, validates, measures and runs one request against a project's schema (SPEC 4.4, 7.4,
 * 8): query problems are GraphQL errors (HTTP 200) with `extensions.code`. The depth and size
 * bounds are checked right after parsing, before validation; the complexity limit before anything
 * is read from the index.
 */
export async function runQuery(input: {
  request: GraphqlRequest;
  scope: ReadScopeLike;
  model: ModelSource;
  schemas: SchemaCache;
  options: ResolvedGraphqlOptions;
}): Promise<GraphqlAnswer> {
  const { request, scope, options } = input;
  const [types, links] = await Promise.all([input.model.types(), input.model.typeLinks()]);
  const project = input.schemas.get(scope.projectId, types, links);
  if (!project.isValid) return failure('SCHEMA_INVALID', project.problems);
  const checked = checkedDocument(project.schema, request.query, { maxDepth: options.maxDepth });
  if ('code' in checked) return failure(checked.code, checked.errors);
  const { prepared } = checked;
  const { document } = prepared;
  const operation = selectOperation(document, request.operationName);
  if (operation === null) {
    const message =
      request.operationName === null
        ? 'The document holds several operations: name the one to run in operationName.'
        : `The document holds no operation named '${request.operationName}'.`;
    return failure('BAD_USER_INPUT', [{ message }]);
  }
  const cost = queryCost({
    schema: project.schema,
    document,
    operation,
    variables: request.variables ?? {},
    maxPageSize: options.maxPageSize,
  });
  const measured = (answer: Omit<GraphqlAnswer, 'complexity'>): GraphqlAnswer => ({
    ...answer,
    complexity: cost.complexity,
  });
  if (cost.complexity > options.maxComplexity) {
    return measured(
      failure('QUERY_TOO_COMPLEX', [
        {
          message: `The query can return up to ${cost.complexity} items and components, over the limit of ${options.maxComplexity}. Lower the limit arguments or select fewer linked items.`,
        },
      ]),
    );
  }
  if (cost.values > options.maxFieldValues) {
    return measured(
      failure('QUERY_TOO_COMPLEX', [
        {
          message: `The answer can hold up to ${cost.values} field values, over the limit of ${options.maxFieldValues}. Select fewer fields or lower the limit arguments.`,
        },
      ]),
    );
  }
  if (cost.whereConditions > whereLimits.maxConditions || cost.whereNesting > whereLimits.maxNesting) {
    return measured(
      failure('QUERY_TOO_COMPLEX', [
        {
          message:
            cost.whereNesting > whereLimits.maxNesting
              ? `The where arguments nest AND and OR more than ${whereLimits.maxNesting} levels deep.`
              : `The where arguments hold more than ${whereLimits.maxConditions} conditions (filters and AND / OR members).`,
        },
      ]),
    );
  }
  const languages = await input.model.languages();
  const context: QueryContext = {
    scope,
    types: project.byCodename,
    languageNames: new Map(languages.map((l) => [l.system.codename, l.system.name])),
    typeNames: project.typeNames,
    typeElements: await input.model.typeElements(),
    maxLimit: options.maxPageSize,
    isWhereCombined: options.isWhereCombined,
    variables: request.variables ?? {},
    charge: 0,
  };
  const result = await runPrepared({
    schema: project.schema,
    prepared,
    operationName: request.operationName,
    rootValue: roots.get(project) ?? roots.set(project, rootValue(project.types)).get(project),
    contextValue: context,
    variables: request.variables ?? {},
    jitAfterHits: options.jitAfterHits,
  });
  const fatal = serverFailure(result);
  if (fatal !== null) throw fatal;
  const errors = formatErrors(result);
  return measured({
    body: errors === undefined ? { data: result.data } : { errors, data: result.data ?? null },
    charge: context.charge,
  });
}

import type { FastifyRequest } from 'fastify';
import { LecternError } from '@lectern/errors';
import type { GraphqlRequest } from '../execute/run-query.ts';

const badRequest = (message: string) => new LecternError('INVALID_QUERY', { message });

function variablesOf(value: unknown): Readonly<Record<string, unknown>> | null {
  if (value === undefined || value === null || value === '') return null;
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw badRequest('variables is not valid JSON: send a JSON object, URL-encoded.');
    }
  }
  if (parsed === null) return null;
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest('variables must be a JSON object.');
  return parsed as Record<string, unknown>;
}

function textOf(value: unknown, name: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw badRequest(`${name} must be a string.`);
  return value;
}

function queryOf(value: unknown): string {
  const query = textOf(value, 'query');
  if (query === null || query.trim() === '') throw badRequest('The request holds no GraphQL query.');
  return query;
}

/**
 * The GraphQL request of `GET /{project}?query=…&variables=…&operationName=…` or of a POST body
 * (`application/json`: `{query, variables, operationName}`; `application/graphql`: the raw query),
 * SPEC 4.4. A request that holds no usable query is a 400 in the Delivery error shape.
 */
export function readGraphqlRequest(request: FastifyRequest, options: { maxUrlLength: number }): GraphqlRequest {
  if (request.method === 'GET') {
    if (request.url.length > options.maxUrlLength) {
      throw badRequest(
        `The URL is ${request.url.length} characters long, over the limit of ${options.maxUrlLength} (SPEC 8). Send the query by POST.`,
      );
    }
    const params = new URL(request.url, 'http://x').searchParams;
    if (params.getAll('query').length > 1) throw badRequest('Send one query parameter.');
    return {
      query: queryOf(params.get('query')),
      variables: variablesOf(params.get('variables')),
      operationName: textOf(params.get('operationName') || null, 'operationName'),
    };
  }
  const body = request.body;
  if (typeof body === 'string') return { query: queryOf(body), variables: null, operationName: null };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest(
      "The body must be a JSON object {query, variables, operationName} or, as 'application/graphql', the query.",
    );
  }
  const json = body as Record<string, unknown>;
  return {
    query: queryOf(json['query']),
    variables: variablesOf(json['variables']),
    operationName: textOf(json['operationName'] || null, 'operationName'),
  };
}

/** The normalised request: the response cache's key beside the watermark. */
export function requestKey(request: GraphqlRequest): string {
  return `graphql\u0000${request.query}\u0000${JSON.stringify(request.variables)}\u0000${request.operationName ?? ''}`;
}

import fc from 'fast-check';
import type { FuzzApi, FuzzRequest } from './client.ts';
import { encodedBody, headerValue, hostileJson, hostileString, queryString, segment } from './hostile.ts';
import { malformedHttp } from './management.ts';
import type { Known } from './target.ts';

/*
 * Malformed requests for every Delivery and Preview route (and the GraphQL and Recommendations
 * listeners, which serve health and answer 404/405 until they are built): hostile codenames,
 * query strings of every filter, operator and paging parameter, hostile headers (keys,
 * continuation tokens, wait-for-content), wrong methods and bodies, malformed HTTP.
 */

const filterNames = [
  'system.type',
  'system.codename',
  'system.id',
  'system.name',
  'system.language',
  'system.collection',
  'system.last_modified',
  'system.workflow_step',
  'elements.title',
  'elements.count',
  'elements.kind',
  'elements.topics',
  'elements.date',
  'elements.slug',
  'elements.nope',
];
const operators = [
  '',
  '[eq]',
  '[neq]',
  '[in]',
  '[nin]',
  '[contains]',
  '[any]',
  '[all]',
  '[lt]',
  '[lte]',
  '[gt]',
  '[gte]',
  '[range]',
  '[empty]',
  '[nempty]',
  '[EQ]',
  '[',
  '%5Beq%5D',
];
const paramNames = [
  ...filterNames.flatMap((f) => operators.map((o) => `${f}${o}`)),
  'language',
  'elements',
  'excludeElements',
  'order',
  'depth',
  'skip',
  'limit',
  'includeTotalCount',
  'system.type[in]',
];
const paramValues = [
  'article',
  'home,first_post',
  'news',
  'coffee',
  '3',
  '0',
  '1,5',
  '2024-01-01',
  'es-ES',
  'default',
  'title,count',
  'elements.title[asc]',
  'system.codename[desc]',
  'system.last_modified',
  'true',
  '-1',
  '99999999999',
  '',
];

function route(k: Known) {
  const item = segment(k.itemCodenames);
  return fc.oneof(
    fc.constant('/items'),
    item.map((c) => `/items/${c}`),
    fc.constant('/items-feed'),
    item.map((c) => `/items/${c}/used-in`),
    segment([...k.assetCodenames, ...k.assetIds]).map((a) => `/assets/${a}/used-in`),
    fc.constant('/types'),
    segment(k.typeCodenames).map((t) => `/types/${t}`),
    fc.tuple(segment(k.typeCodenames), segment(k.elementCodenames)).map(([t, e]) => `/types/${t}/elements/${e}`),
    fc.constant('/taxonomies'),
    segment(k.taxonomyCodenames).map((t) => `/taxonomies/${t}`),
    fc.constant('/languages'),
  );
}

function headersOf(channelKey: string | null): fc.Arbitrary<Record<string, string>> {
  const authorization = fc.oneof(
    { weight: 8, arbitrary: fc.constant(channelKey === null ? '' : `Bearer ${channelKey}`) },
    { weight: 1, arbitrary: fc.constantFrom('', 'Bearer', 'Bearer x', `Bearer ${channelKey ?? ''}x`, 'Basic abc') },
  );
  const extra = fc.dictionary(
    fc.constantFrom(
      'x-continuation',
      'x-kc-wait-for-loading-new-content',
      'if-none-match',
      'accept',
      'accept-encoding',
      'x-kc-sdkid',
      'content-type',
    ),
    fc.oneof(
      fc.constantFrom('true', 'false', '*', 'W/"x"', 'gzip', 'eyJ4IjoxfQ', 'garbage'),
      hostileString.map(headerValue),
    ),
    { maxKeys: 3 },
  );
  return fc.tuple(authorization, extra).map(([auth, rest]) => (auth === '' ? rest : { ...rest, authorization: auth }));
}

const methods = ['GET', 'GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'FUZZ'];

/** Requests for Delivery (published) or Preview, over every route. */
export function deliveryRequests(k: Known, api: 'delivery' | 'preview', key: string | null): fc.Arbitrary<FuzzRequest> {
  const project = fc.oneof(
    { weight: 12, arbitrary: fc.constant(k.projectId) },
    { weight: 1, arbitrary: segment([k.projectId.toUpperCase(), '11111111-1111-4111-8111-111111111111']) },
  );
  const content = fc
    .tuple(
      fc.constantFrom(...methods),
      project,
      route(k),
      queryString(paramNames, paramValues),
      headersOf(key),
      encodedBody(hostileJson),
    )
    .map(([method, p, path, qs, headers, encoded]): FuzzRequest => ({
      api,
      family: `${api} ${path.split('/')[1] ?? ''}`,
      method,
      path: `/${p}${path}${qs}`,
      headers: method === 'GET' || method === 'HEAD' ? headers : { ...headers, ...encoded.headers },
      ...(method === 'GET' || method === 'HEAD' || encoded.body === undefined ? {} : { body: encoded.body }),
      isWrite: false,
    }));
  const sync = fc
    .tuple(
      fc.constantFrom('POST', 'GET', 'PUT'),
      project,
      fc.constantFrom('/sync/init', '/sync', '/sync/x'),
      headersOf(key),
    )
    .map(([method, p, path, headers]): FuzzRequest => ({
      api,
      family: `${api} sync`,
      method,
      path: `/v2/${p}${path}`,
      headers,
      ...(method === 'GET' ? {} : { body: '{}' }),
      isWrite: false,
    }));
  return fc.oneof(
    { weight: 10, arbitrary: content },
    { weight: 1, arbitrary: sync },
    { weight: 1, arbitrary: other(api, k) },
  );
}

/** Paths no route serves, operational paths, oversized URLs and malformed HTTP, on any listener. */
function other(api: FuzzApi, k: Known): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(
      fc.oneof(
        segment(['healthz', 'readyz', 'metrics', k.projectId, 'graphql', 'api']).map((s) => `/${s}`),
        fc.tuple(segment([k.projectId]), segment(['graphql', 'items', 'x'])).map(([a, b]) => `/${a}/${b}`),
        fc.constantFrom(
          '/api/v2/recommend/items',
          '/api/v2/search/items',
          '/api/v2/track/visitor',
          `/${k.projectId}/graphql`,
          '/',
          '//',
          '//items',
          '//types',
          `//${k.projectId}/items`,
        ),
        fc.integer({ min: 16_000, max: 30_000 }).map((n) => `/${k.projectId}/items?x=${'a'.repeat(n)}`),
      ),
      fc.constantFrom(...methods),
      encodedBody(hostileJson),
      fc.nat(14),
    )
    .map(([path, method, encoded, rawChoice]): FuzzRequest => {
      const base = { api, family: `${api} other`, method, path, isWrite: false };
      if (rawChoice < 3) return { ...base, headers: {}, raw: malformedHttp(path, rawChoice * 3 + (path.length % 3)) };
      const hasBody = method !== 'GET' && method !== 'HEAD';
      return {
        ...base,
        headers: hasBody ? encoded.headers : {},
        ...(hasBody && encoded.body !== undefined ? { body: encoded.body } : {}),
      };
    });
}

/** Requests for the GraphQL or Recommendations listener (health only until they are built). */
export function otherListenerRequests(k: Known, api: 'graphql' | 'recommendations'): fc.Arbitrary<FuzzRequest> {
  return other(api, k).map((r) => ({ ...r, family: api }));
}

/** The Delivery-side families: one per API. */
export const deliveryFamilies = ['delivery', 'preview', 'graphql', 'recommendations'] as const;

import fc from 'fast-check';
import type { FuzzApi, FuzzRequest } from './client.ts';
import {
  backtrackingText,
  catastrophicPatterns,
  costlyDeliveryQuery,
  costlyGraphql,
  costlyJsonText,
  costlyRichText,
  imageQuery,
  type CostOptions,
} from './costly.ts';
import type { Known } from './target.ts';

/*
 * Requests that carry costly input (costly.ts) to the handler that parses or compiles it, one
 * generator per family; run.ts mixes them into the families' own generators.
 */

const json = { 'content-type': 'application/json' };

/** Costly requests for a Management family, or null when it has none of its own. */
export function costlyManagementRequests(
  k: Known,
  key: string,
  family: string,
  options: CostOptions,
): fc.Arbitrary<FuzzRequest> | null {
  const base = `/v2/projects/${k.projectId}`;
  const headers = { ...json, authorization: `Bearer ${key}` };
  const write = (method: string, path: string, body: string): FuzzRequest => ({
    api: 'management',
    family,
    method,
    path: `${base}${path}`,
    headers,
    body,
    isWrite: true,
  });
  const variant = (codename: string) => `/items/codename/${codename}/variants/codename/default`;
  switch (family) {
    case 'variants': {
      const richText = fc
        .tuple(fc.constantFrom(...k.itemCodenames), costlyRichText(options))
        .map(([item, { value, components }]) =>
          write(
            'PUT',
            variant(item),
            JSON.stringify({ elements: [{ element: { codename: 'body' }, value, components }] }),
          ),
        );
      const regex =
        k.regexItemCodename === null
          ? null
          : backtrackingText(options).map((value) =>
              write(
                'PUT',
                variant(k.regexItemCodename ?? ''),
                JSON.stringify({ elements: [{ element: { codename: 'code' }, value }] }),
              ),
            );
      const deep = fc
        .tuple(fc.constantFrom(...k.itemCodenames), costlyJsonText(options))
        .map(([item, text]) => write('PUT', variant(item), text));
      return regex === null ? fc.oneof(richText, deep) : fc.oneof(richText, regex, deep);
    }
    case 'items':
      return costlyJsonText(options).map((text) => write('POST', '/items', text));
    case 'types':
      return fc
        .tuple(fc.constantFrom(...catastrophicPatterns), fc.nat(), fc.constantFrom('text', 'url_slug'))
        .map(([regex, n, type]) =>
          write(
            'POST',
            '/types',
            JSON.stringify({
              name: `Regex ${n}`,
              codename: `regex_${n}`,
              elements: [
                { name: 'Title', codename: 'title', type: 'text' },
                {
                  name: 'Code',
                  codename: 'code',
                  type,
                  ...(type === 'url_slug' ? { depends_on: { element: { codename: 'title' } } } : {}),
                  validation_regex: { regex, flags: null, validation_message: 'x', is_active: true },
                },
              ],
            }),
          ),
        );
    case 'binaries':
      return fc.tuple(imageQuery(), fc.constantFrom('GET', 'GET', 'HEAD')).map(([query, method]): FuzzRequest => ({
        api: 'assets',
        family,
        method,
        path: `${k.image.path}${query}`,
        headers: {},
        isWrite: false,
      }));
    default:
      return null;
  }
}

/** Costly Delivery or Preview filters on the listing routes. */
export function costlyDeliveryRequests(
  k: Known,
  api: 'delivery' | 'preview',
  key: string,
  options: CostOptions,
): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(fc.constantFrom('/items', '/items-feed', '/types', '/taxonomies'), costlyDeliveryQuery(options))
    .map(([path, query]): FuzzRequest => ({
      api,
      family: api,
      method: 'GET',
      path: `/${k.projectId}${path}${query}`,
      headers: { authorization: `Bearer ${key}` },
      isWrite: false,
    }));
}

/** Costly GraphQL documents, by POST as JSON (the 8 kB body) and by GET. */
export function costlyGraphqlRequests(k: Known, options: CostOptions): fc.Arbitrary<FuzzRequest> {
  const root = k.typeCodenames[0] ?? 'article';
  const api: FuzzApi = 'graphql';
  return fc
    .tuple(costlyGraphql(options, root), fc.constantFrom('POST', 'POST', 'GET'))
    .map(([query, method]): FuzzRequest =>
      method === 'GET'
        ? {
            api,
            family: api,
            method,
            path: `/${k.projectId}?query=${encodeURIComponent(query)}`,
            headers: {},
            isWrite: false,
          }
        : {
            api,
            family: api,
            method,
            path: `/${k.projectId}`,
            headers: json,
            body: JSON.stringify({ query }),
            isWrite: false,
          },
    );
}

import fc from 'fast-check';
import type { FuzzRequest } from './client.ts';
import { costlyJsonText, costlyReql, type CostOptions } from './costly.ts';
import { otherListenerRequests } from './delivery.ts';
import { bodyFrom, encodedBody, hostileString } from './hostile.ts';
import type { Known } from './target.ts';

/*
 * Requests for the Smart Recommendations API on its real engine (SPEC 4.5): recommend/items,
 * search/items (and the .NET client's `seach`) and track/* bodies, valid ones (so the family
 * reaches its handlers: the suite asserts some are answered 2xx) and ones mutated by
 * `bodyFrom`, with filters and boosters in ReQL drawn from valid, hostile and costly ones.
 */

const scenarios = ['default', 'similar', 'popular'];

/** A filter: valid, costly or hostile; a booster: mostly valid, so it rarely hides the filter's answer. */
function reql(k: Known, options: CostOptions, role: 'filter' | 'booster'): fc.Arbitrary<string> {
  const valid = fc.constantFrom(
    `'codename' == "home"`,
    `'type' == "article" and 'lastupdated' > now() - 86400000`,
    `"persona=developer" in 'properties'`,
    `if 'name' != "" then 2 else 1`,
    `'codename' in {${k.itemCodenames.map((c) => `"${c}"`).join(', ')}}`,
    `not ('lastupdated' < 0)`,
    `('lastupdated' + 1) * 2 % 3 >= 0`,
  );
  const hostile = fc.constantFrom(
    `'constructor' == 'constructor'`,
    `'__proto__' == 1`,
    `'toString' in {1}`,
    `"a" in (if true then {"a"} else {"b"})`,
    `"a" in (if 'lastupdated' > 1 then {1} else "x")`,
    `constructor() == 1`,
    `'hasOwnProperty'`,
    `now(1, 2, 3) > 0`,
  );
  if (role === 'booster')
    return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: costlyReql(options) });
  return fc.oneof(
    { weight: 2, arbitrary: valid },
    { weight: 3, arbitrary: costlyReql(options) },
    { weight: 4, arbitrary: hostile },
    { weight: 1, arbitrary: hostileString },
  );
}

/**
 * Valid bodies of each route, but for the ReQL in them (and a long search query): invalid
 * fields come from `bodyFrom`'s mutations, so most of these reach the query compiler.
 */
function bodies(k: Known, options: CostOptions) {
  const visitId = fc.constantFrom('visitor-1', 'v2');
  const codename = fc.constantFrom(...k.itemCodenames);
  const settings = fc.record(
    {
      scenario: fc.constantFrom(...scenarios),
      filter: reql(k, options, 'filter'),
      booster: reql(k, options, 'booster'),
    },
    { requiredKeys: ['scenario', 'filter'] },
  );
  const recommend = fc.record(
    {
      visitId,
      currentItemCodename: codename,
      responseLimit: fc.integer({ min: 1, max: 10 }),
      requestedTypeCodename: fc.constantFrom('article', 'article', 'nope'),
      recommendationSettings: settings,
      visitor: fc.record({
        referer: fc.constantFrom('https://example.com/', ''),
        location: fc.constant({ country: 'CZ' }),
      }),
    },
    {
      requiredKeys: [
        'visitId',
        'currentItemCodename',
        'responseLimit',
        'requestedTypeCodename',
        'recommendationSettings',
      ],
    },
  );
  const search = fc.record(
    {
      visitId,
      query: fc.oneof(
        fc.constantFrom('first post', 'home body', 'coffee'),
        hostileString,
        fc.integer({ min: 100, max: 10_000 }).map((n) => 'word '.repeat(n)),
      ),
      resultCount: fc.integer({ min: 1, max: 10 }),
      requestedTypeCodename: fc.constantFrom('article', 'nope'),
    },
    { requiredKeys: ['visitId', 'query', 'resultCount'] },
  );
  const track = fc.record(
    { visitId, currentItemCodename: codename, portionPercentage: fc.integer({ min: 0, max: 100 }) },
    { requiredKeys: ['visitId', 'currentItemCodename'] },
  );
  const visitor = fc.record({
    visitId,
    visitor: fc.record({
      ip: fc.constantFrom('1.2.3.4', '::1'),
      referer: fc.constant('https://example.com/'),
      custom: fc.constant({ plan: 'free' }),
    }),
  });
  return { recommend, search, track, visitor };
}

/** Requests for the Recommendations listener: its routes with valid and hostile bodies, and the rest. */
export function recommendationsRequests(k: Known, key: string, options: CostOptions): fc.Arbitrary<FuzzRequest> {
  const b = bodies(k, options);
  const routes: [string, fc.Arbitrary<unknown>, boolean][] = [
    ['/api/v2/recommend/items', b.recommend, true],
    ['/api/v2/search/items', b.search, false],
    ['/api/v2/seach/items', b.search, false],
    ['/api/v2/track/visit', b.track, true],
    ['/api/v2/track/conversion', b.track, true],
    ['/api/v2/track/portion', b.track, true],
    ['/api/v2/track/visitor', b.visitor, true],
  ];
  const authorization = fc.oneof(
    { weight: 10, arbitrary: fc.constant(`Bearer ${key}`) },
    { weight: 1, arbitrary: fc.constantFrom('', 'Bearer x', `Bearer ${key}x`, key) },
  );
  // recommend/items compiles two queries per request: drawn three times as often as each other route.
  const route = fc.constantFrom(routes[0]!, routes[0]!, ...routes).chain(([path, body, isWrite]) =>
    fc
      .tuple(
        authorization,
        fc.oneof(
          {
            weight: 4,
            arbitrary: body.map((v) => ({ body: JSON.stringify(v), headers: { 'content-type': 'application/json' } })),
          },
          { weight: 2, arbitrary: encodedBody(bodyFrom(body)) },
          {
            weight: 1,
            arbitrary: costlyJsonText(options).map((text) => ({
              body: text,
              headers: { 'content-type': 'application/json' },
            })),
          },
        ),
      )
      .map(([auth, encoded]): FuzzRequest => ({
        api: 'recommendations',
        family: 'recommendations',
        method: 'POST',
        path,
        headers: { ...encoded.headers, ...(auth === '' ? {} : { authorization: auth }) },
        ...(encoded.body === undefined ? {} : { body: encoded.body }),
        isWrite,
      })),
  );
  return fc.oneof(
    { weight: 8, arbitrary: route },
    { weight: 1, arbitrary: otherListenerRequests(k, 'recommendations') },
  );
}

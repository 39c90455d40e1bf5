import { sql } from 'kysely';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRecsTestApp, type RecsTestApp } from './testing/recs-test-app.ts';

/**
 * Generated requests to every Recommendations route — hostile values in every field, filters and
 * boosters assembled from the language's tokens, wrong keys — never get a 5xx, every error comes
 * in the SPEC 7.5 body with a non-zero error_code, and a refused request stores nothing.
 */
let recs: RecsTestApp;
let core: RecsTestApp['core'];
let app: RecsTestApp['app'];
let key: string;
let deliveryKey: string;

beforeAll(async () => {
  recs = await startRecsTestApp({ perTopic: 3 });
  ({ core, app } = recs);
  ({ recommendations: key, delivery: deliveryKey } = recs.keys);
});
afterAll(async () => {
  await recs?.close();
});

const tokens = [
  `'properties'`, `'lastupdated'`, `'type'`, `'name'`, `'codename'`, `'nope'`, `"persona=developer"`, `"article"`,
  `"`, `'`, 'now()', 'now(1)', 'today()', 'in', 'not', 'NOT', 'and', 'Or', 'if', 'then', 'else', '(', ')', '{', '}',
  ',', '==', '=', '!=', '<>', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', '0', '1', '1e308', '1e999', '-1', '2.5',
  'true', 'false', '\u0000', '\ud800', '😀', '\\', '#',
];
const query = fc.array(fc.constantFrom(...tokens), { maxLength: 12 }).map((t) => t.join(' '));
const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', 'a b', '\u0000', '\ud800', 'space_00000', 'article'),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0, 1, 2_147_483_647, 2_147_483_648, 1.5, -0, 1e308, Number.MAX_SAFE_INTEGER),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
);
const field = <T>(value: fc.Arbitrary<T>) => fc.option(fc.oneof(value, hostile), { nil: undefined });
const settings = fc.record(
  {
    scenario: field(fc.constantFrom('similar', 'popular', 'default', 'SIMILAR', 'nope')),
    filter: field(query),
    booster: field(query),
  },
  { requiredKeys: [] },
);
const visitor = fc.record(
  {
    ip: field(fc.constantFrom('203.0.113.5', '::1', 'x')),
    referer: field(fc.webUrl()),
    location: field(fc.record({ city: field(fc.string()), country: field(fc.string()) }, { requiredKeys: [] })),
    custom: field(fc.dictionary(fc.string({ maxLength: 5 }), hostile, { maxKeys: 3 })),
  },
  { requiredKeys: [] },
);
const body = fc.record(
  {
    visitId: field(fc.constantFrom('v1', 'visitor-2')),
    VisitId: field(fc.constant('v3')),
    currentItemCodename: field(fc.constantFrom('space_00000', 'music_00001', 'missing')),
    responseLimit: field(fc.integer({ min: 1, max: 20 })),
    requestedTypeCodename: field(fc.constantFrom('article', 'note')),
    recommendationSettings: field(settings),
    visitor: field(visitor),
    query: field(fc.constantFrom('rocket orbit', 'guitar', '')),
    resultCount: field(fc.integer({ min: 1, max: 20 })),
    portionPercentage: field(fc.integer({ min: 0, max: 100 })),
  },
  { requiredKeys: [] },
);
const request = fc.record({
  path: fc.constantFrom('recommend/items', 'search/items', 'seach/items', 'track/visit', 'track/conversion', 'track/portion', 'track/visitor'),
  auth: fc.constantFrom('key', 'key', 'key', 'none', 'delivery', 'garbage', 'lowercase'),
  payload: fc.oneof({ weight: 8, arbitrary: body }, { weight: 1, arbitrary: hostile }),
  isRaw: fc.boolean(),
});

const stored = async () =>
  (
    await sql<{ n: number }>`select (select count(*) from recs_visits)::int + (select count(*) from recs_visitors)::int as n`.execute(
      core.store.db,
    )
  ).rows[0]!.n;

it('answers generated requests without a 5xx, errors in the SPEC 7.5 body, refusals storing nothing', async () => {
  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      const authorization = {
        key: `Bearer ${key}`,
        lowercase: `bearer ${key}`,
        delivery: `Bearer ${deliveryKey}`,
        garbage: 'Bearer lct_rec_zz',
        none: undefined,
      }[r.auth];
      const before = await stored();
      const response = await app.inject({
        method: 'POST',
        url: `/api/v2/${r.path}`,
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        payload: r.isRaw && typeof r.payload === 'string' ? r.payload : JSON.stringify(r.payload),
      });
      expect(response.statusCode).toBeLessThan(500);
      if (response.statusCode >= 400) {
        const error = response.json<Record<string, unknown>>();
        expect(typeof error['errors']).toBe('object');
        expect(error['status']).toBe(response.statusCode);
        expect(error['error_code']).toBeGreaterThan(0);
        expect(typeof error['traceId']).toBe('string');
        expect(await stored()).toBe(before);
      }
    }),
    { numRuns: 400, seed: 16 },
  );
});

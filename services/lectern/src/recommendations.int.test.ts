import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecommendationClient } from '@kentico/kontent-recommendations';
import { createHashedEmbedder, operator, revokeApiKey, unpublishVariant } from '@lectern/core';
import { createLogger, createProcessMetrics, createReadiness, listen, type Listening } from '@lectern/http-kit';
import { createSqlIndex } from '@lectern/index-sql';
import { buildManagementApp, createManagementServer } from '@lectern/management';
import { buildRecommendationsApp } from '@lectern/recommendations';
import { createSqlRecs, generateCorpus, writeArticle, writeCorpus, type SqlRecs } from '@lectern/recs-sql';
import { openTestCore, seedProject, type TestCore } from '@lectern/testing';
import { startEventPipeline, type EventPipeline } from './event-pipeline.ts';

/**
 * The Smart Recommendations API in the embedded shape (relay → in-process bus → recommendation
 * consumer; the API on its own listener), driven by the official client
 * `@kentico/kontent-recommendations`.
 */
let core: TestCore;
let recs: SqlRecs;
let events: EventPipeline;
let listening: Listening;
let projectId: string;
let keys: Awaited<ReturnType<typeof seedProject>>['keys'];
let otherKey: string;
const corpus = generateCorpus({ perTopic: 5 });

const clientWith = (apiKey: string) =>
  new RecommendationClient({
    projectId: 'unused',
    apiKey,
    baseUrl: `${listening.url}/api/v2/`,
    retryStrategy: { maxAttempts: 0, deltaBackoffMs: 0, maxCumulativeWaitTimeMs: 0, addJitter: false, canRetryError: () => false },
  });
const client = () => clientWith(keys.recommendations!.value);
const recommend = async (data: Record<string, unknown>, apiKey = keys.recommendations!.value) =>
  (
    await clientWith(apiKey)
      .recommendItems()
      .withData({ visitId: 'visitor-1', responseLimit: 5, requestedTypeCodename: 'article', ...data } as never)
      .toPromise()
  ).data.map((i) => i.codename);
const failure = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    return error as { status: number; errors: Record<string, string[]>; traceId: string; title?: string };
  }
  throw new Error('the request succeeded');
};
const raw = (path: string, body: unknown, authorization?: string) =>
  fetch(`${listening.url}/api/v2/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify(body),
  });
const caughtUp = async () => {
  const latest = await core.store.transaction((tx) => tx.outbox.latestSeq(projectId));
  for (let i = 0; i < 600 && (await recs.writer.watermark(projectId)) < latest; i++)
    await new Promise((r) => setTimeout(r, 50));
};

beforeAll(async () => {
  core = await openTestCore();
  ({ projectId, keys } = await seedProject(core, ['recommendations', 'delivery_primary']));
  otherKey = (await seedProject(core, ['recommendations'])).keys.recommendations!.value;
  recs = await createSqlRecs({ db: core.store.db });
  const embedder = createHashedEmbedder();
  events = await startEventPipeline({
    core,
    index: createSqlIndex({ db: core.store.db }),
    assetsBase: 'http://127.0.0.1/assets',
    recs: { writer: recs.writer, embedder },
    onError: (error, what) => console.error(what, error),
  });
  const app = buildRecommendationsApp({
    metrics: createProcessMetrics(),
    readiness: createReadiness([]),
    logger: createLogger({ level: 'silent' }),
    engine: { core, reader: recs.reader, tracking: recs.tracking, embedder, signals: core.store.signals },
  });
  listening = await listen(app, { host: '127.0.0.1', port: 0 });
  await writeCorpus(core, { projectId, items: corpus });
  await caughtUp();
});
afterAll(async () => {
  await listening?.close();
  await events?.stop();
  await core?.store.close();
});

describe('recommend/items through the official client', () => {
  it('recommends similar articles of the topic, at most responseLimit, never the current one', async () => {
    const got = await recommend({ currentItemCodename: 'space_00000', recommendationSettings: { scenario: 'similar' } });
    expect(got).toHaveLength(5);
    expect(got).not.toContain('space_00000');
    expect(got.filter((c) => c.startsWith('space_')).length).toBeGreaterThanOrEqual(3);
    expect(await recommend({ currentItemCodename: 'space_00000', responseLimit: 2 })).toHaveLength(2);
    expect(await recommend({ currentItemCodename: 'space_00000', requestedTypeCodename: 'note' })).toEqual([]);
  });

  it('applies a filter and a booster in the query language', async () => {
    const got = await recommend({
      currentItemCodename: 'music_00000',
      responseLimit: 30,
      recommendationSettings: {
        scenario: 'default',
        filter: `"persona=developer" in 'properties' and 'lastupdated' > now() - 86400000`,
        booster: `if 'name' != "" then 2 else 1`,
      },
    });
    const developers = corpus.filter((c) => c.persona === 'developer' && c.codename !== 'music_00000');
    expect(got.sort()).toEqual(developers.map((c) => c.codename).sort());
  });

  it('drops an unpublished item and recommends a fresh publish within a second', async () => {
    await unpublishVariant(core, {
      actor: operator,
      projectId,
      itemKey: { codename: 'space_00001' },
      languageKey: { codename: 'default' },
    });
    const fresh = { ...generateCorpus({ perTopic: 1, seed: 7 })[0]!, codename: 'space_fresh' };
    const only = { filter: `'codename' == "space_fresh"`, scenario: 'similar' };
    expect(await recommend({ currentItemCodename: 'space_00000', recommendationSettings: only })).toEqual([]);
    await writeArticle(core, { projectId, item: fresh, isPublished: true });
    const deadline = Date.now() + 1_000;
    let found: string[] = [];
    while (Date.now() < deadline && found.length === 0) {
      found = await recommend({ currentItemCodename: 'space_00000', recommendationSettings: only });
      if (found.length === 0) await new Promise((r) => setTimeout(r, 25));
    }
    expect(found).toEqual(['space_fresh']);
    const got = await recommend({ currentItemCodename: 'space_00000', responseLimit: 100 });
    expect(got).toContain('space_fresh');
    expect(got).not.toContain('space_00001');
  });

  it('answers search/items by the words of the query', async () => {
    const response = await raw(
      'search/items',
      { visitId: 'v', query: 'guitar chord melody', resultCount: 3, requestedTypeCodename: 'article' },
      `Bearer ${keys.recommendations!.value}`,
    );
    expect(response.status).toBe(200);
    const got = (await response.json()) as { codename: string }[];
    expect(got).toHaveLength(3);
    expect(got.every((i) => i.codename.startsWith('music_'))).toBe(true);
  });
});

describe('tracking', () => {
  const visits = async () =>
    Number(
      (await sql<{ n: number }>`select count(*)::int as n from recs_visits where project_id = ${projectId}`.execute(
        core.store.db,
      )).rows[0]!.n,
    );

  it('tracks visits, conversions, portions and visitors; popular follows the visits', async () => {
    for (let i = 0; i < 4; i++)
      await client().trackVisit().withData({ visitId: `p${i}`, currentItemCodename: 'finance_00003' }).toPromise();
    await client().trackConversion().withData({ visitId: 'p0', currentItemCodename: 'finance_00003' }).toPromise();
    await client()
      .trackPortion()
      .withData({ visitId: 'p0', currentItemCodename: 'finance_00003', portionPercentage: 40 } as never)
      .toPromise();
    const got = await recommend({ currentItemCodename: 'space_00000', recommendationSettings: { scenario: 'popular' } });
    expect(got[0]).toBe('finance_00003');
  });

  it('never stores the visitor IP', async () => {
    await client()
      .trackVisitor()
      .withData({
        visitId: 'ip-visitor',
        visitor: { ip: '203.0.113.77', referer: 'https://example.com/', location: { city: 'Brno', country: 'CZ' } },
      } as never)
      .toPromise();
    await recommend({ currentItemCodename: 'space_00000', visitor: { ip: '198.51.100.9', custom: { plan: 'pro' } } });
    const dump = await sql<{ t: string }>`
      select (select coalesce(string_agg(v::text, ' '), '') from recs_visitors v)
          || (select coalesce(string_agg(v::text, ' '), '') from recs_visits v) as t`.execute(core.store.db);
    const text = dump.rows[0]!.t;
    expect(text).toContain('Brno');
    expect(text).toContain('pro');
    expect(text).not.toContain('203.0.113.77');
    expect(text).not.toContain('198.51.100.9');
  });

  it('locates a visitor by IP with the offline database unless the client gave the country, keeping no IP', async () => {
    const locationOf = async (visitId: string) =>
      (
        await sql<{ location: Record<string, string> | null }>`
          select location from recs_visitors where project_id = ${projectId} and visit_id = ${visitId}`.execute(
          core.store.db,
        )
      ).rows[0]?.location ?? null;
    await client()
      .trackVisitor()
      .withData({ visitId: 'geo-1', visitor: { ip: '8.8.8.8', location: { city: 'Mountain View' } } } as never)
      .toPromise();
    expect(await locationOf('geo-1')).toEqual({ city: 'Mountain View', country: 'US' });
    await recommend({ currentItemCodename: 'space_00000', visitId: 'geo-2', visitor: { ip: '2a00:1450:4001::1' } });
    expect(await locationOf('geo-2')).toEqual({ country: 'IE' });
    await client()
      .trackVisitor()
      .withData({ visitId: 'geo-3', visitor: { ip: '8.8.8.8', location: { country: 'DE' } } } as never)
      .toPromise();
    expect(await locationOf('geo-3')).toEqual({ country: 'DE' });
    const dump = await sql<{ t: string }>`select coalesce(string_agg(v::text, ' '), '') as t from recs_visitors v`.execute(
      core.store.db,
    );
    expect(dump.rows[0]!.t).not.toContain('8.8.8.8');
    expect(dump.rows[0]!.t).not.toContain('2a00:1450');
  });

  it('records a visit with each recommendation unless the project tracks manually', async () => {
    const before = await visits();
    await recommend({ currentItemCodename: 'space_00000' });
    expect(await visits()).toBe(before + 1);
    await recs.tracking.setManualTracking(projectId, true);
    await recommend({ currentItemCodename: 'space_00000' });
    expect(await visits()).toBe(before + 1);
    await client().trackVisit().withData({ visitId: 'm', currentItemCodename: 'space_00000' }).toPromise();
    expect(await visits()).toBe(before + 2);
    await recs.tracking.setManualTracking(projectId, false);
  });
});

describe('authentication and errors (SPEC 5, 7.5)', () => {
  const body = { visitId: 'v', currentItemCodename: 'space_00000', responseLimit: 1, requestedTypeCodename: 'article' };

  it('answers a missing, unknown, other-kind and revoked key with 401 in the SPEC 7.5 body', async () => {
    const missing = await raw('recommend/items', body);
    expect(missing.status).toBe(401);
    const missingBody = (await missing.json()) as Record<string, unknown>;
    expect(Object.keys(missingBody).sort()).toEqual(
      ['detail', 'error_code', 'errors', 'instance', 'status', 'title', 'traceId', 'type'].sort(),
    );
    expect(missingBody['status']).toBe(401);
    expect(missingBody['traceId']).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    const unknown = `lct_rec_${'0'.repeat(32)}_${'1'.repeat(64)}`;
    expect((await failure(() => recommend({ currentItemCodename: 'x' }, unknown))).status).toBe(401);
    expect((await failure(() => recommend({ currentItemCodename: 'x' }, 'not-a-key'))).status).toBe(401);
    expect((await failure(() => recommend({ currentItemCodename: 'x' }, keys.delivery_primary!.value))).status).toBe(
      401,
    );
    const project = await seedProject(core, ['recommendations']);
    const doomed = project.keys.recommendations!;
    expect(await recommend({ currentItemCodename: 'x' }, doomed.value)).toEqual([]);
    await revokeApiKey(core, { actor: operator, keyId: doomed.id });
    await new Promise((r) => setTimeout(r, 50));
    const revoked = await failure(() => recommend({ currentItemCodename: 'x' }, doomed.value));
    expect(revoked.status).toBe(401);
    expect(revoked.traceId).toBeTruthy();
  });

  it("sees only its own project's items with another project's key", async () => {
    expect(await recommend({ currentItemCodename: 'space_00000' }, otherKey)).toEqual([]);
  });

  it('names each invalid property of the body, as the recorded error does', async () => {
    const e = await failure(() =>
      recommend({ visitId: 'has space', currentItemCodename: 'space_00000', responseLimit: 0 }),
    );
    expect(e.status).toBe(400);
    expect(e.errors['visitId']).toEqual(['No white space allowed']);
    expect(e.errors['responseLimit']).toHaveLength(1);
    const missing = await raw('recommend/items', { visitId: 'v' }, `Bearer ${keys.recommendations!.value}`);
    expect(missing.status).toBe(400);
    const missingBody = (await missing.json()) as { errors: Record<string, string[]>; title: string; type: string };
    expect(Object.keys(missingBody.errors).sort()).toEqual(
      ['currentItemCodename', 'requestedTypeCodename', 'responseLimit'].sort(),
    );
    expect(missingBody.title).toBe('One or more validation errors occurred.');
    expect(missingBody.type).toBe('https://tools.ietf.org/html/rfc7231#section-6.5.1');
  });

  it('points at the column of a filter or booster that does not parse, and stores nothing', async () => {
    const e = await failure(() =>
      recommend({
        currentItemCodename: 'space_00000',
        recommendationSettings: { filter: `'type' == "article" and and`, booster: `if 'name' then 1 else 2` },
      }),
    );
    expect(e.status).toBe(400);
    expect(e.errors['recommendationSettings.filter']?.[0]).toMatch(/column 25/);
    expect(e.errors['recommendationSettings.booster']?.[0]).toMatch(/column 4/);
    const portion = await raw(
      'track/portion',
      { visitId: 'v', currentItemCodename: 'a', portionPercentage: 140 },
      `Bearer ${keys.recommendations!.value}`,
    );
    expect(portion.status).toBe(400);
  });
});

describe('manual visit tracking per project through the admin API (SPEC 4.5 rules 8–9)', () => {
  const operatorToken = 'recs-operator-token-0123456789abcdef';
  let admin: Listening;
  const settings = (id: string, body?: unknown) =>
    fetch(`${admin.url}/admin/projects/${id}/recommendations`, {
      method: body === undefined ? 'GET' : 'PUT',
      headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const visitCount = async () =>
    Number(
      (
        await sql<{ n: number }>`select count(*)::int as n from recs_visits where project_id = ${projectId}`.execute(
          core.store.db,
        )
      ).rows[0]!.n,
    );

  beforeAll(async () => {
    const app = buildManagementApp({
      core,
      metrics: createProcessMetrics(),
      readiness: createReadiness([]),
      logger: createLogger({ level: 'silent' }),
      operatorToken,
      recsTracking: recs.tracking,
    });
    admin = await listen(createManagementServer(app), { host: '127.0.0.1', port: 0 });
  });
  afterAll(() => admin?.close());

  it('switches recommend/items between recording a visit and not', async () => {
    expect(await (await settings(projectId)).json()).toEqual({ manual_tracking: false });
    const put = await settings(projectId, { manual_tracking: true });
    expect(put.status).toBe(200);
    expect(await (await settings(projectId)).json()).toEqual({ manual_tracking: true });
    // One tracking object serves both apps here; across processes the setting shows within a second.
    const before = await visitCount();
    await recommend({ currentItemCodename: 'space_00000' });
    expect(await visitCount()).toBe(before);
    await client().trackVisit().withData({ visitId: 'manual', currentItemCodename: 'space_00000' }).toPromise();
    expect(await visitCount()).toBe(before + 1);
    await settings(projectId, { manual_tracking: false });
    await recommend({ currentItemCodename: 'space_00000' });
    expect(await visitCount()).toBe(before + 2);
  });

  it('answers a bad body with 400 and an unknown project with 404, changing nothing', async () => {
    const bad = await settings(projectId, { manual_tracking: 'yes' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error_code: number }).error_code).toBeGreaterThan(0);
    const unknown = await settings('00000000-0000-4000-8000-000000000000', { manual_tracking: true });
    expect(unknown.status).toBe(404);
    expect(await (await settings(projectId)).json()).toEqual({ manual_tracking: false });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueJobs, systemStepIds } from '@lectern/core';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';

type Json = Record<string, unknown>;
let server: TestManagement;

async function call(path: string, method: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await server.fetch(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Json) };
}

async function newVariant(codename: string): Promise<string> {
  await call('/items', 'POST', { name: codename, codename, type: { codename: 'note' } });
  const path = `/items/codename/${codename}/variants/codename/default`;
  await call(path, 'PUT', { elements: [{ element: { codename: 'text' }, value: 'hello' }] });
  return path;
}

async function events(codename: string) {
  const all = await server.core.store.transaction((tx) =>
    tx.outbox.readAfter({ projectId: server.projectId, afterSeq: 0, limit: 10_000 }),
  );
  return all.filter(
    (e) =>
      e.channel === 'delivery_production' &&
      e.payload['item_codename'] === codename &&
      (e.operation === 'publish' || e.operation === 'unpublish'),
  );
}

const iso = (ms: number) => new Date(server.core.clock.now().getTime() + ms).toISOString();
const stepOf = async (path: string) =>
  ((await call(path, 'GET')).json['workflow'] as { step_identifier: { id: string } }).step_identifier.id;

beforeAll(async () => {
  server = await startTestManagement();
  await call('/types', 'POST', {
    name: 'Note',
    codename: 'note',
    elements: [{ name: 'Text', codename: 'text', type: 'text' }],
  });
});
afterAll(async () => {
  await server.close();
});

describe('PUT …/schedule-publish-and-unpublish', () => {
  it('schedules both times in one request; the scheduler applies each exactly once, even run twice at once', async () => {
    const path = await newVariant('both');
    const publishAt = iso(60_000);
    const unpublishAt = iso(120_000);
    const scheduled = await call(`${path}/schedule-publish-and-unpublish`, 'PUT', {
      publish_scheduled_to: publishAt,
      publish_display_timezone: 'Europe/Prague',
      unpublish_scheduled_to: unpublishAt,
      unpublish_display_timezone: 'America/New_York',
    });
    expect(scheduled.status).toBe(204);
    const variant = (await call(path, 'GET')).json;
    expect(variant['schedule']).toEqual({
      publish_time: publishAt.replace('.000Z', 'Z'),
      publish_display_timezone: 'Europe/Prague',
      unpublish_time: unpublishAt.replace('.000Z', 'Z'),
      unpublish_display_timezone: 'America/New_York',
    });
    expect(await stepOf(path)).toBe(systemStepIds.scheduled);

    server.core.clock.advance(60_000);
    const firstRuns = await Promise.all([runDueJobs(server.core), runDueJobs(server.core)]);
    expect(firstRuns[0] + firstRuns[1]).toBe(1);
    expect(await stepOf(path)).toBe(systemStepIds.published);
    expect((await call(`${path}/published`, 'GET')).status).toBe(200);

    server.core.clock.advance(60_000);
    const secondRuns = await Promise.all([runDueJobs(server.core), runDueJobs(server.core)]);
    expect(secondRuns[0] + secondRuns[1]).toBe(1);
    expect(await stepOf(path)).toBe(systemStepIds.archived);
    expect((await call(`${path}/published`, 'GET')).status).toBe(404);
    expect((await events('both')).map((e) => e.operation)).toEqual(['publish', 'unpublish']);
    expect(await runDueJobs(server.core)).toBe(0);
  });

  it('schedules only an unpublish of a published variant, and replaces an earlier schedule', async () => {
    const path = await newVariant('published_one');
    expect((await call(`${path}/publish`, 'PUT')).status).toBe(204);
    await call(`${path}/schedule-publish-and-unpublish`, 'PUT', { unpublish_scheduled_to: iso(30_000) });
    const later = iso(90_000);
    expect(
      (await call(`${path}/schedule-publish-and-unpublish`, 'PUT', { unpublish_scheduled_to: later })).status,
    ).toBe(204);
    expect(((await call(path, 'GET')).json['schedule'] as Json)['unpublish_time']).toBe(later.replace('.000Z', 'Z'));
    server.core.clock.advance(60_000);
    expect(await runDueJobs(server.core)).toBe(0);
    server.core.clock.advance(60_000);
    expect(await runDueJobs(server.core)).toBe(1);
    expect(await stepOf(path)).toBe(systemStepIds.archived);
  });

  it('refuses bad bodies with 400 and changes nothing', async () => {
    const path = await newVariant('refused');
    const before = (await call(path, 'GET')).json;
    const cases: [unknown, number][] = [
      [{}, 5],
      [{ publish_scheduled_to: 'tomorrow' }, 5],
      [{ publish_scheduled_to: iso(-60_000) }, 5],
      [{ publish_scheduled_to: iso(60_000), publish_display_timezone: 'Mars/Olympus' }, 5],
      [{ publish_scheduled_to: iso(120_000), unpublish_scheduled_to: iso(60_000) }, 5],
      [{ unpublish_scheduled_to: iso(60_000) }, 213],
    ];
    for (const [body, code] of cases) {
      const answer = await call(`${path}/schedule-publish-and-unpublish`, 'PUT', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json['error_code'], JSON.stringify(body)).toBe(code);
    }
    expect((await call(path, 'GET')).json).toEqual(before);
  });
});

describe('PUT …/unpublish (deprecated)', () => {
  it('takes a published variant down to its first step, not Archived; 213 when not published', async () => {
    const path = await newVariant('to_draft');
    expect((await call(`${path}/unpublish`, 'PUT')).json['error_code']).toBe(213);
    expect((await call(`${path}/publish`, 'PUT')).status).toBe(204);
    expect((await call(`${path}/unpublish`, 'PUT')).status).toBe(204);
    expect(await stepOf(path)).toBe(systemStepIds.draft);
    expect((await call(`${path}/published`, 'GET')).status).toBe(404);
    expect((await events('to_draft')).map((e) => e.operation)).toEqual(['publish', 'unpublish']);
    // The variant is editable again.
    expect((await call(path, 'PUT', { elements: [{ element: { codename: 'text' }, value: 'again' }] })).status).toBe(
      200,
    );
  });
});

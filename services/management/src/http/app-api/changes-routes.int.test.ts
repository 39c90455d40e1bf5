import { createServer } from 'node:http';
import { connect } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessBus, createOutboxRelay, type EventBus } from '@lectern/core';
import { createLogger, listen, type Listening } from '@lectern/http-kit';
import { seedProject } from '@lectern/testing';
import { startTestManagement, type TestManagement } from '../../testing/test-server.ts';
import { createChangeHub, type ChangeHub } from '../../changes/change-hub.ts';
import { requireManagementKey } from '../auth.ts';
import { errorHandler } from '../errors.ts';
import { changesRouter } from './changes-routes.ts';

/*
 * The changes stream through a real server: the Management API writes, the outbox relay publishes
 * to the in-process bus, the hub fans out, and a real HTTP request reads the SSE stream. Until the
 * session auth exists, the router sits behind the management key at a test path.
 */

let server: TestManagement;
let bus: EventBus;
let hub: ChangeHub;
let relay: ReturnType<typeof createOutboxRelay>;
let stopWaking: () => void;
let streams: Listening;
let other: { projectId: string; key: string };

function startStreams(changes: ChangeHub, options: { maxBufferedBytes?: number } = {}) {
  const app = express();
  const project = express.Router({ mergeParams: true });
  project.use(requireManagementKey(server.core));
  project.use(changesRouter({ changes, heartbeatMs: 300, ...options }));
  app.use('/test/projects/:projectId', project);
  app.use(errorHandler(createLogger({ level: 'silent' })));
  return listen(createServer(app), { host: '127.0.0.1', port: 0, graceMs: 2000 });
}

/** Reads an SSE response as text, chunk by chunk, and waits for what the tests expect in it. */
function reader(response: Response) {
  const body = response.body?.getReader();
  if (!body) throw new Error('no body');
  const decoder = new TextDecoder();
  let text = '';
  let isDone = false;
  const pump = (async () => {
    for (;;) {
      const { value, done } = await body.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    isDone = true;
  })().catch(() => {
    isDone = true;
  });
  return {
    get text() {
      return text;
    },
    get isDone() {
      return isDone;
    },
    async waitFor(test: (text: string) => boolean, ms = 1000): Promise<boolean> {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        if (test(text)) return true;
        await new Promise((r) => setTimeout(r, 20));
      }
      return test(text);
    },
    async cancel() {
      await body.cancel().catch(() => undefined);
      await pump;
    },
  };
}

const events = (text: string) =>
  text
    .split('\n\n')
    .filter((block) => block.includes('event: change'))
    .map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 6)) as Record<string, unknown>);

async function open(projectId: string, key: string) {
  return fetch(`${streams.url}/test/projects/${projectId}/changes`, { headers: { authorization: `Bearer ${key}` } });
}

beforeAll(async () => {
  server = await startTestManagement();
  bus = createInProcessBus();
  relay = createOutboxRelay({ store: server.core.store, bus, clock: server.core.clock, intervalMs: 100 });
  stopWaking = server.core.store.onEventsCommitted(() => relay.wake());
  relay.start();
  hub = createChangeHub({ now: () => server.core.clock.now() });
  await hub.attach(bus);
  streams = await startStreams(hub);
  const seeded = await seedProject(server.core, ['management']);
  other = { projectId: seeded.projectId, key: seeded.keys.management?.value ?? '' };
  await server.fetch('/types', {
    method: 'POST',
    body: JSON.stringify({
      name: 'Note',
      codename: 'note',
      elements: [{ name: 'Text', codename: 'text', type: 'text' }],
    }),
  });
});

afterAll(async () => {
  await hub.close();
  await streams.close();
  stopWaking();
  await relay.stop();
  await bus.close();
  await server.close();
});

describe('GET …/changes (server-sent events)', () => {
  it('streams a variant upserted through the Management API within a second, and not another project’s changes', async () => {
    const response = await open(server.projectId, server.apiKey);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const stream = reader(response);
    expect(await stream.waitFor((t) => t.includes(': connected'))).toBe(true);

    // Another project's changes, seen on that project's own stream (so the check below can fail).
    const otherStream = reader(await open(other.projectId, other.key));
    expect(await otherStream.waitFor((t) => t.includes(': connected'))).toBe(true);

    const created = (await (
      await server.fetch('/items', {
        method: 'POST',
        body: JSON.stringify({ name: 'Live', type: { codename: 'note' } }),
      })
    ).json()) as { id: string };
    const started = Date.now();
    const upsert = await server.fetch('/items/codename/live/variants/codename/default', {
      method: 'PUT',
      body: JSON.stringify({ elements: [{ element: { codename: 'text' }, value: 'hello' }] }),
    });
    expect(upsert.status).toBe(201);
    const isSeen = await stream.waitFor((t) =>
      events(t).some((e) => e['object_kind'] === 'variant' && e['id'] === created.id),
    );
    expect(isSeen).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
    const variant = events(stream.text).find((e) => e['object_kind'] === 'variant' && e['id'] === created.id);
    expect(variant).toMatchObject({
      operation: expect.any(String),
      codename: 'live',
      language: { id: '00000000-0000-0000-0000-000000000000', codename: 'default' },
      type: { codename: 'note' },
    });
    expect(variant?.['seq']).toEqual(expect.any(Number));
    expect(stream.text).toMatch(new RegExp(`id: ${String(variant?.['seq'])}\\nevent: change\\n`));

    const otherType = await fetch(`${server.baseUrl}/projects/${other.projectId}/types`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Other', codename: 'other', elements: [] }),
    });
    expect(otherType.status).toBe(201);
    expect(await otherStream.waitFor((t) => events(t).some((e) => e['codename'] === 'other'))).toBe(true);
    expect(events(otherStream.text).some((e) => e['id'] === created.id)).toBe(false);
    expect(events(stream.text).some((e) => e['codename'] === 'other')).toBe(false);
    await stream.cancel();
    await otherStream.cancel();
  });

  it('sends a comment heartbeat, and refuses a key of another project in the Management error shape', async () => {
    const stream = reader(await open(server.projectId, server.apiKey));
    expect(await stream.waitFor((t) => t.includes(': heartbeat\n\n'))).toBe(true);
    await stream.cancel();
    const refused = await open(server.projectId, other.key);
    expect(refused.status).toBeGreaterThanOrEqual(401);
    expect(refused.status).toBeLessThan(404);
    expect(((await refused.json()) as { error_code?: number }).error_code).toEqual(expect.any(Number));
  });

  it('cuts off a client that does not read once its queue is full, after a reset event', async () => {
    const slowHub = createChangeHub({ now: () => server.core.clock.now() });
    const slowBus = createInProcessBus();
    await slowHub.attach(slowBus);
    const slow = await startStreams(slowHub, { maxBufferedBytes: 64 * 1024 });
    try {
      const socket = connect({ host: '127.0.0.1', port: slow.port });
      await new Promise((r) => socket.once('connect', r));
      socket.write(
        `GET /test/projects/${server.projectId}/changes HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${server.apiKey}\r\n\r\n`,
      );
      let received = '';
      socket.once('data', (chunk) => (received += chunk.toString()));
      await new Promise((r) => setTimeout(r, 200));
      socket.pause(); // reads nothing more: the kernel buffers fill, then the server's queue
      const closed = new Promise((r) => socket.once('close', r));
      const big = 'x'.repeat(32 * 1024);
      for (let seq = 1; seq <= 800; seq++)
        await slowBus.publish([
          {
            projectId: server.projectId,
            seq,
            objectKind: 'item',
            operation: 'update',
            objectId: null,
            channel: 'management',
            payload: { codename: big },
            occurredAt: server.core.clock.now(),
          },
        ]);
      await new Promise((r) => setTimeout(r, 1000)); // the bus hands the events over
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.resume();
      await closed;
      expect(received).toContain('HTTP/1.1 200');
      expect(received).toContain('event: reset');
      // What the kernel held plus the server's queue, then the cut: the last events never came.
      expect(received).not.toContain('\nid: 800\n');
      expect(received.length).toBeLessThan(20 * 1024 * 1024);
    } finally {
      await slowHub.close();
      await slow.close();
      await slowBus.close();
    }
  });

  it('ends open streams when the hub closes (server shutdown)', async () => {
    const closingHub = createChangeHub({ now: () => server.core.clock.now() });
    const closing = await startStreams(closingHub);
    const stream = reader(
      await fetch(`${closing.url}/test/projects/${server.projectId}/changes`, {
        headers: { authorization: `Bearer ${server.apiKey}` },
      }),
    );
    expect(await stream.waitFor((t) => t.includes(': connected'))).toBe(true);
    const started = Date.now();
    await closingHub.close();
    await closing.close();
    expect(await stream.waitFor(() => stream.isDone)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

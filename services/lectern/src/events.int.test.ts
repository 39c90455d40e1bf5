import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from './testing/test-process.ts';

/** A Management call that waits out the rate limit (429 + Retry-After), as a client does. */
async function mapi(base: string, key: string, path: string, method: string, body?: unknown): Promise<Response> {
  for (;;) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (response.status !== 429) return response;
    await new Promise((r) => setTimeout(r, Number(response.headers.get('retry-after') ?? '1') * 1000));
  }
}

/** The value of a metric line (first match) in Prometheus text. */
function metric(text: string, line: RegExp): number | null {
  const found = text.split('\n').find((l) => line.test(l));
  return found === undefined ? null : Number(found.split(' ').at(-1));
}

const servers: StartedServer[] = [];
afterAll(() => {
  for (const s of servers) s.child.kill('SIGKILL');
});

describe('embedded change events (outbox → relay → in-process bus → indexer)', () => {
  it('shows publishes in Delivery, reports relay and consumer lag, and loses nothing to a SIGKILL', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lectern-events-'));
    const first = await startServer(dataDir);
    servers.push(first);
    const { urls, demo } = first.summary;
    const projectId = demo!.project_id;
    const key = demo!.keys.find((k) => k.kind === 'management')!.api_key;
    const project = (url: string) => `${url}/v2/projects/${projectId}`;
    const type = await mapi(project(urls['management']!), key, '/types', 'POST', {
      name: 'Note',
      codename: 'note',
      elements: [{ name: 'Title', codename: 'title', type: 'text' }],
    });
    expect(type.status).toBe(201);
    const publishNote = async (base: string, n: number) => {
      const codename = `note_${n}`;
      for (const [path, method, body] of [
        ['/items', 'POST', { name: `Note ${n}`, codename, type: { codename: 'note' } }],
        [`/items/codename/${codename}/variants/codename/default`, 'PUT', { elements: [{ element: { codename: 'title' }, value: `Title ${n}` }] }],
        [`/items/codename/${codename}/variants/codename/default/publish`, 'PUT', undefined],
      ] as const)
        expect((await mapi(project(base), key, path, method, body)).status).toBeLessThan(300);
    };
    const read = (deliveryUrl: string, n: number) =>
      fetch(`${deliveryUrl}/${projectId}/items/note_${n}`, {
        headers: { 'X-KC-Wait-For-Loading-New-Content': 'true' },
      });

    await publishNote(urls['management']!, 1);
    const fresh = await read(urls['delivery']!, 1);
    expect(fresh.status).toBe(200);
    expect(((await fresh.json()) as { item: { elements: { title: { value: string } } } }).item.elements.title.value).toBe(
      'Title 1',
    );
    const metrics = await (await fetch(`${urls['management']}/metrics`)).text();
    expect(metric(metrics, /^lectern_outbox_relay_lag_events /)).toBe(0);
    expect(metric(metrics, /^lectern_event_consumer_lag_events\{group="lectern-indexer"\} /)).toBe(0);
    expect(metric(metrics, /^lectern_outbox_relayed_events_total /)).toBeGreaterThan(0);

    // Killed right after acknowledging publishes, before (some of) them reached the index: the
    // next start catches up from the outbox.
    for (let n = 2; n <= 7; n++) await publishNote(urls['management']!, n);
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await startServer(dataDir);
    servers.push(second);
    for (let n = 1; n <= 7; n++) {
      const response = await read(second.summary.urls['delivery']!, n);
      expect(response.status, `note_${n}`).toBe(200);
    }
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});

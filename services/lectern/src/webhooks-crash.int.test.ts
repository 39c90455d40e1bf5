import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestReceiver, type TestReceiver } from '@lectern/testing';
import { startServer, type StartedServer } from './testing/test-process.ts';

const servers: StartedServer[] = [];
let receiver: TestReceiver | undefined;
afterAll(async () => {
  for (const s of servers) s.child.kill('SIGKILL');
  await receiver?.close();
});

describe('embedded webhooks and SIGKILL', () => {
  it('loses no notification and keeps the order when lectern start is killed mid-delivery, again and again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lectern-webhooks-crash-'));
    receiver = await startTestReceiver();
    const start = async () => {
      const s = await startServer(dataDir, ['--webhooks-allow-private', 'true', '--webhooks-timeout-ms', '3000']);
      servers.push(s);
      return s;
    };
    let server = await start();
    const projectId = server.summary.demo?.project_id as string;
    const key = server.summary.demo?.keys.find((k) => k.kind === 'management')?.api_key as string;
    const mapi = async (path: string, method: string, body: unknown) => {
      const r = await fetch(`${server.summary.urls['management']}/v2/projects/${projectId}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    };
    await mapi('/webhooks-vnext', 'POST', {
      name: 'Crash',
      url: receiver.url,
      secret: 'crash',
      delivery_triggers: { slot: 'published', events: 'specific', taxonomy: { enabled: true, actions: [{ action: 'created' }] } },
    });
    const received = () =>
      (receiver?.received ?? []).flatMap((r) =>
        (r.json['notifications'] as { data: { system: { codename: string } } }[]).map((n) => n.data.system.codename),
      );
    const codenames: string[] = [];
    for (let round = 0; round < 3; round += 1) {
      receiver.isHanging = true; // the POST under way never answers: the kill lands mid-delivery
      for (let i = 0; i < 3; i += 1) {
        const codename = `crash_${round}_${i}`;
        await mapi('/taxonomies', 'POST', { name: codename, codename, terms: [] });
        codenames.push(codename);
      }
      await sleep(500);
      server.child.kill('SIGKILL');
      await server.exited;
      receiver.isHanging = false;
      server = await start();
    }
    const until = Date.now() + 90_000;
    while (!codenames.every((c) => received().includes(c)) && Date.now() < until) await sleep(200);
    const got = received();
    expect(new Set(got)).toEqual(new Set(codenames));
    expect(got.filter((c, i) => got.indexOf(c) === i)).toEqual(codenames);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 240_000);
});

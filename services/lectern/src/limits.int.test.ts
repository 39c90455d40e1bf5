import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@lectern/config';
import { startEmbedded, type EmbeddedServer } from './embedded.ts';
import { startSettings } from './settings.ts';

const started: { server: EmbeddedServer; dataDir: string }[] = [];

/** `lectern start` in this process on a fresh data directory, configured by the environment given. */
async function start(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-limits-'));
  const config = loadConfig({
    settings: startSettings,
    env: { LECTERN_DATA_DIR: dataDir, LECTERN_PORT_BASE: '0', LECTERN_LOG_LEVEL: 'silent', ...env },
  });
  const server = await startEmbedded(config);
  started.push({ server, dataDir });
  const demo = server.demo;
  if (demo === null) throw new Error('no demo project');
  const managementKey = demo.keys.find((k) => k.key.kind === 'management')?.secret ?? '';
  return {
    /** A Delivery request no earlier one asked (a different limit each), so never a cache hit. */
    uncached: (n: number) =>
      fetch(`${server.urls.delivery}/${demo.project.id}/items?limit=${n}`, {
        headers: { 'x-kc-wait-for-loading-new-content': 'true' },
      }),
    management: () =>
      fetch(`${server.urls.management}/v2/projects/${demo.project.id}`, {
        headers: { authorization: `Bearer ${managementKey}` },
      }),
  };
}

/**
 * Runs `calls` requests one after another inside one fixed minute window: when less than 10 s of
 * the current minute is left, it waits for the next one first. Resolves with their statuses and
 * the last response.
 */
async function withinOneMinute(calls: number, call: (i: number) => Promise<Response>) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
  const statuses: number[] = [];
  let last: Response | undefined;
  for (let i = 1; i <= calls; i += 1) {
    last = await call(i);
    statuses.push(last.status);
    await last.arrayBuffer();
  }
  return { statuses, last: last as Response };
}

afterAll(async () => {
  for (const { server, dataDir } of started) {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

describe('limits as settings of lectern start', () => {
  it('answers 429 with Retry-After once the configured number of uncached requests is used up', async () => {
    const api = await start({
      LECTERN_DELIVERY_UNCACHED_PER_SECOND: '0',
      LECTERN_DELIVERY_UNCACHED_PER_MINUTE: '3',
      LECTERN_MANAGEMENT_PER_SECOND: '0',
      LECTERN_MANAGEMENT_PER_MINUTE: '2',
    });
    const delivery = await withinOneMinute(4, api.uncached);
    expect(delivery.statuses).toEqual([200, 200, 200, 429]);
    const retryAfter = Number(delivery.last.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);

    const management = await withinOneMinute(3, () => api.management());
    expect(management.statuses).toEqual([200, 200, 429]);
    expect(Number(management.last.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('lets every request through when each limit is 0', async () => {
    const api = await start({
      LECTERN_DELIVERY_UNCACHED_PER_SECOND: '0',
      LECTERN_DELIVERY_UNCACHED_PER_MINUTE: '0',
      LECTERN_MANAGEMENT_PER_SECOND: '0',
      LECTERN_MANAGEMENT_PER_MINUTE: '0',
      LECTERN_MANAGEMENT_PER_HOUR: '0',
    });
    const delivery = await withinOneMinute(40, api.uncached);
    expect(delivery.statuses.every((s) => s === 200)).toBe(true);
    // Above the default of 10 a second: 25 calls at once.
    const management = await Promise.all(Array.from({ length: 25 }, () => api.management()));
    expect(management.map((r) => r.status)).toEqual(Array.from({ length: 25 }, () => 200));
  });
});

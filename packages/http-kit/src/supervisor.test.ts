import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The supervisor and service-main machinery around a real process (stuck-service.test-fixture.ts):
 * SIGTERM must end a server whose event loop is stuck, within seconds.
 */
const fixture = fileURLToPath(new URL('./stuck-service.test-fixture.ts', import.meta.url));
const started: number[] = [];

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterEach(() => {
  for (const pid of started.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
});

async function startFixture() {
  const supervisor = spawn(process.execPath, [fixture], {
    env: { ...process.env, LECTERN_LOG_LEVEL: 'silent', LECTERN_SHUTDOWN_GRACE_MS: '2000' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    supervisor.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: supervisor.stdout }).once('line', resolve);
    void exited.then(() => reject(new Error('the fixture exited before listening')));
  });
  const { url, pid } = JSON.parse(line) as { url: string; pid: number };
  started.push(pid);
  return { supervisor, exited, url, serverPid: pid };
}

/** Milliseconds until `exited` settles after `signal` is sent to the supervisor. */
async function timeToExit(
  fixture: Awaited<ReturnType<typeof startFixture>>,
  signal: NodeJS.Signals,
): Promise<{ ms: number; code: number | null; signal: string | null }> {
  const sent = Date.now();
  fixture.supervisor.kill(signal);
  const result = await fixture.exited;
  return { ms: Date.now() - sent, ...result };
}

async function waitUntilGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 40 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return !isAlive(pid);
}

describe('a supervised service', () => {
  it('stops on SIGTERM within seconds while a request holds its event loop for ever', async () => {
    const fixture = await startFixture();
    void fetch(`${fixture.url}/block`).catch(() => {});
    // The probe of a stuck loop fails by timeout.
    await expect(fetch(`${fixture.url}/healthz`, { signal: AbortSignal.timeout(1000) })).rejects.toThrow();
    const stop = await timeToExit(fixture, 'SIGTERM');
    expect(stop.code).toBe(1);
    expect(stop.ms).toBeLessThan(8000);
    expect(await waitUntilGone(fixture.serverPid)).toBe(true);
  }, 30_000);

  it('stops cleanly on one SIGINT (Ctrl+C) when nothing is stuck', async () => {
    const fixture = await startFixture();
    expect((await fetch(`${fixture.url}/healthz`)).status).toBe(200);
    const stop = await timeToExit(fixture, 'SIGINT');
    expect(stop).toMatchObject({ code: 0, signal: null });
    expect(stop.ms).toBeLessThan(3000);
    expect(await waitUntilGone(fixture.serverPid)).toBe(true);
  }, 30_000);

  it('never outlives its supervisor', async () => {
    const fixture = await startFixture();
    fixture.supervisor.kill('SIGKILL');
    await fixture.exited;
    expect(await waitUntilGone(fixture.serverPid)).toBe(true);
  }, 30_000);
});

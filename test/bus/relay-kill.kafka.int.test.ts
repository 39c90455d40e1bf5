import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createKafkaBus } from '@lectern/bus-kafka';
import { openPostgresStore } from '@lectern/store-sql';
import { createTestDatabase, range, recorder, waitFor, waitUntilAllApplied } from '@lectern/testing';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { pendingEvents, seedProjects, startWriters } from './outbox-writers.ts';

const kafkaBrokers = inject('kafkaBrokers');
const childScript = fileURLToPath(new URL('./relay-child.ts', import.meta.url));

/** A relay process (relay-child.ts), with what it printed. */
interface RelayChild {
  readonly process: ChildProcess;
  /** Events it reported as acknowledged by the bus. */
  published: number;
  stderr: string;
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

describe.skipIf(!kafkaBrokers)('an outbox relay process killed with SIGKILL mid-stream', () => {
  const children: RelayChild[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const child of children) if (!hasExited(child.process)) child.process.kill('SIGKILL');
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  /** Starts a relay process and resolves once it printed `ready`. */
  const startRelay = (env: Record<string, string>): Promise<RelayChild> => {
    const child: RelayChild = {
      process: spawn(process.execPath, [childScript], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
      published: 0,
      stderr: '',
    };
    children.push(child);
    child.process.stderr?.on(
      'data',
      (chunk: Buffer) => (child.stderr = (child.stderr + chunk.toString()).slice(-4_000)),
    );
    return new Promise((resolve, reject) => {
      let buffered = '';
      child.process.stdout?.on('data', (chunk: Buffer) => {
        const lines = (buffered + chunk.toString()).split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          if (line === 'ready') resolve(child);
          else if (line.startsWith('published ')) child.published += Number(line.slice('published '.length));
        }
      });
      child.process.once('exit', (code, signal) =>
        reject(new Error(`the relay process exited (${signal ?? code}):\n${child.stderr}`)),
      );
    });
  };

  const kill = async (child: RelayChild) => {
    const exited = new Promise((resolve) => child.process.once('exit', resolve));
    child.process.kill('SIGKILL');
    await exited;
  };

  it('loses and reorders nothing: every project is applied exactly 1..latest', { timeout: 150_000 }, async () => {
    const databaseUrl = await createTestDatabase(inject('postgresUrl'));
    const store = await openPostgresStore({ connectionString: databaseUrl });
    cleanups.push(() => store.close());
    const projects = await seedProjects(store, 5);
    const topic = `lectern-relay-kill-${randomUUID()}`;
    const env = {
      LECTERN_RELAY_DATABASE_URL: databaseUrl,
      LECTERN_RELAY_BROKERS: kafkaBrokers,
      LECTERN_RELAY_TOPIC: topic,
    };

    const consumerBus = createKafkaBus({ brokers: kafkaBrokers.split(','), topic, clientId: 'lectern-kill-test' });
    cleanups.push(() => consumerBus.close());
    const rec = recorder();
    await consumerBus.subscribe({ group: 'indexer', handle: rec.handle });

    const writers = startWriters(store, projects, 25);
    cleanups.push(() => writers.stop());
    const kills: { published: number; pending: number }[] = [];
    for (let cycle = 0; cycle < 3; cycle++) {
      const relay = await startRelay(env);
      const seen = rec.received.length;
      await waitFor('the relay published a good part', () => rec.received.length >= seen + 150, 30_000);
      // Writers keep committing: at the kill, committed events are waiting for this relay.
      const pending = await pendingEvents(store);
      await kill(relay);
      kills.push({ published: relay.published, pending });
    }

    // A last relay takes over once the dead one's leases expire, and relays the rest.
    const last = await startRelay(env);
    await writers.stop();
    const latest = await waitUntilAllApplied(store, projects, rec, 60_000);
    await waitFor('nothing pending', async () => (await pendingEvents(store)) === 0, 10_000);
    await kill(last);

    projects.forEach((p, i) => expect(rec.applied(p)).toEqual(range(1, latest[i]!)));
    expect(rec.problems).toEqual([]);
    expect(kills.every((k) => k.published > 0)).toBe(true);
    expect(kills.some((k) => k.pending > 0)).toBe(true);
    const total = latest.reduce((a, b) => a + b, 0);
    const duplicates = rec.received.length - total;
    expect(duplicates).toBeGreaterThanOrEqual(0);
    console.log(
      `[relay-kill] ${total} events in ${projects.length} projects, 3 kills ` +
        `(pending at kill: ${kills.map((k) => k.pending).join(', ')}), ${duplicates} duplicate deliveries`,
    );
  });
});

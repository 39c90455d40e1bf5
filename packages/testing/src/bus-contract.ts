import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createOutboxRelay,
  randomIds,
  type ChangeEvent,
  type CoreDeps,
  type EventBus,
  type NewChangeEvent,
  type Store,
} from '@lectern/core';
import { seedProject } from './test-core.ts';
import { createTestClock } from './test-clock.ts';

/** One isolated bus (a fresh topic on Kafka, a fresh bus in process) that several clients share. */
export interface BusSpace {
  /** A new client of this bus, as another process would have. */
  connect(): Promise<EventBus>;
  /** Closes every client and drops the bus. */
  cleanup(): Promise<void>;
}

export interface BusContractTarget {
  /** Adapter name, shown in the test output. */
  readonly adapter: string;
  openSpace(): Promise<BusSpace>;
  /** A migrated store for the relay tests (PGlite beside the in-process bus, PostgreSQL beside Kafka). */
  openStore(): Promise<Store>;
  /** How long to wait for deliveries (a Kafka consumer group takes seconds to form). */
  readonly timeoutMs?: number;
}

/** Waits until the recorder applied every committed event of each project (1..latest). */
export async function waitUntilAllApplied(
  store: Store,
  projects: readonly string[],
  rec: ReturnType<typeof recorder>,
  timeoutMs: number,
): Promise<number[]> {
  const latest = await Promise.all(projects.map((p) => store.transaction((tx) => tx.outbox.latestSeq(p))));
  await waitFor(
    'every committed event applied',
    () => projects.every((p, i) => rec.applied(p).length === latest[i]),
    timeoutMs,
  );
  return latest;
}

/** Records deliveries and applies each project's events only when newer, as a consumer does. */
export function recorder(options: { reject?: (events: readonly ChangeEvent[]) => boolean } = {}) {
  const received: ChangeEvent[] = [];
  const applied = new Map<string, number[]>();
  const problems: string[] = [];
  let calls = 0;
  const handle = (events: readonly ChangeEvent[]): Promise<void> => {
    calls += 1;
    const projectId = events[0]?.projectId;
    if (events.some((e) => e.projectId !== projectId)) problems.push('one delivery mixed projects');
    if (events.some((e, i) => i > 0 && e.seq <= events[i - 1]!.seq)) problems.push('a delivery was not ascending');
    if (options.reject?.(events)) return Promise.reject(new Error('handler failed on purpose'));
    for (const e of events) {
      received.push(e);
      const seqs = applied.get(e.projectId) ?? [];
      if (e.seq > (seqs.at(-1) ?? 0)) seqs.push(e.seq);
      applied.set(e.projectId, seqs);
    }
    return Promise.resolve();
  };
  return {
    handle,
    received,
    problems,
    calls: () => calls,
    applied: (projectId: string) => applied.get(projectId) ?? [],
    count: () => [...applied.values()].reduce((n, s) => n + s.length, 0),
  };
}

export const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Events `from`..`to` of a project, as the outbox would have committed them. */
export function eventsOf(projectId: string, from: number, to: number): ChangeEvent[] {
  return range(from, to).map((seq) => ({
    projectId,
    seq,
    objectKind: 'variant',
    operation: 'upsert',
    objectId: randomUUID(),
    channel: 'delivery_preview',
    payload: { seq, codename: `item_${seq}`, nested: { language: 'default', list: [1, 'two'] } },
    occurredAt: new Date(Date.UTC(2026, 0, 1) + seq * 1000),
  }));
}

export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Publishes each project's events `1..perProject` in batches of 1–5, projects interleaved. */
async function publishInterleaved(bus: EventBus, projects: readonly string[], perProject: number, from = 1) {
  const next = new Map(projects.map((p) => [p, from]));
  let round = 0;
  while ([...next.values()].some((n) => n <= perProject)) {
    for (const p of projects) {
      const start = next.get(p)!;
      if (start > perProject) continue;
      const end = Math.min(perProject, start + (round % 5));
      await bus.publish(eventsOf(p, start, end));
      next.set(p, end + 1);
    }
    round += 1;
  }
}

/** A change event as an operation would append it to the outbox. */
export const newChangeEvent = (n: number): NewChangeEvent => ({
  objectKind: 'variant',
  operation: 'upsert',
  objectId: randomUUID(),
  channel: 'delivery_preview',
  payload: { n },
});

/**
 * The contract of the EventBus port and of the outbox relay over it, run against every bus
 * adapter on a real engine: ordering per project, consumer groups, at-least-once redelivery,
 * committed progress, lag, and relays that take over from one another.
 */
export function describeBusContract(target: BusContractTarget): void {
  const timeoutMs = target.timeoutMs ?? 10_000;
  describe(`event bus contract on ${target.adapter}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    const space = async () => {
      const s = await target.openSpace();
      cleanups.push(() => s.cleanup());
      return s;
    };
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it('delivers every event with every field, each project in order, to a group that joins late', async () => {
      const bus = await (await space()).connect();
      const projects = [randomUUID(), randomUUID(), randomUUID()];
      await publishInterleaved(bus, projects, 20);
      const rec = recorder();
      await bus.subscribe({ group: 'late', handle: rec.handle });
      await publishInterleaved(bus, projects, 40, 21);
      await waitFor('every event is applied', () => rec.count() === 120, timeoutMs);
      for (const p of projects) expect(rec.applied(p)).toEqual(range(1, 40));
      expect(rec.problems).toEqual([]);
      const sample = rec.received.find((e) => e.projectId === projects[1] && e.seq === 7)!;
      expect(sample.occurredAt).toBeInstanceOf(Date);
      expect(sample).toEqual({ ...eventsOf(projects[1]!, 7, 7)[0], objectId: sample.objectId });
      expect(typeof sample.objectId).toBe('string');
    });

    it('gives every group every event', async () => {
      const s = await space();
      const bus = await s.connect();
      const [one, two] = [recorder(), recorder()];
      await bus.subscribe({ group: 'indexer', handle: one.handle });
      await (await s.connect()).subscribe({ group: 'webhooks', handle: two.handle });
      const project = randomUUID();
      await publishInterleaved(bus, [project], 30);
      await waitFor('both groups applied everything', () => one.count() === 30 && two.count() === 30, timeoutMs);
      expect(one.applied(project)).toEqual(range(1, 30));
      expect(two.applied(project)).toEqual(range(1, 30));
    });

    it('shares a group’s work between its members, each project whole and in order', async () => {
      const s = await space();
      const [first, second] = [recorder(), recorder()];
      await (await s.connect()).subscribe({ group: 'indexer', handle: first.handle });
      await (await s.connect()).subscribe({ group: 'indexer', handle: second.handle });
      const projects = range(1, 16).map(() => randomUUID());
      await publishInterleaved(await s.connect(), projects, 10);
      const appliedBy = (p: string) => [...first.applied(p), ...second.applied(p)];
      await waitFor('all projects applied', () => projects.every((p) => new Set(appliedBy(p)).size === 10), timeoutMs);
      expect(first.calls()).toBeGreaterThan(0);
      expect(second.calls()).toBeGreaterThan(0);
      for (const p of projects) {
        // One member owns a project at a time: what each applied is an unbroken run of sequences.
        for (const rec of [first, second]) {
          const seqs = rec.applied(p);
          expect(seqs).toEqual(seqs.length ? range(seqs[0]!, seqs.at(-1)!) : []);
        }
      }
      expect([...first.problems, ...second.problems]).toEqual([]);
    });

    it('keeps every delivery ascending when a relay publishes events again', async () => {
      const bus = await (await space()).connect();
      const project = randomUUID();
      const rec = recorder();
      await bus.subscribe({ group: 'indexer', handle: rec.handle });
      // A relay whose send failed after the broker took it publishes again from its recorded seq.
      for (const [from, to] of [
        [1, 5],
        [3, 8],
        [9, 10],
      ] as const)
        await bus.publish(eventsOf(project, from, to));
      await waitFor('every event applied', () => rec.applied(project).length === 10, timeoutMs);
      await waitFor('the repeats delivered', () => rec.received.length === 13, timeoutMs);
      expect(rec.applied(project)).toEqual(range(1, 10));
      expect(rec.problems).toEqual([]);
    });

    it('delivers again what a failed handler call held, before anything later of that project', async () => {
      const bus = await (await space()).connect();
      const project = randomUUID();
      let failures = 0;
      const rec = recorder({
        reject: (events) => events.some((e) => e.seq === 5) && failures++ < 2,
      });
      await bus.subscribe({ group: 'indexer', handle: rec.handle });
      await publishInterleaved(bus, [project], 12);
      await waitFor('every event applied', () => rec.applied(project).length === 12, timeoutMs);
      expect(failures).toBeGreaterThanOrEqual(3);
      expect(rec.applied(project)).toEqual(range(1, 12));
      const firstDelivered = (seq: number) => rec.received.findIndex((e) => e.seq === seq);
      expect(firstDelivered(5)).toBeLessThan(firstDelivered(6));
    });

    it('resumes a group after its member stopped, from what it had handled', async () => {
      const s = await space();
      const publisher = await s.connect();
      const project = randomUUID();
      const before = recorder();
      const member = await (await s.connect()).subscribe({ group: 'indexer', handle: before.handle });
      await publisher.publish(eventsOf(project, 1, 20));
      await waitFor('the first member applied 20', () => before.applied(project).length === 20, timeoutMs);
      await member.stop();
      await publisher.publish(eventsOf(project, 21, 30));
      expect(await publisher.lag('indexer')).toBe(10);
      const after = recorder();
      await (await s.connect()).subscribe({ group: 'indexer', handle: after.handle });
      await waitFor('the next member applied up to 30', () => after.applied(project).at(-1) === 30, timeoutMs);
      // Committed progress holds: the group does not start over.
      expect(after.received[0]!.seq).toBe(21);
      expect(after.applied(project)).toEqual(range(21, 30));
      await waitFor('the lag is 0', async () => (await publisher.lag('indexer')) === 0, timeoutMs);
    });

    describe('outbox relay', () => {
      const openStore = async () => {
        const store = await target.openStore();
        cleanups.push(() => store.close());
        const clock = createTestClock(new Date());
        const core: CoreDeps = { store, clock, ids: randomIds };
        return { store, clock, core };
      };
      const append = (store: Store, projectId: string, count: number) =>
        store.transaction((tx) => tx.outbox.append(projectId, range(1, count).map(newChangeEvent), new Date()));
      const latest = (store: Store, projectId: string) => store.transaction((tx) => tx.outbox.latestSeq(projectId));

      it('publishes committed events in per-project order, once, and records how far it got', async () => {
        const { store, clock, core } = await openStore();
        const s = await space();
        const bus = await s.connect();
        const projects = [(await seedProject(core, [])).projectId, (await seedProject(core, [])).projectId];
        for (let round = 0; round < 6; round++) for (const p of projects) await append(store, p, round + 1);
        const rec = recorder();
        await (await s.connect()).subscribe({ group: 'indexer', handle: rec.handle });
        let published = 0;
        const relay = createOutboxRelay({ store, bus, clock, batchSize: 4, onPublished: (n) => (published += n) });
        await relay.drain();
        const expected = await Promise.all(projects.map((p) => latest(store, p)));
        await waitFor('every committed event applied', () => rec.count() === expected[0]! + expected[1]!, timeoutMs);
        projects.forEach((p, i) => expect(rec.applied(p)).toEqual(range(1, expected[i]!)));
        expect(published).toBe(expected[0]! + expected[1]!);
        expect(await store.transaction((tx) => tx.outboxRelay.pending())).toEqual({ events: 0, oldestAt: null });

        // Another relay (a restart) finds nothing left to publish, then relays only new commits.
        let republished = 0;
        const next = createOutboxRelay({ store, bus, clock, onPublished: (n) => (republished += n) });
        await next.drain();
        expect(republished).toBe(0);
        await append(store, projects[0]!, 3);
        expect((await store.transaction((tx) => tx.outboxRelay.pending())).events).toBe(3);
        await next.drain();
        expect(republished).toBe(3);
        await waitFor('the new events applied', () => rec.applied(projects[0]!).length === expected[0]! + 3, timeoutMs);
      });

      it('lets relays share a store: concurrent writers and relays lose and reorder nothing', async () => {
        const { store, clock, core } = await openStore();
        const s = await space();
        const projects = await Promise.all(range(1, 4).map(async () => (await seedProject(core, [])).projectId));
        const rec = recorder();
        await (await s.connect()).subscribe({ group: 'indexer', handle: rec.handle });
        const relays = [
          createOutboxRelay({ store, bus: await s.connect(), clock, batchSize: 3, intervalMs: 10 }),
          createOutboxRelay({ store, bus: await s.connect(), clock, batchSize: 5, intervalMs: 10 }),
        ];
        relays.forEach((r) => r.start());
        await Promise.all(
          projects.map(async (p) => {
            for (let i = 0; i < 10; i++) await append(store, p, 1 + (i % 3));
          }),
        );
        const expected = await Promise.all(projects.map((p) => latest(store, p)));
        await waitFor(
          'every event applied',
          () => projects.every((p, i) => rec.applied(p).length === expected[i]),
          timeoutMs,
        );
        await Promise.all(relays.map((r) => r.stop()));
        projects.forEach((p, i) => expect(rec.applied(p)).toEqual(range(1, expected[i]!)));
        expect(rec.problems).toEqual([]);
      });

      it('takes over from a relay that died mid-publish once its lease expires, publishing again from what was recorded', async () => {
        const { store, clock, core } = await openStore();
        const s = await space();
        const bus = await s.connect();
        const { projectId } = await seedProject(core, []);
        await append(store, projectId, 12);
        const total = await latest(store, projectId);
        const rec = recorder();
        await (await s.connect()).subscribe({ group: 'indexer', handle: rec.handle });

        // The first relay publishes one batch, records it, publishes the next and then hangs, as a
        // process killed between a publish and its record would.
        let publishes = 0;
        const stuck: EventBus = {
          ...bus,
          publish: async (events) => {
            await bus.publish(events);
            if (++publishes === 2) await new Promise(() => undefined);
          },
        };
        const dying = createOutboxRelay({ store, bus: stuck, clock, batchSize: 5, leaseMs: 60_000 });
        void dying.drain();
        await waitFor('two batches published', () => publishes === 2, timeoutMs);
        let taken = 0;
        const heir = createOutboxRelay({ store, bus, clock, leaseMs: 60_000, onPublished: (n) => (taken += n) });
        await heir.drain();
        expect(taken).toBe(0); // the lease still holds
        clock.advance(61_000);
        await heir.drain();
        expect(taken).toBe(total - 5); // from the recorded seq 5: the unrecorded batch again, and the rest
        await waitFor('every event applied', () => rec.applied(projectId).length === total, timeoutMs);
        expect(rec.applied(projectId)).toEqual(range(1, total));
        expect(rec.received.filter((e) => e.seq === 6).length).toBe(2);
      });
    });
  });
}

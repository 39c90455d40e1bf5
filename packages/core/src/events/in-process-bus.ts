import type { ChangeEvent } from '../domain/change-event.ts';
import type { EventBus, EventHandler, EventSubscription } from '../ports/event-bus.ts';

export interface InProcessBusOptions {
  /** Partitions; a project's events all go to one (by a hash of its id). Default 8. */
  readonly partitions?: number;
  /** At most this many events per handler call. Default 500. */
  readonly batchSize?: number;
  /** Wait before a failed handler call is tried again. Default 200 ms. */
  readonly retryDelayMs?: number;
  /**
   * Events held per partition before the oldest are dropped even if a group has not handled them
   * (a consumer that fell this far behind catches up from the outbox instead). Default 100,000.
   */
  readonly maxHeld?: number;
}

interface Member {
  readonly handle: EventHandler;
  /** Handler calls under way (one per partition at most), so `stop` can wait for them. */
  readonly inFlight: Set<Promise<unknown>>;
}

interface Group {
  /** Next offset to hand out, per partition. */
  readonly committed: number[];
  readonly members: Member[];
}

/** The FNV-1a hash of a string, for a stable partition per project. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The event bus of the embedded shape: partitioned logs in memory, with consumer groups and
 * committed offsets, so it behaves like the Kafka adapter within one process (same contract
 * suite). It holds nothing across restarts: the outbox is the durable log, and consumers catch up
 * from it when they start.
 */
export function createInProcessBus(options: InProcessBusOptions = {}): EventBus {
  const partitionCount = options.partitions ?? 8;
  const batchSize = options.batchSize ?? 500;
  const retryDelayMs = options.retryDelayMs ?? 200;
  const maxHeld = options.maxHeld ?? 100_000;
  const logs: ChangeEvent[][] = Array.from({ length: partitionCount }, () => []);
  /** Offset of each log's first held event. */
  const bases: number[] = new Array<number>(partitionCount).fill(0);
  const groups = new Map<string, Group>();
  let isClosed = false;
  let signal = Promise.withResolvers<void>();

  const notify = () => {
    signal.resolve();
    signal = Promise.withResolvers<void>();
  };
  const end = (p: number) => bases[p]! + logs[p]!.length;

  /** Drops what every group has handled, and what is beyond `maxHeld`. */
  const trim = (p: number) => {
    const handledByAll = groups.size === 0 ? bases[p]! : Math.min(...[...groups.values()].map((g) => g.committed[p]!));
    const keepFrom = Math.max(handledByAll, end(p) - maxHeld);
    const drop = keepFrom - bases[p]!;
    if (drop <= 0) return;
    logs[p]!.splice(0, drop);
    bases[p] = keepFrom;
  };

  /** The next run of one project's events at the group's offset in partition p, and its end. */
  const nextRun = (group: Group, p: number): { run: ChangeEvent[]; to: number } => {
    const from = Math.max(group.committed[p]!, bases[p]!);
    const held = logs[p]!.slice(from - bases[p]!, from - bases[p]! + batchSize);
    // A run ends where the project changes or its sequence goes back (a republish): each delivery
    // is one project's events, ascending.
    const run: ChangeEvent[] = [];
    for (const event of held) {
      const previous = run.at(-1);
      if (previous && (event.projectId !== previous.projectId || event.seq <= previous.seq)) break;
      run.push(event);
    }
    return { run, to: from + run.length };
  };

  /** One worker per group and partition: partitions are handed out round-robin over members. */
  const work = async (group: Group, p: number) => {
    while (!isClosed) {
      const wake = signal.promise;
      const member = group.members.length > 0 ? group.members[p % group.members.length] : undefined;
      const { run, to } = member ? nextRun(group, p) : { run: [], to: 0 };
      if (!member || run.length === 0) {
        await wake;
        continue;
      }
      const call = member.handle(run).then(
        () => true,
        () => false,
      );
      member.inFlight.add(call);
      const isHandled = await call;
      member.inFlight.delete(call);
      if (isHandled) {
        group.committed[p] = Math.max(group.committed[p]!, to);
        trim(p);
      } else await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
    }
  };

  const groupNamed = (name: string): Group => {
    let group = groups.get(name);
    if (!group) {
      group = { committed: [...bases], members: [] };
      groups.set(name, group);
      for (let p = 0; p < partitionCount; p++) void work(group, p);
    }
    return group;
  };

  return {
    publish(events) {
      if (isClosed) return Promise.reject(new Error('The event bus is closed.'));
      const projectId = events[0]?.projectId;
      if (projectId === undefined) return Promise.resolve();
      if (events.some((e) => e.projectId !== projectId))
        return Promise.reject(new Error('One publish carries the events of one project.'));
      const p = hash(projectId) % partitionCount;
      logs[p]!.push(...events);
      trim(p);
      notify();
      return Promise.resolve();
    },
    subscribe({ group: name, handle }) {
      if (isClosed) return Promise.reject(new Error('The event bus is closed.'));
      const group = groupNamed(name);
      const member: Member = { handle, inFlight: new Set() };
      group.members.push(member);
      notify();
      const subscription: EventSubscription = {
        async stop() {
          const at = group.members.indexOf(member);
          if (at >= 0) group.members.splice(at, 1);
          notify();
          await Promise.all(member.inFlight);
        },
      };
      return Promise.resolve(subscription);
    },
    lag(name) {
      const group = groups.get(name);
      let lag = 0;
      for (let p = 0; p < partitionCount; p++) lag += end(p) - Math.max(group?.committed[p] ?? 0, bases[p]!);
      return Promise.resolve(lag);
    },
    async close() {
      isClosed = true;
      notify();
      await Promise.all([...groups.values()].flatMap((g) => g.members.flatMap((m) => [...m.inFlight])));
    },
  };
}

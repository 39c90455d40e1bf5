import type { ChangeEvent } from '../domain/change-event.ts';
import type { EventBus, EventSubscription } from '../ports/event-bus.ts';
import type { Store } from '../ports/store.ts';
import type { SerialQueue } from '../serial-queue.ts';

/**
 * The loop every change-event consumer shares (the delivery indexer, the recommendation consumer,
 * the webhook worker): catch every project up from the outbox, then handle the events of the bus
 * in the consumer's group until stopped. What a consumer does with events — read them after its
 * watermark, apply, advance — is its `catchUpProject` and `handle`.
 */
export interface ChangeConsumer {
  /** Catches up the project from the outbox (every project when omitted). */
  catchUp(projectId?: string): Promise<void>;
  /** Catches every project up, then joins the consumer group (when there is a bus). */
  start(): Promise<void>;
  /** Leaves the group; resolves when the work under way is done. */
  stop(): Promise<void>;
}

export interface ChangeConsumerOptions {
  /** The consumer's name in errors: `createIndexer`. */
  readonly name: string;
  readonly store: Store;
  readonly bus?: EventBus | undefined;
  /** Without a bus, `start` only catches up; else it throws. */
  readonly isBusOptional?: boolean;
  readonly group: string;
  catchUpProject(projectId: string): Promise<unknown>;
  /** Events of one project, ascending (at-least-once: may repeat events already applied). */
  handle(events: readonly ChangeEvent[]): Promise<void>;
  /** When given, catch-ups and handled deliveries run through it, one at a time. */
  readonly passes?: SerialQueue;
  /** Called with a failed delivery's error before it is rethrown (the bus delivers it again). */
  readonly onError?: ((error: unknown) => void) | undefined;
}

export function createChangeConsumer(options: ChangeConsumerOptions): ChangeConsumer {
  const { store, passes } = options;
  let subscription: EventSubscription | null = null;
  const serial = <T>(work: () => Promise<T>): Promise<T> => (passes ? passes.run(work) : work());

  const catchUp = (projectId?: string) =>
    serial(async () => {
      const ids =
        projectId !== undefined ? [projectId] : (await store.transaction((tx) => tx.projects.list())).map((p) => p.id);
      for (const id of ids) await options.catchUpProject(id);
    });

  return {
    catchUp,
    async start() {
      const { bus } = options;
      if (!bus && options.isBusOptional !== true) throw new Error(`${options.name}: start needs an event bus.`);
      if (subscription) return;
      await catchUp();
      if (!bus) return;
      subscription = await bus.subscribe({
        group: options.group,
        handle: (events) =>
          serial(() => options.handle(events)).catch((error: unknown) => {
            options.onError?.(error);
            throw error;
          }),
      });
    },
    async stop() {
      await subscription?.stop();
      subscription = null;
      await passes?.idle();
    },
  };
}

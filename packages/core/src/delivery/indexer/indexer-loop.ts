import type { CoreDeps } from '../../deps.ts';
import { createChangeConsumer, type ChangeConsumer } from '../../events/change-consumer.ts';
import type { EventBus } from '../../ports/event-bus.ts';
import { createSerialQueue } from '../../serial-queue.ts';
import { indexEvents, indexProject, rebuildProject } from './indexer.ts';
import type { DeliveryIndexWriter } from './writer-port.ts';

/**
 * The delivery indexer: `catchUp` applies every pending event of the project (of every project
 * when omitted), resolving when the watermark has reached the latest sequence committed before the
 * call; `start` catches every project up, then consumes the bus in group `group` until `stop`.
 */
export interface Indexer extends ChangeConsumer {
  /** Drops the index of the project (every project when omitted) and indexes everything again. */
  rebuild(options?: {
    projectId?: string;
    /** After each project: projects done and their total. */
    onProgress?: (done: number, total: number) => void;
    /** After each part of a project's re-render: its items done and their total. */
    onItems?: (done: number, total: number) => void;
  }): Promise<void>;
}

export interface IndexerOptions {
  readonly core: CoreDeps;
  readonly index: DeliveryIndexWriter;
  /** Public URL prefix of asset binaries: `<management origin>/assets`. */
  readonly assetsBase: string;
  /** Where change events come from once started (not needed for catch-up and rebuild). */
  readonly bus?: EventBus;
  /** Consumer group on the bus. Default `lectern-indexer`. */
  readonly group?: string;
  /** Called with the new watermark after each applied batch. */
  readonly onBatch?: (projectId: string, watermark: number) => void;
  /** Items per part of a large re-render (default 500). */
  readonly partSize?: number;
  readonly onError?: (error: unknown) => void;
}

/**
 * The indexer (DESIGN services): applies change events to the delivery index. Catch-up and
 * rebuild read the outbox; a started indexer consumes the event bus, applying only events newer
 * than each project's watermark (delivery is at-least-once) and filling gaps from the outbox.
 */
export function createIndexer(options: IndexerOptions): Indexer {
  const { core, index } = options;
  const passes = createSerialQueue();

  const projectIds = async (projectId?: string) =>
    projectId !== undefined ? [projectId] : (await core.store.transaction((tx) => tx.projects.list())).map((p) => p.id);

  const target = (projectId: string, onItems?: (done: number, total: number) => void) => ({
    store: core.store,
    writer: index,
    projectId,
    assetsBase: options.assetsBase,
    onBatch: (watermark: number) => options.onBatch?.(projectId, watermark),
    ...(options.partSize === undefined ? {} : { partSize: options.partSize }),
    ...(onItems === undefined ? {} : { onProgress: onItems }),
  });

  /** Passes run one at a time: a catch-up waits for the pass under way, then runs its own. */
  const consumer = createChangeConsumer({
    name: 'createIndexer',
    store: core.store,
    bus: options.bus,
    group: options.group ?? 'lectern-indexer',
    passes,
    catchUpProject: (projectId) => indexProject(target(projectId)),
    async handle(events) {
      const projectId = events[0]?.projectId;
      if (projectId !== undefined) await indexEvents({ ...target(projectId), events });
    },
    onError: options.onError,
  });

  return {
    catchUp: consumer.catchUp,
    rebuild: (o = {}) =>
      passes.run(async () => {
        const ids = await projectIds(o.projectId);
        let done = 0;
        o.onProgress?.(done, ids.length);
        for (const id of ids) {
          await rebuildProject(target(id, o.onItems));
          o.onProgress?.(++done, ids.length);
        }
      }),
    start: consumer.start,
    stop: consumer.stop,
  };
}

import { indexProject, rebuildProject, type CoreDeps, type DeliveryIndexWriter } from '@lectern/core';

export interface Indexer {
  /**
   * Applies every pending event of the project (of every project when omitted); resolves when the
   * watermark has reached the latest sequence committed before the call.
   */
  catchUp(projectId?: string): Promise<void>;
  /** Drops the index of the project (every project when omitted) and indexes everything again. */
  rebuild(options?: { projectId?: string; onProgress?: (done: number, total: number) => void }): Promise<void>;
  /** Polls the outbox every `intervalMs` until `stop`. */
  start(): void;
  /** Runs a pass soon (after a write), without waiting for the next poll. */
  wake(): void;
  /** Stops polling; resolves when the pass under way has finished. */
  stop(): Promise<void>;
}

export interface IndexerOptions {
  readonly core: CoreDeps;
  readonly index: DeliveryIndexWriter;
  /** Public URL prefix of asset binaries: `<management origin>/assets`. */
  readonly assetsBase: string;
  /** Poll interval (milliseconds). */
  readonly intervalMs?: number;
  readonly onError?: (error: unknown) => void;
}

/** The in-process indexer of the embedded shape: drains the outbox into the delivery index. */
export function createIndexer(options: IndexerOptions): Indexer {
  const { core, index } = options;
  const intervalMs = options.intervalMs ?? 200;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let isStarted = false;

  const projectIds = async (projectId?: string) =>
    projectId !== undefined ? [projectId] : (await core.store.transaction((tx) => tx.projects.list())).map((p) => p.id);

  /** Passes run one at a time: a catch-up waits for the pass under way, then runs its own. */
  const exclusive = (work: () => Promise<void>): Promise<void> => {
    const next = running.then(work, work);
    running = next.catch(() => undefined);
    return next;
  };

  const pass = (projectId?: string) =>
    exclusive(async () => {
      for (const id of await projectIds(projectId))
        await indexProject({ store: core.store, writer: index, projectId: id, assetsBase: options.assetsBase });
    });

  const schedule = (delay: number) => {
    if (!isStarted) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      pass()
        .catch((error: unknown) => options.onError?.(error))
        .finally(() => schedule(intervalMs));
    }, delay);
  };

  return {
    catchUp: (projectId) => pass(projectId),
    rebuild: (o = {}) =>
      exclusive(async () => {
        const ids = await projectIds(o.projectId);
        let done = 0;
        o.onProgress?.(done, ids.length);
        for (const id of ids) {
          await rebuildProject({ store: core.store, writer: index, projectId: id, assetsBase: options.assetsBase });
          o.onProgress?.(++done, ids.length);
        }
      }),
    start() {
      if (isStarted) return;
      isStarted = true;
      schedule(0);
    },
    wake() {
      schedule(0);
    },
    async stop() {
      isStarted = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}

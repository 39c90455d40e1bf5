import { setTimeout as sleep } from 'node:timers/promises';
import { randomIds, systemClock, type Store } from '@lectern/core';
import { newChangeEvent, range, seedProject } from '@lectern/testing';

/** Creates `count` projects in the store; their outboxes start empty. */
export function seedProjects(store: Store, count: number): Promise<string[]> {
  const core = { store, clock: systemClock, ids: randomIds };
  return Promise.all(range(1, count).map(async () => (await seedProject(core, [])).projectId));
}

/**
 * One writer per project that keeps committing 1–3 events to the project's outbox, pausing
 * `pauseMs` between commits, until `stop` (which resolves once every writer has finished).
 */
export function startWriters(store: Store, projects: readonly string[], pauseMs: number) {
  let isWriting = true;
  let commits = 0;
  const writers = projects.map(async (projectId) => {
    while (isWriting) {
      const events = range(1, 1 + (commits % 3)).map(newChangeEvent);
      await store.transaction((tx) => tx.outbox.append(projectId, events, new Date()));
      commits += 1;
      await sleep(pauseMs);
    }
  });
  return {
    commits: () => commits,
    async stop() {
      isWriting = false;
      await Promise.all(writers);
    },
  };
}

/** Committed events no relay has published yet. */
export async function pendingEvents(store: Store): Promise<number> {
  return (await store.transaction((tx) => tx.outboxRelay.pending())).events;
}

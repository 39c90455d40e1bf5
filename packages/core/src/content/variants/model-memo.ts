import type { UnitOfWork } from '../../ports/store.ts';

/** At most this many projects' models are kept per store (the least recently read go first). */
const maxProjects = 1_000;
/** At most this many reads of one project's model are kept (languages, types, snippets, …). */
const maxEntries = 5_000;

interface ProjectModel {
  readonly version: string;
  readonly entries: Map<string, unknown>;
}

/**
 * The model reads of one project shared by the transactions of one store (issue 35: a variant
 * upsert read its language and its type, with snippets, on every request), for one model
 * version.
 *
 * Contract: `version` is the project's model version read by this transaction in a statement
 * that came before any model read it memoises (`items.findForWrite`). Every commit that changes
 * the project's model gives it a version never seen before, so a copy is only ever used by
 * transactions whose first statement ran before the next model change committed: they see the
 * model as today at least as new as at their start, and a request that starts after a change
 * never gets an older copy. A transaction that wrote the model itself gets no version (the store
 * answers null), so uncommitted model rows are never shared. Values are frozen: shared between
 * requests, they must never be changed.
 */
export function projectModelMemo(
  tx: UnitOfWork,
  projectId: string,
  version: string | null,
): Map<string, unknown> | null {
  const memo = tx.memo;
  if (memo === undefined || version === null) return null;
  let projects = memo.get('content-model') as Map<string, ProjectModel> | undefined;
  if (projects === undefined) {
    projects = new Map();
    memo.set('content-model', projects);
  }
  let model = projects.get(projectId);
  if (model !== undefined) projects.delete(projectId);
  if (model?.version !== version) model = { version, entries: new Map() };
  projects.set(projectId, model);
  if (projects.size > maxProjects) projects.delete(projects.keys().next().value as string);
  return model.entries;
}

/** Keeps `value` (frozen) in `entries` unless it is null or the project's memo is full. */
export function remember(entries: Map<string, unknown>, key: string, value: unknown): void {
  if (value !== null && entries.size < maxEntries) entries.set(key, deepFreeze(value));
}

/** Freezes `value` and everything it holds (a shared model read must never change). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

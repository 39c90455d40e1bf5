import type { Store, UnitOfWork } from '../../packages/core/src/index.ts';

/**
 * The same store with the version history's repository a no-op: the write path as it was before
 * the history (bench:history and bench:governance-writes compare with it; no setting turns the
 * history off in a deployment).
 */
export function withoutHistory(store: Store): Store {
  const none: UnitOfWork['history'] = {
    latest: () => Promise.resolve(null),
    insert: () => Promise.resolve(),
    get: () => Promise.resolve(null),
    range: () => Promise.resolve([]),
    page: () => Promise.resolve({ rows: [], next: null }),
    markRestore: () => Promise.resolve(),
    variantsToPrune: () => Promise.resolve([]),
    rewrite: () => Promise.resolve(),
    delete: () => Promise.resolve(0),
  };
  return { ...store, transaction: (work) => store.transaction((tx) => work({ ...tx, history: none })) };
}

import type { Store, UnitOfWork } from '@lectern/core';

/** A Store that counts the repository calls (each one query) made through it, by `repository.method`. */
export interface CountingStore extends Store {
  /** Calls since the last `reset`, by `repository.method`. */
  readonly calls: Map<string, number>;
  /** The number of calls to the repositories named (all when none), since the last `reset`. */
  count(...repositories: string[]): number;
  reset(): void;
}

export function countingStore(store: Store): CountingStore {
  const calls = new Map<string, number>();
  const wrap = (tx: UnitOfWork): UnitOfWork =>
    new Proxy(tx, {
      get(target, repository: string) {
        const repo = target[repository as keyof UnitOfWork] as unknown as Record<string, unknown>;
        return new Proxy(repo, {
          get(r, method: string) {
            const value = r[method];
            if (typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              const name = `${repository}.${method}`;
              calls.set(name, (calls.get(name) ?? 0) + 1);
              return (value as (...a: unknown[]) => unknown).apply(r, args);
            };
          },
        });
      },
    });
  return {
    calls,
    count: (...repositories) =>
      [...calls]
        .filter(([name]) => repositories.length === 0 || repositories.includes(name.split('.')[0] as string))
        .reduce((sum, [, n]) => sum + n, 0),
    reset: () => calls.clear(),
    transaction: (work) => store.transaction((tx) => work(wrap(tx))),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}

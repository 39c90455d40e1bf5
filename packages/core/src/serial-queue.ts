/** Runs async work one call at a time, in call order. */
export interface SerialQueue {
  /** Runs `work` once every call queued before it has settled; a failure does not block later calls. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Resolves once every call queued so far has settled. */
  idle(): Promise<void>;
}

export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run(work) {
      const next = tail.then(work, work);
      tail = next.catch(() => undefined);
      return next;
    },
    idle: () => tail.then(() => undefined),
  };
}

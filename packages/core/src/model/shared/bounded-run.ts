import { createContext, Script } from 'node:vm';

/*
 * A CPU guard of last resort for work whose cost a request chooses (a model-defined regex): the
 * task runs synchronously on this thread, but under V8's watchdog, which terminates it once it
 * has run `timeoutMs`. V8 interrupts JavaScript and its own regex engine alike, so a task that
 * would hold the event loop for minutes gives up after the timeout instead. A terminated task may
 * leave the objects it was using half-updated: the caller must drop them (e.g. a compiled pattern
 * from a cache). Costs about a third of a millisecond per call.
 */

const sandbox = createContext({ task: null as (() => unknown) | null, result: undefined as unknown });
const runTask = new Script('result = task(); task = null;');

export type BoundedResult<T> = { readonly isDone: true; readonly value: T } | { readonly isDone: false };

/** Runs `task` and returns its value, or `{ isDone: false }` when it ran out of time. Its errors propagate. */
export function runBounded<T>(task: () => T, timeoutMs: number): BoundedResult<T> {
  const state = sandbox as { task: (() => unknown) | null; result: unknown };
  state.task = task;
  try {
    runTask.runInContext(sandbox, { timeout: timeoutMs });
    return { isDone: true, value: state.result as T };
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { isDone: false };
    throw error;
  } finally {
    state.task = null;
    state.result = undefined;
  }
}

import { fixedAuditScope, runAudited } from '../audit/audit-context.ts';
import type { CoreDeps } from '../deps.ts';
import type { UnitOfWork } from '../ports/store.ts';
import type { BackgroundTask, BackgroundTaskKind } from './background-task.ts';

/** What one step of a task leaves behind: where the next step starts, and the progress so far. */
export interface TaskStep {
  readonly state: Record<string, unknown>;
  readonly done: number;
  readonly total: number;
}

export interface TaskContext {
  /** The task as claimed: `state` is where the last committed step left it. */
  readonly task: BackgroundTask;
  /**
   * Runs `work` and records what it returns in one transaction, only while this runner still
   * holds the task; otherwise rolls back and throws TaskLeaseLost (another runner continues).
   */
  step(work: (tx: UnitOfWork) => Promise<TaskStep>): Promise<TaskStep>;
}

/** How one kind of task is done. `run` must continue from `ctx.task.state` (a resumed run). */
export interface TaskHandler {
  run(deps: CoreDeps, ctx: TaskContext): Promise<void>;
  /** Shows a failure where users read the outcome (in the same terms as the task's API). */
  fail(deps: CoreDeps, task: BackgroundTask): Promise<void>;
}

/** Thrown by `step` when the lease passed to another runner; the run stops without a trace. */
export class TaskLeaseLost extends Error {
  constructor(taskId: string) {
    super(`Another runner took over background task ${taskId}.`);
    this.name = 'TaskLeaseLost';
  }
}

export interface TaskRunnerOptions {
  /** Handlers by task kind. */
  readonly handlers: Readonly<Record<BackgroundTaskKind, TaskHandler>>;
  /** Names this runner in leases (unique per process). */
  readonly runnerId: string;
  /** How long a claim or a step holds the task (ms; default 30 000); must exceed the longest step. */
  readonly leaseMs?: number;
  /** A task claimed more often than this fails (it keeps stopping its runners; default 3). */
  readonly maxAttempts?: number;
  /** At most this many tasks per call (default 10). */
  readonly limit?: number;
  /** Hears a task that failed (task) or a claim that could not be made (null). */
  readonly onError?: (error: unknown, task: BackgroundTask | null) => void;
}

const dayMs = 24 * 3_600_000;

async function runOne(deps: CoreDeps, options: TaskRunnerOptions, task: BackgroundTask, owner: string): Promise<void> {
  const leaseMs = options.leaseMs ?? 30_000;
  const handler = options.handlers[task.kind];
  const end = async (status: 'finished' | 'failed', error: string | null) =>
    deps.store.transaction((tx) =>
      tx.backgroundTasks.complete({ id: task.id, owner, status, error, now: deps.clock.now() }),
    );
  if (task.attempts > (options.maxAttempts ?? 3)) {
    if (await end('failed', 'The task stopped its runners too often.')) await handler.fail(deps, task);
    return;
  }
  const ctx: TaskContext = {
    task,
    step: (work) =>
      deps.store.transaction(async (tx) => {
        const next = await work(tx);
        const now = deps.clock.now();
        const held = await tx.backgroundTasks.advance({
          id: task.id,
          owner,
          state: next.state,
          progress: { done: next.done, total: next.total },
          now,
          leaseUntil: new Date(now.getTime() + leaseMs),
        });
        if (!held) throw new TaskLeaseLost(task.id);
        return next;
      }),
  };
  try {
    // A task's changes are audited as the background task's (the request that queued it has its own entry).
    await runAudited(fixedAuditScope({ via: 'task', actor: null, requestId: task.id }), () => handler.run(deps, ctx));
    await end('finished', null);
  } catch (error) {
    if (error instanceof TaskLeaseLost) return;
    if (await end('failed', error instanceof Error ? error.message : String(error))) await handler.fail(deps, task);
    options.onError?.(error, task);
  }
}

/**
 * Claims and runs open background tasks one after the other: queued ones, and running ones whose
 * runner stopped (lease ended): those continue from their last committed step. Any number of
 * runners may share a store; a task is held by one at a time. Ended tasks older than 7 days are
 * deleted. Returns how many tasks were run.
 */
export async function runBackgroundTasks(deps: CoreDeps, options: TaskRunnerOptions): Promise<number> {
  const leaseMs = options.leaseMs ?? 30_000;
  let ran = 0;
  for (let i = 0; i < (options.limit ?? 10); i++) {
    const owner = `${options.runnerId}/${deps.ids.uuid()}`;
    const task = await deps.store.transaction((tx) => {
      const now = deps.clock.now();
      return tx.backgroundTasks.claim({ owner, now, leaseUntil: new Date(now.getTime() + leaseMs) });
    });
    if (!task) break;
    await runOne(deps, options, task, owner);
    ran += 1;
  }
  if (ran > 0)
    await deps.store.transaction((tx) => tx.backgroundTasks.prune(new Date(deps.clock.now().getTime() - 7 * dayMs)));
  return ran;
}

export interface TaskRunner {
  /** Looks for tasks now (a request just queued one) instead of at the next interval. */
  wake(): void;
  /** Stops looking and waits for the task in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `runBackgroundTasks` every `intervalMs` (default 1 s) and on `wake`, never two at once
 * within this process (other processes run their own runner against the same store).
 */
export function startTaskRunner(deps: CoreDeps, options: TaskRunnerOptions & { intervalMs?: number }): TaskRunner {
  let running: Promise<void> | null = null;
  let isAgain = false;
  const tick = (): void => {
    if (running) {
      isAgain = true;
      return;
    }
    running = runBackgroundTasks(deps, options)
      .then(
        () => undefined,
        (error: unknown) => options.onError?.(error, null),
      )
      .finally(() => {
        running = null;
        if (isAgain && !isStopped) {
          isAgain = false;
          tick();
        }
      });
  };
  let isStopped = false;
  const timer = setInterval(tick, options.intervalMs ?? 1_000);
  timer.unref();
  return {
    wake() {
      if (!isStopped) setImmediate(tick);
    },
    async stop() {
      isStopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

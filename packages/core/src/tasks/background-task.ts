/*
 * Background tasks: work a request starts and any process finishes (content validation,
 * environment cloning). The task row is the truth: its status, its progress and the `state` a
 * resumed run continues from. A runner holds a task under a lease; a runner that stops lets the
 * lease run out and another runner claims the task and continues from the last committed step.
 */

export type BackgroundTaskKind = 'validation' | 'clone_environment';
export type BackgroundTaskStatus = 'queued' | 'running' | 'finished' | 'failed';

export interface BackgroundTask {
  readonly id: string;
  /** The project the task works in (the validated environment; the clone). */
  readonly projectId: string;
  readonly kind: BackgroundTaskKind;
  /** What the request asked for, as the kind's handler reads it. */
  readonly input: Readonly<Record<string, unknown>>;
  /** Where the work stands: the handler's own record, committed with each step. */
  readonly state: Readonly<Record<string, unknown>>;
  readonly status: BackgroundTaskStatus;
  readonly progress: { readonly done: number; readonly total: number };
  /** How many times a runner claimed it (a task claimed too often fails). */
  readonly attempts: number;
  readonly leaseOwner: string | null;
  readonly leaseUntil: Date | null;
  readonly error: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface NewBackgroundTask {
  readonly id: string;
  readonly projectId: string;
  readonly kind: BackgroundTaskKind;
  readonly input: Record<string, unknown>;
  readonly createdAt: Date;
}

/** Stored background tasks, shared by every process on the store. */
export interface BackgroundTaskRepository {
  /** Adds a queued task. */
  insert(task: NewBackgroundTask): Promise<void>;
  get(id: string): Promise<BackgroundTask | null>;
  /**
   * The oldest task that is queued, or running under a lease that ended before `now`, leased to
   * `owner` until `leaseUntil` (status running, attempts + 1); tasks another transaction is
   * claiming or advancing are skipped. Null when there is none.
   */
  claim(input: { owner: string; now: Date; leaseUntil: Date }): Promise<BackgroundTask | null>;
  /**
   * Records the state and progress and extends the lease, only while `owner` holds the task.
   * False when it does not (another runner took it over): the caller must roll back.
   */
  advance(input: {
    id: string;
    owner: string;
    state: Record<string, unknown>;
    progress: { done: number; total: number };
    now: Date;
    leaseUntil: Date;
  }): Promise<boolean>;
  /** Ends the task (finished or failed, with the error's text), only while `owner` holds it. */
  complete(input: {
    id: string;
    owner: string;
    status: 'finished' | 'failed';
    error: string | null;
    now: Date;
  }): Promise<boolean>;
  /** Deletes ended tasks last changed before `before`; returns how many. */
  prune(before: Date): Promise<number>;
}

import { LecternError } from '@lectern/errors';
import { validationTaskHandler } from '../content/validation/tasks.ts';
import type { Actor } from '../domain/actor.ts';
import { isUuid } from '../domain/uuid.ts';
import type { CoreDeps } from '../deps.ts';
import { requireOperator } from '../operations/require-operator.ts';
import { cloneTaskHandler } from '../operations/clone-task.ts';
import type { BackgroundTask, BackgroundTaskKind } from './background-task.ts';
import { startTaskRunner, type TaskHandler, type TaskRunner, type TaskRunnerOptions } from './task-runner.ts';

export type {
  BackgroundTask,
  BackgroundTaskKind,
  BackgroundTaskRepository,
  BackgroundTaskStatus,
  NewBackgroundTask,
} from './background-task.ts';
export {
  runBackgroundTasks,
  startTaskRunner,
  TaskLeaseLost,
  type TaskContext,
  type TaskHandler,
  type TaskRunner,
  type TaskRunnerOptions,
  type TaskStep,
} from './task-runner.ts';

/** How each kind of background task is done. */
export const backgroundTaskHandlers: Readonly<Record<BackgroundTaskKind, TaskHandler>> = {
  validation: validationTaskHandler,
  clone_environment: cloneTaskHandler,
};

/** A runner of every kind of background task (`startTaskRunner` with `backgroundTaskHandlers`). */
export function startBackgroundTasks(
  deps: CoreDeps,
  options: Omit<TaskRunnerOptions, 'handlers'> & { intervalMs?: number },
): TaskRunner {
  return startTaskRunner(deps, { ...options, handlers: backgroundTaskHandlers });
}

/** One background task with its progress, for the operator (the CLI's progress counter). */
export async function getBackgroundTask(
  deps: CoreDeps,
  input: { actor: Actor; taskId: string },
): Promise<BackgroundTask> {
  requireOperator(input.actor);
  const task = isUuid(input.taskId)
    ? await deps.store.transaction((tx) => tx.backgroundTasks.get(input.taskId.toLowerCase()))
    : null;
  if (!task)
    throw new LecternError('BACKGROUND_TASK_NOT_FOUND', {
      message: `No background task has the id '${input.taskId}'.`,
    });
  return task;
}

import { fixedAuditScope, runAudited } from '../../audit/audit-context.ts';
import type { CoreDeps } from '../../deps.ts';
import { operator } from '../../domain/actor.ts';
import { systemStepIds } from '../../model/defaults.ts';
import { isRetentionOn, pruneHistory, type HistoryRetention } from '../history/retention.ts';
import { loadVariant } from '../variants/load.ts';
import type { VariantRecord } from '../variants/variant-record.ts';
import type { ScheduledJob } from './scheduled-job.ts';
import { applyPublish, applyUnpublish } from './transitions.ts';

/** Whether the variant still waits for this job (the schedule may have been cancelled or replaced). */
function isCurrent(job: ScheduledJob, v: VariantRecord | null): v is VariantRecord {
  if (!v) return false;
  if (job.action === 'publish')
    return (
      v.stepId === systemStepIds.scheduled &&
      v.schedule.publish_time !== null &&
      Date.parse(v.schedule.publish_time) === job.dueAt.getTime()
    );
  return (
    v.published !== null &&
    v.schedule.unpublish_time !== null &&
    Date.parse(v.schedule.unpublish_time) === job.dueAt.getTime()
  );
}

/**
 * Runs every scheduled publish and unpublish due at the clock's now, one job per transaction.
 * Each job is claimed with `FOR UPDATE SKIP LOCKED` and deleted in the transaction that applies
 * it, so any number of processes may run this against one database and every job is applied
 * exactly once; a job outliving a crash is simply still a row. A job whose variant is gone or no
 * longer scheduled for that time is dropped unapplied. Returns how many jobs were applied.
 */
export async function runDueJobs(deps: CoreDeps, options: { limit?: number } = {}): Promise<number> {
  const limit = options.limit ?? 100;
  let applied = 0;
  for (let i = 0; i < limit; i++) {
    const outcome = await deps.store.transaction(async (tx) => {
      const now = deps.clock.now();
      const job = await tx.scheduledJobs.claimDue(now);
      if (!job) return 'none' as const;
      await tx.scheduledJobs.delete(job.id);
      const item = await tx.items.find(job.projectId, { id: job.itemId });
      if (!item) return 'dropped' as const;
      const loaded = await loadVariant(
        tx,
        { actor: operator, projectId: job.projectId, itemKey: { id: job.itemId }, languageKey: { id: job.languageId } },
        { isForUpdate: true },
      );
      if (!isCurrent(job, loaded.variant)) return 'dropped' as const;
      const current = { ...loaded, variant: loaded.variant, via: 'background_task' as const };
      if (job.action === 'publish') await applyPublish(tx, current, now);
      else await applyUnpublish(tx, current, now);
      return 'applied' as const;
    });
    if (outcome === 'none') break;
    if (outcome === 'applied') applied += 1;
  }
  return applied;
}

/**
 * Runs `runDueJobs` every `intervalMs` (default 5 s) until stopped; runs never overlap within
 * this process (other processes may run their own). `stop` waits for a run in progress.
 */
export function startScheduler(
  deps: CoreDeps,
  options: {
    intervalMs?: number;
    onError?: (error: unknown) => void;
    /** The version history's retention, applied every `historyIntervalMs` (default 10 min) when on. */
    history?: HistoryRetention;
    historyIntervalMs?: number;
  } = {},
): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let pruning: Promise<void> | null = null;
  const retention = options.history;
  const pruner =
    retention && isRetentionOn(retention)
      ? setInterval(() => {
          pruning ??= pruneHistory(deps, retention)
            .then(
              () => undefined,
              (error: unknown) => options.onError?.(error),
            )
            .finally(() => {
              pruning = null;
            });
        }, options.historyIntervalMs ?? 600_000)
      : null;
  pruner?.unref();
  const timer = setInterval(() => {
    running ??= runAudited(fixedAuditScope({ via: 'task', actor: null }), () => runDueJobs(deps))
      .then(
        () => undefined,
        (error: unknown) => options.onError?.(error),
      )
      .finally(() => {
        running = null;
      });
  }, options.intervalMs ?? 5_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      if (pruner) clearInterval(pruner);
      await running;
      await pruning;
    },
  };
}

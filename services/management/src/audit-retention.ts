import { pruneAuditLog, type CoreDeps } from '@lectern/core';
import type { Logger } from '@lectern/http-kit';

const dayMs = 86_400_000;

/**
 * LECTERN_AUDIT_KEEP_DAYS: deletes older audit entries now and once a day (several replicas may
 * each do it; the delete is idempotent). Unset: nothing is ever deleted. Returns the stop function.
 */
export function startAuditRetention(options: {
  core: CoreDeps;
  keepDays: number | undefined;
  logger: Logger;
}): () => void {
  const { keepDays } = options;
  if (keepDays === undefined) return () => undefined;
  const run = () => {
    pruneAuditLog(options.core, { keepDays }).then(
      (deleted) => {
        if (deleted > 0) options.logger.info({ deleted, keepDays }, 'audit log pruned');
      },
      (error: unknown) => options.logger.error({ err: error }, 'audit log pruning failed'),
    );
  };
  run();
  const timer = setInterval(run, dayMs);
  timer.unref();
  return () => clearInterval(timer);
}

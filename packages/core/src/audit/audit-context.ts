import { AsyncLocalStorage } from 'node:async_hooks';
import type { Actor } from '../domain/actor.ts';
import type { AuditInterface } from './audit-entry.ts';

/**
 * Who is acting, through which interface, in which request: set by each entry point around the
 * work it does (an HTTP request, a CLI command, a background task), read by the store when a
 * transaction that changed something commits. `actor` is read at that moment, so an entry point
 * may open the scope before it has authenticated the caller.
 */
export interface AuditScope {
  readonly via: AuditInterface;
  readonly requestId: string | null;
  actor(): Actor | null;
}

const storage = new AsyncLocalStorage<AuditScope>();

/** Runs `work` (and everything it starts) in `scope`. */
export function runAudited<T>(scope: AuditScope, work: () => T): T {
  return storage.run(scope, work);
}

/** The scope of the running work, if an entry point opened one. */
export function currentAuditScope(): AuditScope | undefined {
  return storage.getStore();
}

/** A scope with a fixed actor (CLI, tasks). */
export function fixedAuditScope(options: {
  via: AuditInterface;
  actor: Actor | null;
  requestId?: string | null;
}): AuditScope {
  return { via: options.via, requestId: options.requestId ?? null, actor: () => options.actor };
}

import type { Actor } from '../domain/actor.ts';
import type { CoreDeps } from '../deps.ts';
import { assertModelAccess } from '../model/shared/index.ts';
import type { WebhookHealth } from '../ports/webhooks.ts';
import { debugListWindowMs } from '../webhooks/webhooks.ts';
import { getProject } from './projects.ts';

/** What the console's project overview shows (issue 18): sizes, and the project's webhook queue. */
export interface ProjectOverview {
  readonly contentTypes: number;
  readonly items: number;
  /** Language variants with a published version. */
  readonly publishedVariants: number;
  /** The project's latest change event sequence. */
  readonly latestSeq: number;
  readonly webhooks: {
    readonly total: number;
    readonly enabled: number;
    readonly byHealth: Readonly<Record<WebhookHealth, number>>;
    /** Notifications waiting to be sent (first attempt or retry), over the project's webhooks. */
    readonly pending: number;
    /** Of those, the ones that already failed at least once. */
    readonly failing: number;
  };
}

/** For the operator or a management key of the project, like every content model read. */
export async function projectOverview(
  deps: CoreDeps,
  input: { actor: Actor; projectId: string },
): Promise<ProjectOverview> {
  await getProject(deps, input);
  assertModelAccess(input.actor, input.projectId);
  const since = new Date(deps.clock.now().getTime() - debugListWindowMs);
  return deps.store.transaction(async (tx) => {
    const { projectId } = input;
    const types = await tx.model.list(projectId, 'content_type');
    const items = await tx.items.list(projectId);
    const variants =
      items.length === 0
        ? []
        : await tx.variants.listByItems(
            projectId,
            items.map((i) => i.id),
          );
    const webhooks = await tx.webhooks.list(projectId);
    const byHealth: Record<WebhookHealth, number> = { unknown: 0, working: 0, failing: 0, dead: 0 };
    let pending = 0;
    let failing = 0;
    for (const w of webhooks) {
      byHealth[w.health] += 1;
      const queued = await tx.webhookQueue.list({ projectId, webhookId: w.id, since, filter: 'all', limit: 1000 });
      for (const n of queued.filter((q) => q.state === 'pending')) {
        pending += 1;
        if (n.hasFailed) failing += 1;
      }
    }
    return {
      contentTypes: types.length,
      items: items.length,
      publishedVariants: variants.filter((v) => v.published !== null).length,
      latestSeq: await tx.outbox.latestSeq(projectId),
      webhooks: {
        total: webhooks.length,
        enabled: webhooks.filter((w) => w.isEnabled).length,
        byHealth,
        pending,
        failing,
      },
    };
  });
}

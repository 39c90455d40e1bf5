import { LecternError } from '@lectern/errors';
import type { CoreDeps } from '../deps.ts';
import { isUuid } from '../domain/uuid.ts';
import { auditObject } from '../audit/audit-entry.ts';
import type { UnitOfWork } from '../ports/store.ts';
import type { NotificationFilter, WebhookFormat, WebhookNotification, WebhookRecord } from '../ports/webhooks.ts';
import { assertMayChange, assertModelAccess, isRecord, Problems, type ModelInput } from '../model/shared/index.ts';
import { readWebhookHeaders, readWebhookName, readWebhookSecret, readWebhookUrl } from './webhook-fields.ts';
import { readBoolean, readDeliveryTriggers, readLegacyTriggers } from './webhook-triggers.ts';

/*
 * Webhook registration (issue 13; management-api.md §2.11): `/webhooks-vnext` webhooks send the
 * current notification format, legacy `/webhooks` ones the SPEC 2.10 format. Each endpoint family
 * sees only its own webhooks. Reset and URL change (SPEC 3.1) are Lectern extensions.
 */

export type WebhookInput = ModelInput & { readonly format: WebhookFormat };
export type OneWebhookInput = WebhookInput & { readonly id: string };

/** How long the debug list looks back (SPEC 6.8). */
export const debugListWindowMs = 3 * 24 * 3_600_000;

/** The access check, then `work` in one transaction; the operator (CLI) may name a project that does not exist. */
async function inProject<T>(deps: CoreDeps, input: ModelInput, work: (tx: UnitOfWork) => Promise<T>): Promise<T> {
  assertModelAccess(input.actor, input.projectId);
  return deps.store.transaction(async (tx) => {
    if (
      input.actor.type === 'operator' &&
      (!isUuid(input.projectId) || (await tx.projects.get(input.projectId)) === null)
    )
      throw new LecternError('PROJECT_NOT_FOUND');
    return work(tx);
  });
}
/** `inProject` for a change: webhooks are environment settings. */
function write<T extends { id: string } | void>(
  deps: CoreDeps,
  input: ModelInput & { id?: string },
  action: string,
  work: (tx: UnitOfWork) => Promise<T>,
): Promise<T> {
  assertMayChange(input.actor, input.projectId, 'manage_environment');
  return inProject(deps, input, async (tx) => {
    const result = await work(tx);
    const id = result ? result.id : (input.id ?? null);
    tx.audit.note({ projectId: input.projectId, action, object: auditObject('webhook', { id }) });
    return result;
  });
}

export async function requireWebhook(
  tx: UnitOfWork,
  input: OneWebhookInput,
  isForUpdate = false,
): Promise<WebhookRecord> {
  const found = isUuid(input.id)
    ? await tx.webhooks.get(input.projectId, input.id.toLowerCase(), { isForUpdate })
    : null;
  if (found === null || found.format !== input.format) throw new LecternError('WEBHOOK_NOT_FOUND');
  return found;
}

/**
 * Saves a changed registration. A revived webhook (a dead one given a new URL, SPEC 3.1) starts
 * over as healthy and is notified of later triggers only; what is queued stays queued.
 */
export async function saveRegistration(
  tx: UnitOfWork,
  current: WebhookRecord,
  options: { changes: Partial<WebhookRecord>; isRevived: boolean; now: Date },
): Promise<WebhookRecord> {
  const next: WebhookRecord = {
    ...current,
    ...options.changes,
    lastModified: options.now,
    ...(options.isRevived
      ? {
          health: 'unknown',
          failingSince: null,
          failureMailedAt: null,
          fromSeq: await tx.outbox.latestSeq(current.projectId),
        }
      : {}),
  };
  await tx.webhooks.updateRegistration(current.projectId, current.id, next);
  if (options.isRevived) await tx.webhooks.updateHealth(current.projectId, current.id, next);
  return next;
}

/** Registers a webhook from a POST body of its format; nothing before it is notified. */
export async function addWebhook(deps: CoreDeps, input: WebhookInput & { body: unknown }): Promise<WebhookRecord> {
  return write(deps, input, 'webhook.create', async (tx) => {
    const problems = new Problems();
    if (!isRecord(input.body)) problems.add(undefined, 'The body must be a JSON object.');
    const body = isRecord(input.body) ? input.body : {};
    const name = readWebhookName(body['name'], problems);
    const url = readWebhookUrl(body['url'], problems);
    const secret = readWebhookSecret(body['secret'], problems);
    const headers = input.format === 'vnext' ? readWebhookHeaders(body['headers'], problems) : [];
    const enabled = body['enabled'] === undefined || body['enabled'] === null ? true : readBoolean(body['enabled']);
    if (enabled === null) problems.add('enabled', 'must be true or false');
    const ctx = { tx, projectId: input.projectId, problems };
    const triggers =
      input.format === 'vnext'
        ? await readDeliveryTriggers(ctx, body['delivery_triggers'])
        : await readLegacyTriggers(ctx, body['triggers']);
    problems.throwIfAny();
    const now = deps.clock.now();
    const record: WebhookRecord = {
      projectId: input.projectId,
      id: deps.ids.uuid(),
      format: input.format,
      name: name as string,
      url: url as string,
      secret: secret as string,
      headers,
      triggers: triggers as Record<string, unknown>,
      isEnabled: enabled as boolean,
      createdAt: now,
      lastModified: now,
      fromSeq: await tx.outbox.latestSeq(input.projectId),
      resetRequestedAt: null,
      health: 'unknown',
      failingSince: null,
      lastAcceptedAt: null,
      resetHandledAt: null,
      failureMailedAt: null,
    };
    await tx.webhooks.insert(record);
    return record;
  });
}

export async function listWebhooks(deps: CoreDeps, input: WebhookInput): Promise<WebhookRecord[]> {
  const all = await inProject(deps, input, (tx) => tx.webhooks.list(input.projectId));
  return all.filter((w) => w.format === input.format);
}

export async function getWebhook(deps: CoreDeps, input: OneWebhookInput): Promise<WebhookRecord> {
  return inProject(deps, input, (tx) => requireWebhook(tx, input));
}

/**
 * Enables or disables (SPEC 3.1). Disabling deletes what is unsent; enabling notifies only what
 * happens from now on. Repeating the current state changes nothing.
 */
export async function setWebhookEnabled(
  deps: CoreDeps,
  input: OneWebhookInput & { isEnabled: boolean },
): Promise<WebhookRecord> {
  return write(deps, input, 'webhook.enabled_change', async (tx) => {
    const current = await requireWebhook(tx, input, true);
    if (current.isEnabled === input.isEnabled) return current;
    const next: WebhookRecord = {
      ...current,
      isEnabled: input.isEnabled,
      lastModified: deps.clock.now(),
      fromSeq: input.isEnabled ? await tx.outbox.latestSeq(input.projectId) : current.fromSeq,
    };
    await tx.webhooks.updateRegistration(current.projectId, current.id, next);
    if (!input.isEnabled) await tx.webhookQueue.discardPending(current.projectId, current.id);
    return next;
  });
}

export async function deleteWebhook(deps: CoreDeps, input: OneWebhookInput): Promise<void> {
  await write(deps, input, 'webhook.delete', async (tx) => {
    const current = await requireWebhook(tx, input, true);
    await tx.webhooks.delete(current.projectId, current.id);
  });
}

/**
 * Reset (SPEC 3.1, latest description): the retry policy restarts and the last failed
 * notification is sent again; a dead webhook comes back. Health goes back to "ready for message".
 */
export async function resetWebhook(deps: CoreDeps, input: OneWebhookInput): Promise<WebhookRecord> {
  return write(deps, input, 'webhook.reset', async (tx) => {
    const current = await requireWebhook(tx, input, true);
    const now = deps.clock.now();
    const next: WebhookRecord = {
      ...current,
      resetRequestedAt: now,
      resetHandledAt: now,
      health: 'unknown',
      failingSince: null,
      failureMailedAt: null,
    };
    await tx.webhooks.updateRegistration(current.projectId, current.id, next);
    await tx.webhooks.updateHealth(current.projectId, current.id, next);
    await tx.webhookQueue.requeueLastFailed({ projectId: current.projectId, webhookId: current.id, now });
    return next;
  });
}

/** URL change (SPEC 3.1, earlier description): a dead webhook is revived for later triggers. */
export async function changeWebhookUrl(
  deps: CoreDeps,
  input: OneWebhookInput & { body: unknown },
): Promise<WebhookRecord> {
  return write(deps, input, 'webhook.url_change', async (tx) => {
    const current = await requireWebhook(tx, input, true);
    const problems = new Problems();
    const url = readWebhookUrl(isRecord(input.body) ? input.body['url'] : undefined, problems);
    problems.throwIfAny();
    return saveRegistration(tx, current, {
      changes: { url: url as string },
      isRevived: current.health === 'dead',
      now: deps.clock.now(),
    });
  });
}

/** The debug list (SPEC 6.8): notifications of the last 3 days, newest first. */
export async function listWebhookNotifications(
  deps: CoreDeps,
  input: OneWebhookInput & { filter: unknown },
): Promise<WebhookNotification[]> {
  assertModelAccess(input.actor, input.projectId);
  const filter = input.filter ?? 'all';
  if (filter !== 'all' && filter !== 'failed' && filter !== 'failing') {
    const problems = new Problems();
    problems.add('filter', "must be 'all', 'failed' or 'failing'");
    problems.throwIfAny();
  }
  return inProject(deps, input, async (tx) => {
    const webhook = await requireWebhook(tx, input);
    return tx.webhookQueue.list({
      projectId: webhook.projectId,
      webhookId: webhook.id,
      since: new Date(deps.clock.now().getTime() - debugListWindowMs),
      filter: filter as NotificationFilter,
      limit: 1000,
    });
  });
}

import { auditObject } from '../audit/audit-entry.ts';
import type { CoreDeps } from '../deps.ts';
import type { WebhookRecord } from '../ports/webhooks.ts';
import { assertMayChange, isRecord, Problems } from '../model/shared/index.ts';
import { readWebhookHeaders, readWebhookName, readWebhookSecret, readWebhookUrl } from './webhook-fields.ts';
import { readDeliveryTriggers, readLegacyTriggers } from './webhook-triggers.ts';
import { requireWebhook, saveRegistration, type OneWebhookInput } from './webhooks.ts';

/**
 * Edits a webhook's registration (the console's edit form; Kontent.ai edits webhooks in its UI):
 * name, URL and triggers as in a POST body of its format; `secret` and (vnext) `headers` when
 * given, else kept. Health is the worker's, except that a new URL revives a dead webhook for
 * later triggers, as `changeWebhookUrl` does (SPEC 3.1). What is queued stays queued.
 */
export async function editWebhook(deps: CoreDeps, input: OneWebhookInput & { body: unknown }): Promise<WebhookRecord> {
  assertMayChange(input.actor, input.projectId, 'manage_environment');
  return deps.store.transaction(async (tx) => {
    const current = await requireWebhook(tx, input, true);
    const problems = new Problems();
    const body = isRecord(input.body) ? input.body : {};
    if (!isRecord(input.body)) problems.add(undefined, 'The body must be a JSON object.');
    const name = readWebhookName(body['name'], problems);
    const url = readWebhookUrl(body['url'], problems);
    const secret = body['secret'] === undefined ? current.secret : readWebhookSecret(body['secret'], problems);
    const headers =
      current.format === 'vnext' && body['headers'] !== undefined
        ? readWebhookHeaders(body['headers'], problems)
        : current.headers;
    const ctx = { tx, projectId: input.projectId, problems };
    const triggers =
      current.format === 'vnext'
        ? await readDeliveryTriggers(ctx, body['delivery_triggers'])
        : await readLegacyTriggers(ctx, body['triggers']);
    problems.throwIfAny();
    tx.audit.note({
      projectId: input.projectId,
      action: 'webhook.update',
      object: auditObject('webhook', { id: current.id }),
    });
    return saveRegistration(tx, current, {
      changes: {
        name: name as string,
        url: url as string,
        secret: secret as string,
        headers,
        triggers: triggers as Record<string, unknown>,
      },
      isRevived: current.health === 'dead' && url !== current.url,
      now: deps.clock.now(),
    });
  });
}

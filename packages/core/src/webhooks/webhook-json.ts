import type { WebhookNotification, WebhookRecord } from '../ports/webhooks.ts';

/** A `/webhooks-vnext` webhook on the wire (management-api.md §2.11; SDK-NET Webhook.json). */
export function webhookJson(w: WebhookRecord) {
  return {
    id: w.id,
    name: w.name,
    url: w.url,
    secret: w.secret,
    headers: w.headers.map((h) => ({ key: h.key, value: h.value })),
    enabled: w.isEnabled,
    last_modified: w.lastModified.toISOString(),
    health_status: w.health,
    delivery_triggers: w.triggers,
  };
}

/** A legacy `/webhooks` webhook on the wire (SDK-JS before bf4f59e, `_historical` fixtures). */
export function legacyWebhookJson(w: WebhookRecord) {
  return {
    id: w.id,
    name: w.name,
    url: w.url,
    secret: w.secret,
    triggers: w.triggers,
    last_modified: w.lastModified.toISOString(),
    health_status: w.health,
  };
}

/**
 * One entry of the debug list (SPEC 6.8; a Lectern extension, so its field names are Lectern's):
 * what was sent, how often, and the last answer.
 */
export function webhookNotificationJson(n: WebhookNotification) {
  return {
    id: n.id,
    created_at: n.createdAt.toISOString(),
    state: n.state,
    is_failing: n.state === 'pending' && n.hasFailed,
    has_failed: n.hasFailed,
    attempts: n.attempts,
    last_attempt_at: n.lastAttemptAt?.toISOString() ?? null,
    next_attempt_at: n.state === 'pending' ? n.nextAttemptAt.toISOString() : null,
    last_response_status: n.lastStatus,
    last_response_excerpt: n.lastResponse,
    event_seq: n.eventSeq,
    kind: n.kind,
    notification: n.body,
  };
}

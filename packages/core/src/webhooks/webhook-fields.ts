import type { WebhookHeader } from '../ports/webhooks.ts';
import { at, characterCount, isRecord, type Problems } from '../model/shared/index.ts';

/** Request headers a webhook may not set (delivery-apis.md §4.1), besides any `x-kontent-ai…`. */
const reservedHeaders = new Set([
  'host',
  'content-length',
  'x-kontent-ai-signature',
  'x-kc-signature',
  'x-lectern-notification-ids',
  'request-context',
  'request-id',
  'traceparent',
  'content-type',
]);
export const maxWebhookHeaders = 10;
const headerKey = /^[A-Za-z0-9_-]+$/;
/** Header values: visible ASCII and spaces, so no value can split or smuggle a header. */
const headerValue = /^[\x20-\x7e]*$/;

export function readWebhookName(value: unknown, problems: Problems): string | null {
  if (typeof value !== 'string' || value.trim().length === 0 || characterCount(value) > 200) {
    // As the reference's "Add a webhook" 400 sample words it.
    problems.add('name', 'Provide nonempty name which fits within 200 characters.');
    return null;
  }
  return value.trim();
}

/** An absolute http or https URL (the SSRF guard of the worker checks where it points when sending). */
export function readWebhookUrl(value: unknown, problems: Problems, path = 'url'): string | null {
  if (typeof value === 'string' && value.length <= 2048 && URL.canParse(value)) {
    const url = new URL(value);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.username === '')
      return value;
  }
  problems.add(
    path,
    'Provide an absolute http:// or https:// URL (without user or password) of at most 2048 characters.',
  );
  return null;
}

export function readWebhookSecret(value: unknown, problems: Problems): string | null {
  if (typeof value !== 'string' || value.trim().length === 0 || characterCount(value) > 200) {
    problems.add('secret', 'Provide a nonempty secret of at most 200 characters.');
    return null;
  }
  return value;
}

/** Custom headers: at most 10 of `{key, value}`, keys of letters, digits, `-` and `_`, none reserved. */
export function readWebhookHeaders(value: unknown, problems: Problems): WebhookHeader[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.add('headers', 'must be an array of {key, value}');
    return [];
  }
  if (value.length > maxWebhookHeaders) problems.add('headers', `A webhook has at most ${maxWebhookHeaders} headers.`);
  const headers: WebhookHeader[] = [];
  for (const [i, entry] of value.entries()) {
    const path = at('headers', i);
    const key = isRecord(entry) ? entry['key'] : undefined;
    const val = isRecord(entry) ? entry['value'] : undefined;
    if (typeof key !== 'string' || !headerKey.test(key) || key.length > 200) {
      problems.add(at(path, 'key'), 'must be 1 to 200 letters, digits, - or _');
      continue;
    }
    const lower = key.toLowerCase();
    if (reservedHeaders.has(lower) || lower.startsWith('x-kontent-ai')) {
      problems.add(at(path, 'key'), `The header '${key}' is reserved.`);
      continue;
    }
    if (typeof val !== 'string' || val.length === 0 || val.length > 2000 || !headerValue.test(val)) {
      problems.add(at(path, 'value'), 'must be 1 to 2000 printable ASCII characters');
      continue;
    }
    headers.push({ key, value: val });
  }
  return headers;
}

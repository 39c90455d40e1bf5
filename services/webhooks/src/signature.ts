import { createHmac } from 'node:crypto';

/** Both names a receiver may read the signature from: the current one and the legacy one. */
export const signatureHeaderNames = ['x-kontent-ai-signature', 'x-kc-signature'] as const;

/**
 * The bytes of a notification as Kontent.ai sends them: JSON indented by two spaces with CRLF line
 * breaks (delivery-apis.md §4.2; the official test vectors hash exactly these bytes). JSON string
 * values never hold a raw line break, so every `\n` here is a break between tokens, and a
 * verifier that collapses runs of CR/LF into one CRLF (webhook-helper v4) leaves the body as is.
 */
export function notificationBody(payload: object): Buffer {
  return Buffer.from(JSON.stringify(payload, null, 2).replace(/\n/g, '\r\n'), 'utf8');
}

/**
 * base64(HMAC-SHA256(secret, body)): the secret is used as its UTF-8 text, never base64-decoded,
 * although Kontent.ai's secrets look like base64.
 */
export function signBody(body: Uint8Array, secret: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('base64');
}

/** The signature headers of a body: the same value under both names. */
export function signatureHeaders(body: Uint8Array, secret: string): Record<string, string> {
  const signature = signBody(body, secret);
  return Object.fromEntries(signatureHeaderNames.map((name) => [name, signature]));
}

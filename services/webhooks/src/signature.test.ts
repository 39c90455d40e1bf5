import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { signatureHelper } from '@kontent-ai/webhook-helper';
import { fixturesRoot } from '@lectern/testing';
import { describe, expect, it } from 'vitest';
import { notificationBody, signatureHeaders, signBody } from './signature.ts';

interface Vector {
  readonly name: string;
  readonly secret: string;
  readonly expected_signature: string;
  readonly body_file: string;
}

const dir = join(fixturesRoot, 'delivery', 'derived', 'webhooks');
const vectors = JSON.parse(readFileSync(join(dir, 'signature-vectors.json'), 'utf8')) as Vector[];

describe.each(vectors)('official vector $name', (vector) => {
  const recorded = readFileSync(join(dir, vector.body_file));
  const body = notificationBody(JSON.parse(recorded.toString('utf8')) as object);

  it('is rebuilt byte for byte from its payload', () => {
    expect(body.equals(recorded)).toBe(true);
  });

  it('is signed with the recorded signature, which webhook-helper accepts', () => {
    const signature = signBody(body, vector.secret);
    expect(signature).toBe(vector.expected_signature);
    const text = body.toString('utf8');
    expect(signatureHelper.isValidSignatureFromString(text, vector.secret, signature)).toBe(true);
    // v4 verifies after collapsing runs of CR/LF into one CRLF: our bytes are already that.
    expect(signatureHelper.replaceLinebreaks(text)).toBe(text);
  });

  it('does not verify under another secret', () => {
    const text = body.toString('utf8');
    const other = signBody(body, `${vector.secret}x`);
    expect(signatureHelper.isValidSignatureFromString(text, vector.secret, other)).toBe(false);
  });
});

describe('signatureHeaders', () => {
  it('sends the same signature as X-Kontent-ai-Signature and X-KC-Signature', () => {
    const body = notificationBody({ notifications: [{ message: { action: 'published', text: 'a\nb' } }] });
    const headers = signatureHeaders(body, 'secret');
    expect(headers['x-kontent-ai-signature']).toBe(signBody(body, 'secret'));
    expect(headers['x-kc-signature']).toBe(headers['x-kontent-ai-signature']);
    // A line break inside a string value stays escaped, so the body has CRLF between tokens only.
    expect(body.toString('utf8')).not.toMatch(/[^\r]\n/);
  });
});

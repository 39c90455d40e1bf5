import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogue, type ErrorCode } from './catalogue.ts';
import { statusOfKind } from './http-status.ts';
import { LecternError } from './lectern-error.ts';
import { toDeliveryError, toManagementError } from './api-bodies.ts';

const docPath = new URL('../../../docs/errors.md', import.meta.url);

/** Rows of the catalogue table in docs/errors.md: code, kind, status, management, delivery, message. */
function documentedRows(): string[][] {
  return readFileSync(docPath, 'utf8')
    .split('\n')
    .filter((line) => /^\| `[A-Z_]+` \|/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim().replace(/^`|`$/g, '')),
    );
}

describe('error catalogue', () => {
  it('is documented in docs/errors.md, entry by entry, in the same order', () => {
    const expected = Object.entries(catalogue).map(([code, e]) => [
      code,
      e.kind,
      String(statusOfKind[e.kind]),
      String(e.management),
      String(e.delivery),
      e.message.replace(/\|/g, '\\|'),
    ]);
    expect(documentedRows()).toEqual(expected);
  });

  it('never uses error_code 0, which clients read as "no error code"', () => {
    for (const entry of Object.values(catalogue)) {
      expect(entry.management).toBeGreaterThan(0);
      expect(entry.delivery).toBeGreaterThan(0);
    }
  });

  it('maps a revoked management key to 403 with error_code 7 (SPEC 3.2)', () => {
    const r = toManagementError(new LecternError('API_KEY_REVOKED'), 'req-1');
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ request_id: 'req-1', error_code: 7 });
  });

  it('lists validation problems in the Management body and folds them into the Delivery message', () => {
    const error = new LecternError('INVALID_REQUEST_BODY', {
      problems: [{ message: 'must be a string', path: 'name' }, { message: 'is required' }],
    });
    expect(toManagementError(error, 'r').body.validation_errors).toEqual([
      { message: 'must be a string', path: 'name' },
      { message: 'is required' },
    ]);
    const delivery = toDeliveryError(error, 'r');
    expect(delivery.status).toBe(400);
    expect(delivery.body.message).toContain('name: must be a string');
    expect(delivery.body.specific_code).toBe(0);
  });

  it('hides unknown errors behind a generic 500', () => {
    const r = toManagementError(new Error('connection string postgres://secret'), 'r');
    expect(r.status).toBe(500);
    expect(r.body.message).not.toContain('secret');
  });

  it('answers a lost database connection with 503 and Retry-After, never the driver text', () => {
    const lost = [
      Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
    ];
    for (const error of lost) {
      const r = toManagementError(error, 'req-1');
      expect(r).toMatchObject({ status: 503, headers: { 'retry-after': '1' }, body: { error_code: 503 } });
      expect(r.body.message).not.toContain('5432');
      expect(toDeliveryError(error, 'req-1').status).toBe(503);
    }
    expect(toManagementError(Object.assign(new Error('x'), { code: '23505' }), 'req-1').status).toBe(500);
  });

  it('sends Retry-After in whole seconds for rate limits', () => {
    const codes: ErrorCode[] = ['RATE_LIMITED'];
    for (const code of codes) {
      const r = toDeliveryError(new LecternError(code, { retryAfterSeconds: 0.2 }), 'r');
      expect(r.status).toBe(429);
      expect(r.headers['retry-after']).toBe('1');
    }
  });
});

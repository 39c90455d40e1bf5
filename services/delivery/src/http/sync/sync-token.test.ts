import { describe, expect, it } from 'vitest';
import { LecternError } from '@lectern/errors';
import { readSyncToken, writeSyncToken } from './sync-token.ts';

const projectId = '0c9d2b6e-5b5e-4f47-9d1b-1f7f3c1b2a10';
const scope = { projectId, channel: 'production' } as const;

function codeOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return error instanceof LecternError ? error.code : 'other';
  }
}

describe('sync tokens', () => {
  it('round-trips a position', () => {
    const token = writeSyncToken({ ...scope, seq: 42, after: null });
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(readSyncToken(token, scope)).toEqual({ ...scope, seq: 42, after: null });
    const within = { ...scope, seq: 7, after: { itemId: projectId, language: 'de' } };
    expect(readSyncToken(writeSyncToken(within), scope)).toEqual(within);
    expect(readSyncToken([` ${token} `], scope).seq).toBe(42);
  });

  it('rejects missing, empty, garbled and foreign tokens as malformed', () => {
    const other = '1c9d2b6e-5b5e-4f47-9d1b-1f7f3c1b2a10';
    const cases: (string | undefined)[] = [
      undefined,
      '',
      '   ',
      'not a token!',
      'abc',
      Buffer.from('{"v":1}').toString('base64url'),
      Buffer.from('null').toString('base64url'),
      Buffer.from(JSON.stringify({ v: 1, p: projectId, c: 'd', s: -1 })).toString('base64url'),
      Buffer.from(JSON.stringify({ v: 1, p: projectId, c: 'd', s: 1.5 })).toString('base64url'),
      Buffer.from(JSON.stringify({ v: 2, p: projectId, c: 'd', s: 1 })).toString('base64url'),
      Buffer.from(JSON.stringify({ v: 1, p: projectId, c: 'd', s: 1, i: 5 })).toString('base64url'),
      Buffer.from(JSON.stringify({ v: 1, p: projectId, c: 'd', s: 1, i: 'x' })).toString('base64url'),
      writeSyncToken({ projectId: other, channel: 'production', seq: 1, after: null }),
      writeSyncToken({ projectId, channel: 'preview', seq: 1, after: null }),
    ];
    for (const token of cases)
      expect(
        codeOf(() => readSyncToken(token, scope)),
        String(token),
      ).toBe('CONTINUATION_TOKEN_INVALID');
  });
});

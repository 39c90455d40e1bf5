import { describe, expect, it } from 'vitest';
import { formatKey, hashSecret, parseKey, secretMatches } from './key-secret.ts';

const keyId = '0f8fad5b-d9cb-469f-a165-70867728950e';
const secret = 'a'.repeat(64);

describe('API key wire form', () => {
  it('round-trips the key id and secret, tagged by kind', () => {
    const value = formatKey({ kind: 'preview_primary', keyId, secret });
    expect(value).toBe(`lct_pp_0f8fad5bd9cb469fa16570867728950e_${secret}`);
    expect(parseKey(value)).toEqual({ keyId, secret });
  });

  it('rejects anything that is not a whole Lectern key', () => {
    for (const bad of [
      '',
      'lct_pp_short_x',
      `lct_pp_0f8fad5bd9cb469fa16570867728950e_${secret}x`,
      `Bearer lct_pp_0f8fad5bd9cb469fa16570867728950e_${secret}`,
    ]) {
      expect(parseKey(bad)).toBeNull();
    }
  });

  it('matches a secret only against its own hash', () => {
    const stored = hashSecret(secret);
    expect(stored).toHaveLength(64);
    expect(stored).not.toContain(secret.slice(0, 8));
    expect(secretMatches(secret, stored)).toBe(true);
    expect(secretMatches('b'.repeat(64), stored)).toBe(false);
    expect(secretMatches(secret, 'not-hex')).toBe(false);
  });
});

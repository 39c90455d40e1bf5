import { describe, expect, it } from 'vitest';
import type { LecternError } from '@lectern/errors';
import { checkPassword, hashPassword, verifyPassword } from './passwords.ts';

describe('people passwords (argon2id)', () => {
  it('stores a PHC string with OWASP parameters and a fresh salt, and verifies only the same password', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse battery'), hashPassword('correct horse battery')]);
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'plain text')).toBe(false);
    expect(await verifyPassword('correct horse battery', a.replace('argon2id', 'argon2i'))).toBe(false);
  });

  it('hashes on the thread pool: the event loop keeps turning while four hashes run', async () => {
    let worst = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 2);
    const started = performance.now();
    await Promise.all(Array.from({ length: 4 }, (_, i) => hashPassword(`password number ${i}`)));
    const elapsed = performance.now() - started;
    // Let the timer run once more, so a stall that ended with the hashes is measured too.
    await new Promise((resolve) => setTimeout(resolve, 10));
    clearInterval(timer);
    // Four 19 MiB hashes take tens of milliseconds each; on the event loop they would stall it for all of them.
    expect(elapsed).toBeGreaterThan(20);
    expect(worst).toBeLessThan(elapsed / 2);
  });

  it('accepts 10 to 256 characters (counted as characters, not bytes)', () => {
    const refused = (value: unknown) => {
      try {
        checkPassword(value);
        return null;
      } catch (error) {
        return (error as LecternError).problems.map((p) => `${p.path}: ${p.message}`);
      }
    };
    expect(refused('123456789')).toEqual(['password: The password must be at least 10 characters long.']);
    expect(refused('1234567890')).toBeNull();
    expect(refused('😀'.repeat(256))).toBeNull();
    expect(refused('a'.repeat(257))).toEqual(['password: The password must be at most 256 characters long.']);
    expect(refused(12345678901)).toEqual(['password: Provide the password as a string.']);
  });
});

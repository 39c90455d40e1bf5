import { describe, expect, it } from 'vitest';
import { clientKey, createSignInThrottle } from './sign-in-throttle.ts';

function clock() {
  let at = 1_000_000;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

describe('the console sign-in throttle', () => {
  it('locks a client after 5 failures in a minute, then doubles each further lock', () => {
    const c = clock();
    const throttle = createSignInThrottle({ now: c.now });
    const me = ['client:192.0.2.1'];
    for (let i = 0; i < 4; i++) throttle.fail(me);
    expect(throttle.retryAfterSeconds(me)).toBe(0);
    throttle.fail(me);
    expect(throttle.retryAfterSeconds(me)).toBe(60);
    expect(throttle.retryAfterSeconds(['client:192.0.2.2'])).toBe(0);
    c.advance(60_001);
    expect(throttle.retryAfterSeconds(me)).toBe(0);
    for (let i = 0; i < 5; i++) throttle.fail(me);
    expect(throttle.retryAfterSeconds(me)).toBe(120);
    c.advance(120_001);
    for (let i = 0; i < 5; i++) throttle.fail(me);
    expect(throttle.retryAfterSeconds(me)).toBe(240);
  });

  it('counts failures only within the window, caps a lock at an hour and forgets a client quiet for an hour', () => {
    const c = clock();
    const throttle = createSignInThrottle({ now: c.now });
    const me = ['client:x'];
    for (let i = 0; i < 4; i++) throttle.fail(me);
    c.advance(61_000);
    throttle.fail(me);
    expect(throttle.retryAfterSeconds(me)).toBe(0);
    for (let lock = 0; lock < 10; lock++) {
      for (let i = 0; i < 5; i++) throttle.fail(me);
      expect(throttle.retryAfterSeconds(me)).toBeLessThanOrEqual(3600);
      c.advance(throttle.retryAfterSeconds(me) * 1000 + 1);
    }
    c.advance(3_600_001);
    for (let i = 0; i < 5; i++) throttle.fail(me);
    expect(throttle.retryAfterSeconds(me)).toBe(60);
  });

  it('forgets a client that signs in, and keeps at most maxKeys records', () => {
    const throttle = createSignInThrottle({ maxKeys: 3 });
    for (let i = 0; i < 4; i++) throttle.fail(['client:a']);
    throttle.succeed(['client:a']);
    throttle.fail(['client:a']);
    expect(throttle.retryAfterSeconds(['client:a'])).toBe(0);
    for (let i = 0; i < 5; i++) throttle.fail(['client:b']);
    for (const k of ['c', 'd', 'e']) throttle.fail([`client:${k}`]);
    expect(throttle.retryAfterSeconds(['client:b'])).toBe(0);
  });

  it('keys IPv4 by address (IPv4-mapped too) and IPv6 by its /64', () => {
    expect(clientKey('203.0.113.9')).toBe('client:203.0.113.9');
    expect(clientKey('::ffff:203.0.113.9')).toBe('client:203.0.113.9');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe(clientKey('2001:db8:1:2:bbbb::2'));
    expect(clientKey('2001:db8:1:2::1')).not.toBe(clientKey('2001:db8:1:3::1'));
  });
});

import { describe, expect, it } from 'vitest';
import { isAddressAllowed } from './address-guard.ts';

/** Issue 27, finding 12: IPv6 forms that lead to a refused IPv4 address, and special IPv6 ranges. */
describe('the SSRF guard on IPv6 forms and special ranges', () => {
  const refusedV4 = ['127.0.0.1', '10.0.0.1', '169.254.169.254', '0.0.0.0'];
  /** Each refused IPv4 address as IPv4-mapped, -translated, -compatible, NAT64 and 6to4, dotted and hex. */
  function forms(v4: string): string[] {
    const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
    const hi = ((a << 8) | b).toString(16);
    const lo = ((c << 8) | d).toString(16);
    return [
      `::ffff:${v4}`,
      `::ffff:${hi}:${lo}`,
      `::ffff:0:${v4}`,
      `::${v4}`,
      `::${hi}:${lo}`,
      `64:ff9b::${v4}`,
      `64:ff9b::${hi}:${lo}`,
      `2002:${hi}:${lo}::`,
      `2002:${hi}:${lo}:1::1`,
    ];
  }

  it('refuses every IPv6 form of loopback, private, link-local (metadata) and unspecified IPv4 addresses', () => {
    for (const v4 of refusedV4) for (const address of forms(v4)) expect(isAddressAllowed(address), address).toBe(false);
  });

  it('refuses the ranges the issue found and the other special-purpose IPv6 ranges', () => {
    for (const address of [
      '::7f00:1', // IPv4-compatible 127.0.0.1
      '::808:808', // IPv4-compatible, deprecated whatever it carries
      '64:ff9b:1::1', // local-use NAT64
      '64:ff9b:1::808:808', // local-use NAT64: the operator's mapping cannot be judged
      'fec0::1', // site-local
      'feff:ffff::1', // site-local, upper end
      '2001::1', // Teredo
      '2001:db8::1', // documentation
      '100::1', // discard-only
      '2001:2::1', // benchmarking
      'fe80::1%eth0', // link-local with a zone
    ])
      expect(isAddressAllowed(address), address).toBe(false);
  });

  it('allows public receivers, also reached through IPv4-mapped, NAT64 (DNS64 networks) and 6to4 forms', () => {
    for (const address of [
      '8.8.8.8',
      '93.184.216.34',
      '2606:2800:220:1:248:1893:25c8:1946',
      '2a00:1450:4001:80b::200e',
      '::ffff:8.8.8.8',
      '64:ff9b::8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ])
      expect(isAddressAllowed(address), address).toBe(true);
  });
});

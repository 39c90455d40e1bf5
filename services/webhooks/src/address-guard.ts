import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

/*
 * The SSRF guard: a webhook URL may not reach the machine, its private networks or a cloud
 * metadata service. The check runs on the resolved addresses inside the socket's own lookup, so
 * the address connected to is the one checked (no second resolution an attacker's DNS could
 * answer differently); an IP literal is checked before connecting.
 */

const refused = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  refused.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local (also fd00:ec2::254, a metadata address)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64 of IPv4 addresses
] as const)
  refused.addSubnet(network, prefix, 'ipv6');

/** The IPv4 address an IPv4-mapped or -compatible IPv6 address stands for, if any. */
function embeddedIpv4(address: string): string | null {
  const match = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match?.[1] ?? null;
}

/** Whether a webhook may connect to this IP address. */
export function isAddressAllowed(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const v4 = family === 6 ? embeddedIpv4(address) : address;
  if (v4 !== null) return !refused.check(v4, 'ipv4');
  return !refused.check(address, 'ipv6');
}

/** Refused: the message names the address, never the URL's secrets. */
export class AddressRefusedError extends Error {
  readonly code = 'WEBHOOK_ADDRESS_REFUSED';
  constructor(address: string) {
    super(
      `The webhook URL resolves to ${address}, a loopback, private, link-local or metadata address ` +
        '(allowed only with LECTERN_WEBHOOKS_ALLOW_PRIVATE=true).',
    );
  }
}

/** A socket lookup that resolves as usual, then refuses when any resolved address is not allowed. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) {
      callback(error, '', 0);
      return;
    }
    const bad = addresses.find((a) => !isAddressAllowed(a.address));
    if (bad !== undefined) {
      callback(new AddressRefusedError(bad.address), '', 0);
      return;
    }
    if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    else {
      const first = addresses[0];
      if (first === undefined) callback(new Error(`${hostname} has no address`), '', 0);
      else callback(null, first.address, first.family);
    }
  });
};

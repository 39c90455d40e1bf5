import { isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/*
 * The SSRF guard: a URL the server fetches for someone (a webhook, an asset uploaded from a URL
 * through MCP) may not reach the machine, its private networks or a cloud
 * metadata service. The check runs on the resolved addresses inside the socket's own lookup, so
 * the address connected to is the one checked (no second resolution an attacker's DNS could
 * answer differently); an IP literal is checked before connecting.
 *
 * An allow-list, not a block-list: an address passes only when ipaddr.js (its table of IANA's
 * special-purpose registries) classes it as ordinary global unicast. Every special range, the
 * ones nobody thought of included (site-local fec0::/10, local-use NAT64 64:ff9b:1::/48, Teredo,
 * discard, documentation, benchmarking…), is refused. An IPv6 form that carries an IPv4 address
 * a router would reach (IPv4-mapped, IPv4-translated, well-known NAT64 64:ff9b::/96, 6to4
 * 2002::/16) is judged by that IPv4 address, so a DNS64 network still reaches public receivers.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The IPv4 address an IPv6 address leads to, null when it has none, 'refused' when it cannot be told. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null | 'refused' {
  const bytes = address.toByteArray();
  // ::/96 is IPv4-compatible (deprecated by RFC 4291, `::7f00:1` is 127.0.0.1), with :: and ::1.
  if (bytes.slice(0, 12).every((b) => b === 0)) return 'refused';
  const last4 = () => new ipaddr.IPv4(bytes.slice(12, 16));
  switch (address.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
      return last4();
    case 'rfc6052':
      // The well-known prefix 64:ff9b::/96 embeds the address in the last 32 bits; the local-use
      // 64:ff9b:1::/48 (RFC 8215) translates as its operator chose, so it cannot be judged.
      return address.match(ipaddr.IPv6.parse('64:ff9b::'), 96) ? last4() : 'refused';
    case '6to4': // 2002:AABB:CCDD::/48 carries AA.BB.CC.DD
      return new ipaddr.IPv4(bytes.slice(2, 6));
    default:
      // Open: ipaddr.js names many ranges (and may add some); the others carry no IPv4 address.
      return null;
  }
}

function isOrdinaryUnicast(address: Address): boolean {
  return address.range() === 'unicast';
}

/** Whether a webhook may connect to this IP address. */
export function isAddressAllowed(address: string): boolean {
  // Node's own strict syntax first: ipaddr.js also reads forms such as '0x7f.1' or '2130706433'.
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return isOrdinaryUnicast(ipaddr.IPv4.parse(address));
  const v6 = ipaddr.IPv6.parse(address);
  const v4 = embeddedIpv4(v6);
  if (v4 === 'refused') return false;
  return isOrdinaryUnicast(v4 ?? v6);
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

/**
 * The guard of one outgoing request to `url`: refused now when the host is an IP literal that may
 * not be reached, else the request options whose socket lookup checks every resolved address.
 * `isPrivateAllowed` (tests, LECTERN_WEBHOOKS_ALLOW_PRIVATE) lets every address through.
 */
export function guardRequest(
  url: URL,
  isPrivateAllowed: boolean,
):
  | { readonly refusedAddress: string }
  | { readonly refusedAddress: null; readonly options: { lookup?: LookupFunction } } {
  if (isPrivateAllowed) return { refusedAddress: null, options: {} };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !isAddressAllowed(host)) return { refusedAddress: host };
  return { refusedAddress: null, options: { lookup: guardedLookup } };
}

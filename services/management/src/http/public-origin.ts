import { isIP } from 'node:net';
import type { Express, Request } from 'express';

/*
 * The origin clients reach this API at, for the absolute URLs it answers (asset `url`s, paging
 * `next_page`, `Location`). A configured public URL wins; otherwise the request's scheme and host,
 * which honour `X-Forwarded-Proto` / `X-Forwarded-Host` only when the peer is a trusted proxy
 * (Express `trust proxy`), so behind a TLS proxy or an Ingress the URLs are the public ones.
 */

const publicUrlKey = 'lectern public url';
const proxyNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Whether `entry` is a trusted-proxy entry Express understands: an IP, an IP/prefix, or a range name. */
export function isProxyEntry(entry: string): boolean {
  if (proxyNames.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || address === undefined) return false;
  const version = isIP(address);
  if (version === 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (version === 4 ? 32 : 128);
}

/** A comma-separated setting value as a list of trusted-proxy entries (blank: none). */
export function parseTrustedProxies(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A public URL as an origin plus optional path prefix, without a trailing slash. */
export function normalizePublicUrl(value: string): string {
  return value.replace(/\/+$/, '');
}

/** Applies the proxy and public URL settings to the app. */
export function configurePublicOrigin(
  app: Express,
  options: { trustedProxies?: readonly string[]; publicUrl?: string | null },
): void {
  const proxies = options.trustedProxies ?? [];
  app.set('trust proxy', proxies.length === 0 ? false : [...proxies]);
  app.set(publicUrlKey, options.publicUrl ? normalizePublicUrl(options.publicUrl) : null);
}

/** `https://public.example` (configured) or `<protocol>://<host>` of the request, proxies honoured. */
export function publicOriginOf(req: Request): string {
  const configured = req.app.get(publicUrlKey) as string | null | undefined;
  if (configured) return configured;
  return `${req.protocol}://${req.host || 'localhost'}`;
}

/** Whether the configured public URL is https (browsers reach this API over TLS, whatever the peer says). */
export function isPublicUrlHttps(req: Request): boolean {
  const configured = req.app.get(publicUrlKey) as string | null | undefined;
  return configured?.toLowerCase().startsWith('https:') === true;
}

/** The public URL of the request's path without its query string (paging `next_page`). */
export function publicPathOf(req: Request): string {
  return `${publicOriginOf(req)}${req.baseUrl}${req.path}`.replace(/\/$/, '');
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { isPublicUrlHttps } from '../public-origin.ts';

/*
 * Cookie and secret helpers shared by the browser-facing parts of the Management service: the
 * operator console (`/console`) and the editor's API (`/app/api`).
 */

export function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Compares two secrets in constant time (of their digests, so lengths may differ). */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function readCookie(req: Request, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

/** Whether the browser reached us over HTTPS, as far as we may believe (see `setHttpOnlyCookie`). */
export function isBrowserOnHttps(req: Request): boolean {
  return req.secure || isPublicUrlHttps(req);
}

/**
 * Sets an HttpOnly, SameSite=Strict cookie under `path`. `Secure` whenever the browser reaches us
 * over HTTPS: a TLS listener, a trusted proxy's `X-Forwarded-Proto: https`, or an https public URL
 * (LECTERN_MANAGEMENT_PUBLIC_URL) — the last holds behind any proxy, trusted or not.
 */
export function setHttpOnlyCookie(
  req: Request,
  res: Response,
  cookie: { path: string; name: string; value: string; maxAgeSeconds?: number },
): void {
  const attributes = [`Path=${cookie.path}`, 'HttpOnly', 'SameSite=Strict'];
  if (isBrowserOnHttps(req)) attributes.push('Secure');
  if (cookie.maxAgeSeconds !== undefined) attributes.push(`Max-Age=${cookie.maxAgeSeconds}`);
  res.append('set-cookie', `${cookie.name}=${cookie.value}; ${attributes.join('; ')}`);
}

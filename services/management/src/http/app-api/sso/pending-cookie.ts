import type { Request, Response } from 'express';
import { isBrowserOnHttps, readCookie } from '../../web-session/cookies.ts';
import type { PendingSignIn } from './sso-client.ts';

/*
 * The cookie of a single sign-on in progress (`lectern_sso`), under the path of the routes that
 * start and finish it (`/app/api/sso` for the editor, `/console/sso` for the console), for 10
 * minutes. It is SameSite=Lax, unlike the sessions' cookies: the provider sends the browser back
 * with a top-level GET from its own site, which carries Lax cookies and not Strict ones. It holds
 * no power on its own: it only lets this browser finish the sign-in it started, once.
 */

const pendingCookie = 'lectern_sso';
const pendingMaxAgeSeconds = 600;

export interface PendingCookie extends PendingSignIn {
  /** Where to go once signed in: a path inside the app (or the console). */
  readonly next: string;
}

function setPending(req: Request, res: Response, path: string, value: string, maxAgeSeconds: number): void {
  const attributes = [`Path=${path}`, 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`];
  if (isBrowserOnHttps(req)) attributes.push('Secure');
  res.append('set-cookie', `${pendingCookie}=${value}; ${attributes.join('; ')}`);
}

export function writePending(req: Request, res: Response, path: string, pending: PendingCookie): void {
  setPending(req, res, path, Buffer.from(JSON.stringify(pending)).toString('base64url'), pendingMaxAgeSeconds);
}

/** The sign-in in progress of this browser, or null; the cookie is ended either way (one use). */
export function takePending(req: Request, res: Response, path: string): PendingCookie | null {
  setPending(req, res, path, '', 0);
  const raw = readCookie(req, pendingCookie);
  if (raw === null || raw.length > 4000) return null;
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Record<string, unknown>;
    const { state, nonce, codeVerifier, redirectUri, next } = parsed;
    if ([state, nonce, codeVerifier, redirectUri, next].some((v) => typeof v !== 'string')) return null;
    return parsed as unknown as PendingCookie;
  } catch {
    return null;
  }
}

/** The query string of the request (the provider's answer), as sent. */
export function queryOf(req: Request): URLSearchParams {
  const at = req.originalUrl.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : req.originalUrl.slice(at + 1));
}

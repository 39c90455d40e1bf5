import { timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { authenticate, operator, type Actor, type CoreDeps } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import { digest, randomToken, readCookie, sameSecret, setHttpOnlyCookie } from '../web-session/cookies.ts';

/*
 * Console sessions, kept in this process's memory: a random id in an HttpOnly, SameSite=Strict
 * cookie (Secure over HTTPS) and, per session, the CSRF token every form carries. A session
 * remembers what signed in, not a verdict: each request checks the operator token or the
 * management key again through the core, so a revoked or expired key ends its sessions at once.
 */

export const sessionCookie = 'lectern_console';
/** Before sign-in: the CSRF token of the sign-in form (double submit). */
export const signInCookie = 'lectern_console_signin';
const idleMs = 12 * 3_600_000;
/** Sessions held at most, all credentials together. */
export const maxSessions = 10_000;
/** Sessions one credential (the operator token, or one management key) holds at most. */
export const maxSessionsPerCredential = 20;

export type Credential =
  | { readonly type: 'operator'; readonly tokenDigest: Buffer }
  /** An operator signed in through single sign-on (docs/sso.md): the provider vouched at sign-in. */
  | { readonly type: 'sso_operator'; readonly email: string }
  | { readonly type: 'key'; readonly key: string; readonly projectId: string };

interface Session {
  readonly id: string;
  readonly csrf: string;
  readonly credential: Credential;
  /** Who signed in, as one string: `operator`, or the project and digest of the management key. */
  readonly holder: string;
  lastSeen: number;
}

export interface SignedIn {
  readonly session: Session;
  readonly actor: Actor;
  /** The project a management key session is limited to; null for the operator (all projects). */
  readonly projectId: string | null;
}

export { digest, randomToken, readCookie, sameSecret };

/** Sets a console cookie (Path=/console; HttpOnly, SameSite=Strict, Secure over HTTPS). */
export function setCookie(req: Request, res: Response, name: string, value: string, maxAgeSeconds?: number): void {
  setHttpOnlyCookie(req, res, {
    path: '/console',
    name,
    value,
    ...(maxAgeSeconds === undefined ? {} : { maxAgeSeconds }),
  });
}

function holderOf(credential: Credential): string {
  if (credential.type === 'sso_operator') return `sso:${credential.email}`;
  return credential.type === 'operator'
    ? 'operator'
    : `key:${credential.projectId}:${digest(credential.key).toString('base64url')}`;
}

export interface SessionStore {
  start(credential: Credential): Session;
  end(id: string): void;
  /** The signed-in caller of the request, or null (no session, idle too long, credential no longer valid). */
  resolve(req: Request): Promise<SignedIn | null>;
}

export function createSessionStore(core: CoreDeps, operatorToken: string | null): SessionStore {
  // Both in sign-in order: the first of a holder's set is its oldest session.
  const sessions = new Map<string, Session>();
  const byHolder = new Map<string, Set<string>>();
  const remove = (id: string) => {
    const session = sessions.get(id);
    if (session === undefined) return;
    sessions.delete(id);
    const own = byHolder.get(session.holder);
    own?.delete(id);
    if (own?.size === 0) byHolder.delete(session.holder);
  };
  const actorOf = async (credential: Credential): Promise<Actor | null> => {
    // The provider's word is checked once, at sign-in; the session ends at sign-out or when idle.
    if (credential.type === 'sso_operator') return operator;
    if (credential.type === 'operator') {
      return operatorToken !== null && timingSafeEqual(credential.tokenDigest, digest(operatorToken)) ? operator : null;
    }
    return authenticate(core, {
      api: 'management',
      projectId: credential.projectId,
      authorization: `Bearer ${credential.key}`,
    }).catch((error: unknown) => {
      if (error instanceof LecternError) return null;
      throw error;
    });
  };
  return {
    start(credential) {
      const now = Date.now();
      const holder = holderOf(credential);
      // A credential's own oldest sessions make room for its new one, never another credential's.
      const own = byHolder.get(holder) ?? new Set<string>();
      for (const id of own) {
        if (own.size < maxSessionsPerCredential) break;
        remove(id);
      }
      if (sessions.size >= maxSessions) {
        for (const [id, s] of sessions) if (now - s.lastSeen > idleMs) remove(id);
        // Still full (10,000 live sessions, of at least 500 credentials): the oldest management key
        // session goes. The operator's sessions are never evicted by others' sign-ins.
        if (sessions.size >= maxSessions) {
          for (const s of sessions.values()) {
            if (s.holder === 'operator') continue;
            remove(s.id);
            break;
          }
        }
      }
      const session: Session = { id: randomToken(), csrf: randomToken(), credential, holder, lastSeen: now };
      sessions.set(session.id, session);
      byHolder.set(holder, own.add(session.id));
      return session;
    },
    end(id) {
      remove(id);
    },
    async resolve(req) {
      const id = readCookie(req, sessionCookie);
      const session = id === null ? undefined : sessions.get(id);
      if (session === undefined) return null;
      if (Date.now() - session.lastSeen > idleMs) {
        remove(session.id);
        return null;
      }
      const actor = await actorOf(session.credential);
      if (actor === null) {
        remove(session.id);
        return null;
      }
      session.lastSeen = Date.now();
      return { session, actor, projectId: session.credential.type === 'key' ? session.credential.projectId : null };
    },
  };
}

import type { Request, Response } from 'express';
import type { CoreDeps, RecsTracking } from '@lectern/core';
import type { Logger, ProcessMetrics } from '@lectern/http-kit';
import type { SignInThrottleOptions } from '../web-session/sign-in-throttle.ts';
import type { SignInRecorder } from '../app-api/sso/sign-in-events.ts';
import type { SsoClient } from '../app-api/sso/sso-client.ts';
import type { PageContext } from './layout.ts';
import type { SignedIn } from './session.ts';

/**
 * What the console's routers share: their options and the request state the sign-in gate leaves
 * (routes.ts mounts project-routes.ts and webhook-routes.ts, which read it; kept apart so that
 * they import no router back).
 */

export interface ConsoleOptions {
  readonly core: CoreDeps;
  readonly metrics: ProcessMetrics;
  readonly logger: Logger;
  /** The operator token; null: only management keys sign in. */
  readonly operatorToken: string | null;
  /** The recommendation engine's tracking setting (the overview's switch); absent: not shown. */
  readonly recsTracking?: RecsTracking;
  /** Failed sign-ins allowed per client before a lock, and the lock times (defaults: sign-in-throttle.ts). */
  readonly signInThrottle?: SignInThrottleOptions;
  /** Single sign-on (docs/sso.md): operators sign in through the provider when it names them. */
  readonly sso?: SsoClient | null;
  readonly signInRecorder?: SignInRecorder | null;
}

/** What every console handler behind sign-in gets. */
export interface ConsoleRequestState {
  readonly signedIn: SignedIn;
  readonly ctx: PageContext;
}

export function consoleState(res: Response): ConsoleRequestState {
  return res.locals['console'] as ConsoleRequestState;
}

/** A form field as one string (urlencoded bodies; a repeated field gives its first value). */
export function field(req: Request, name: string): string | undefined {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

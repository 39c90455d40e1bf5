import type { Request, Response } from 'express';
import { isLecternError } from '@lectern/errors';
import type { Logger } from '@lectern/http-kit';
import { locals } from '../../context.ts';
import { recordSignIn, type SignInRecorder } from './sign-in-events.ts';

/** Records a password sign-in (`userId`) or its refusal (`error`, by its catalogue code) to the recorder, if any. */
export function recordPasswordSignIn(
  options: { readonly signInRecorder?: SignInRecorder | null; readonly logger: Logger },
  req: Request,
  res: Response,
  outcome: { userId: string } | { error: unknown },
): void {
  const email =
    typeof (req.body as { email?: unknown } | undefined)?.email === 'string'
      ? (req.body as { email: string }).email
      : null;
  recordSignIn(
    options.signInRecorder,
    {
      outcome: 'userId' in outcome ? 'signed_in' : 'refused',
      method: 'password',
      surface: 'editor',
      userId: 'userId' in outcome ? outcome.userId : null,
      email: email === null ? null : email.trim().toLowerCase().slice(0, 320),
      reason: 'error' in outcome ? (isLecternError(outcome.error) ? outcome.error.code : 'INTERNAL') : null,
      isNewUser: false,
      requestId: locals(res).requestId ?? null,
      clientAddress: req.ip ?? null,
      at: new Date(),
    },
    (error) => options.logger.error({ err: error }, 'recording a sign-in failed'),
  );
}

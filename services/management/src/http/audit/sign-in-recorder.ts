import { recordSignIn, type CoreDeps } from '@lectern/core';
import type { SignInEvent, SignInRecorder } from '../app-api/sso/sign-in-events.ts';

/**
 * The audit log's recorder of the sign-in events the routes report (docs/audit-log.md). Core
 * already writes an entry in the transaction of every password sign-in (and refusal) and of every
 * single sign-on that starts a session, so only what no core operation sees is recorded here: a
 * refused single sign-on (the provider's answer or its claims were not accepted) and a console
 * sign-in through the provider (an operator session, held by the console, not the store).
 */
export function auditSignInRecorder(core: CoreDeps): SignInRecorder {
  return {
    record: async (event: SignInEvent) => {
      const isCoreRecorded =
        event.method === 'password' || (event.surface === 'editor' && event.outcome === 'signed_in');
      if (isCoreRecorded) return;
      await recordSignIn(core, {
        method: event.method,
        isSuccess: event.outcome === 'signed_in',
        userId: event.userId,
        email: event.email,
        ...(event.reason === null ? {} : { reason: event.reason }),
      });
    },
  };
}

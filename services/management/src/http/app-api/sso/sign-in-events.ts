/*
 * The seam for the audit log (issue 31): every sign-in to the editor and every refused one is
 * handed to a `SignInRecorder`. The Management app passes the one it is given
 * (`ManagementAppOptions.signInRecorder`); without one nothing is recorded. A recorder must not
 * throw (its failure must not change the answer) and should not hold the request.
 */

export type SignInMethod = 'password' | 'oidc';

export interface SignInEvent {
  readonly outcome: 'signed_in' | 'refused';
  readonly method: SignInMethod;
  /** Where the person signed in: the editor (`/app`) or the operator console (`/console`). */
  readonly surface: 'editor' | 'console';
  /** The person, when known (always after a sign-in; after a refusal when the e-mail matched). */
  readonly userId: string | null;
  /** The e-mail the attempt named (typed, or the provider's claim), when any. */
  readonly email: string | null;
  /** Why it was refused: the catalogue code (SIGN_IN_FAILED, SSO_EMAIL_NOT_VERIFIED, …). */
  readonly reason: string | null;
  /** Whether the sign-in created the user (single sign-on provisioning). */
  readonly isNewUser: boolean;
  readonly requestId: string | null;
  readonly clientAddress: string | null;
  readonly at: Date;
}

export interface SignInRecorder {
  record(event: SignInEvent): void | Promise<void>;
}

/** Hands `event` to `recorder` without letting its failure reach the caller. */
export function recordSignIn(
  recorder: SignInRecorder | null | undefined,
  event: SignInEvent,
  onError: (error: unknown) => void,
): void {
  if (!recorder) return;
  try {
    void Promise.resolve(recorder.record(event)).catch(onError);
  } catch (error) {
    onError(error);
  }
}

import { useState, type FormEvent } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { ApiError, api } from '../../api/client.ts';
import { useSession, useSessionActions } from '../../api/session.ts';
import { safeNextPath } from '../../ui/signed-in.tsx';
import { SsoSignIn, ssoProblemOf, useSignInOptions } from './sso-sign-in.tsx';
import '../../styles/sign-in.css';

/** The message for a refused sign-in: the server's for the throttle (it names the wait), ours otherwise. */
function signInProblem(error: unknown): string {
  if (error instanceof ApiError && error.status === 429) return error.body.message;
  if (error instanceof ApiError && (error.status === 401 || error.status === 400))
    return 'The e-mail or the password is not right.';
  return error instanceof Error ? error.message : 'Signing in failed.';
}

/** Sign in with e-mail and password; "Forgot password?" asks for a reset link. */
export function SignInScreen() {
  const session = useSession();
  const { signIn } = useSessionActions();
  const [, navigate] = useLocation();
  const search = new URLSearchParams(useSearch());
  const next = safeNextPath(search.get('next'));
  const options = useSignInOptions();
  const ssoProblem = ssoProblemOf(search.get('sso_error'));
  // The password form waits for the options (no flash of a form that is off); shown if they fail.
  const isPasswordOn = options.isError || options.data?.password === true;
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const [isForgotten, setForgotten] = useState(false);

  if (session.data) return <Redirect to={next} replace />;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setProblem(null);
    try {
      await signIn({ email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') });
      navigate(next, { replace: true });
    } catch (error) {
      setProblem(signInProblem(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="page-narrow sign-in">
      <h1>Sign in to Lectern</h1>
      {ssoProblem && !isForgotten && (
        <p className="form-problem" role="alert">
          {ssoProblem}
        </p>
      )}
      {options.data && !isForgotten && <SsoSignIn options={options.data} next={next} />}
      {!isPasswordOn ? null : isForgotten ? (
        <ForgotPassword onBack={() => setForgotten(false)} />
      ) : (
        <>
          <form onSubmit={(e) => void submit(e)} aria-describedby={problem ? 'sign-in-problem' : undefined}>
            <p className="field">
              <label htmlFor="sign-in-email">E-mail</label>
              <input id="sign-in-email" name="email" type="email" autoComplete="username" required />
            </p>
            <p className="field">
              <label htmlFor="sign-in-password">Password</label>
              <input id="sign-in-password" name="password" type="password" autoComplete="current-password" required />
            </p>
            {problem && (
              <p id="sign-in-problem" className="form-problem" role="alert">
                {problem}
              </p>
            )}
            <button type="submit" className="button button-primary" disabled={isBusy}>
              {isBusy ? 'Signing in…' : 'Sign in'}
            </button>
          </form>
          <p>
            <button type="button" className="link-button" onClick={() => setForgotten(true)}>
              Forgot password?
            </button>
          </p>
        </>
      )}
    </main>
  );
}

/** Asks for a reset link by e-mail (sent when the server has SMTP; otherwise the operator issues one). */
function ForgotPassword({ onBack }: { onBack: () => void }) {
  const [state, setState] = useState<'idle' | 'busy' | 'sent' | { problem: string }>('idle');
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '');
    setState('busy');
    try {
      await api('/password-reset', { method: 'POST', body: { email } });
      setState('sent');
    } catch (error) {
      setState({ problem: error instanceof Error ? error.message : 'The request failed.' });
    }
  };
  return (
    <section aria-labelledby="forgot-heading">
      <h2 id="forgot-heading">Reset your password</h2>
      {state === 'sent' ? (
        <p role="status">
          If an account uses that e-mail, a link to choose a new password is on its way. No e-mail after a few minutes?
          Ask your administrator for a reset link.
        </p>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <p className="field">
            <label htmlFor="forgot-email">E-mail</label>
            <input id="forgot-email" name="email" type="email" autoComplete="username" required />
          </p>
          {typeof state === 'object' && (
            <p className="form-problem" role="alert">
              {state.problem}
            </p>
          )}
          <button type="submit" className="button button-primary" disabled={state === 'busy'}>
            Send me a link
          </button>
        </form>
      )}
      <p>
        <button type="button" className="link-button" onClick={onBack}>
          Back to sign-in
        </button>
      </p>
    </section>
  );
}

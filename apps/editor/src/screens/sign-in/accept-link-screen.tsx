import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { ApiError, api } from '../../api/client.ts';
import { useSessionActions } from '../../api/session.ts';
import '../../styles/sign-in.css';

/** `GET /app/api/links/{token}`: whom an invitation or reset link is for. */
interface LinkDescription {
  readonly email: string;
  readonly purpose: 'invite' | 'reset';
  readonly project_name: string | null;
}

/** The server's own rule (docs/people.md), checked here first so the person hears it at once. */
const minPasswordLength = 10;

let takenToken = '';

/**
 * The link's token is read from the fragment (`/app/accept#token`: never sent to a server or a
 * referrer) and dropped from the address bar; kept here, so a second render still has it.
 */
function takeToken(): string {
  const token = window.location.hash.slice(1);
  if (token) {
    takenToken = token;
    window.history.replaceState(window.history.state, '', window.location.pathname);
  }
  return takenToken;
}

/** Accept an invitation or a reset link: the person sees their e-mail, chooses a password, is signed in. */
export function AcceptLinkScreen() {
  const [token] = useState(takeToken);
  const link = useQuery({
    queryKey: ['link', token],
    queryFn: () => api<LinkDescription>(`/links/${encodeURIComponent(token)}`),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
  const { acceptLink } = useSessionActions();
  const [, navigate] = useLocation();
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);

  if (token === '' || link.isError)
    return (
      <main className="page-narrow sign-in">
        <h1>This link cannot be used</h1>
        <p>
          {link.error instanceof ApiError && link.error.status !== 404
            ? link.error.message
            : 'It was used already, has expired, or is incomplete. Ask for a new link.'}
        </p>
        <p>
          <Link href="/sign-in">Sign in</Link>
        </p>
      </main>
    );
  if (link.isPending)
    return (
      <p className="page-narrow" role="status">
        Loading…
      </p>
    );

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    if (password.length < minPasswordLength)
      return setProblem(`The password must be at least ${minPasswordLength} characters long.`);
    if (password !== String(form.get('confirmation') ?? '')) return setProblem('The two passwords differ.');
    setBusy(true);
    setProblem(null);
    try {
      await acceptLink({ token, password });
      navigate('/', { replace: true });
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'The password could not be set.');
    } finally {
      setBusy(false);
    }
  };

  const isInvite = link.data.purpose === 'invite';
  return (
    <main className="page-narrow sign-in">
      <h1>{isInvite ? 'Welcome to Lectern' : 'Choose a new password'}</h1>
      {isInvite && link.data.project_name && <p>You are invited to the project {link.data.project_name}.</p>}
      <form onSubmit={(e) => void submit(e)}>
        <p className="field">
          <label htmlFor="accept-email">E-mail</label>
          <input id="accept-email" type="email" value={link.data.email} autoComplete="username" readOnly />
        </p>
        <p className="field">
          <label htmlFor="accept-password">New password</label>
          <input
            id="accept-password"
            name="password"
            type="password"
            autoComplete="new-password"
            aria-describedby="accept-password-hint"
            required
          />
          <span id="accept-password-hint" className="hint">
            At least {minPasswordLength} characters.
          </span>
        </p>
        <p className="field">
          <label htmlFor="accept-confirmation">Confirm the password</label>
          <input id="accept-confirmation" name="confirmation" type="password" autoComplete="new-password" required />
        </p>
        {problem && (
          <p className="form-problem" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" className="button button-primary" disabled={isBusy}>
          {isInvite ? 'Set password and sign in' : 'Save password and sign in'}
        </button>
      </form>
    </main>
  );
}

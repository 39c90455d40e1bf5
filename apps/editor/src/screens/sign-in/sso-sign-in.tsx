import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

/*
 * Single sign-on on the sign-in screen (docs/sso.md): `GET /app/api/sign-in-options` says whether
 * password sign-in is on and which provider, if any, signs people in. "Sign in with <provider>" is
 * a plain link (a top-level navigation to the provider, through `/app/api/sso/start`); a refused
 * sign-in comes back to this screen with `?sso_error=<code>`.
 */

/** `GET /app/api/sign-in-options` (`SignInOptionsJson` in the Management service's wire types). */
export interface SignInOptions {
  readonly password: boolean;
  readonly sso: { readonly provider_name: string; readonly start_url: string } | null;
}

export function useSignInOptions() {
  return useQuery({
    queryKey: ['sign-in-options'],
    queryFn: () => api<SignInOptions>('/sign-in-options'),
    staleTime: Infinity,
    retry: false,
  });
}

/** What the person reads after a refused single sign-on, by the server's catalogue code. */
const ssoProblems: Record<string, string> = {
  SSO_EMAIL_NOT_VERIFIED:
    'Your identity provider has not verified your e-mail address, so Lectern cannot match you by it. Verify it there, then sign in again.',
  SSO_EMAIL_MISSING: 'Your identity provider sent no e-mail address for you. Ask your administrator.',
  SSO_STATE_INVALID: 'That sign-in had expired or was not started here. Sign in again.',
  SSO_PROVIDER_REFUSED: 'Your identity provider did not sign you in. Sign in again, or ask your administrator.',
};

export function ssoProblemOf(code: string | null): string | null {
  if (code === null) return null;
  return ssoProblems[code] ?? 'Single sign-on failed. Sign in again.';
}

/** The "Sign in with <provider>" link; `next` is the app path to land on afterwards. */
export function SsoSignIn({ options, next }: { options: SignInOptions; next: string }) {
  if (options.sso === null) return null;
  const href = `${options.sso.start_url}?${new URLSearchParams({ next }).toString()}`;
  return (
    <p className="sso-sign-in">
      <a className="button button-primary" href={href}>
        Sign in with {options.sso.provider_name}
      </a>
    </p>
  );
}

import type { ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { useSession } from '../api/session.ts';

/** A path inside the app that is safe to go to after sign-in (no other origin, no scheme). */
export function safeNextPath(next: string | null): string {
  if (next === null || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}

/**
 * Shows `children` to a signed-in person; anyone else goes to the sign-in screen, which brings
 * them back to the screen they asked for (`?next=`).
 */
export function SignedIn({ children }: { children: ReactNode }) {
  const session = useSession();
  const [location] = useLocation();
  const search = useSearch();
  if (session.isPending)
    return (
      <p className="page-narrow" role="status">
        Loading…
      </p>
    );
  if (session.isError)
    return (
      <main className="page-narrow">
        <h1>Lectern could not be reached</h1>
        <p>{session.error.message}</p>
        <button type="button" className="button" onClick={() => void session.refetch()}>
          Try again
        </button>
      </main>
    );
  if (session.data === null) {
    const next = `${location}${search ? `?${search}` : ''}`;
    return <Redirect to={next === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  return <>{children}</>;
}

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Redirect, useLocation, useRoute, useSearch } from 'wouter';
import { languagesQuery } from '../api/project-model.ts';
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
  // A project's screens need its languages before their first request: asked for beside the
  // session, not after it (one round trip fewer before the inventory's first page).
  const queryClient = useQueryClient();
  const [, params] = useRoute<{ projectId: string }>('/p/:projectId/*?');
  const projectId = params?.projectId;
  useEffect(() => {
    if (projectId) void queryClient.prefetchQuery(languagesQuery(projectId));
  }, [projectId, queryClient]);
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

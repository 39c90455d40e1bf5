import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiError, api, setCsrfToken } from './client.ts';

/*
 * The person's session (`/app/api/session`, docs/people.md): who is signed in, the CSRF token
 * every change carries, and the projects they belong to with their roles there. The server
 * answers 401 without a session; here that is `null`, not an error.
 */

export interface SessionUser {
  readonly id: string;
  readonly email: string;
}

export interface SessionProject {
  readonly id: string;
  readonly name: string;
  readonly roles: readonly string[];
  readonly permissions: readonly string[];
}

/** `GET /app/api/session` (written by the people helper's routes; no shared type exported yet). */
export interface Session {
  readonly user: SessionUser;
  readonly csrf_token: string;
  readonly projects: readonly SessionProject[];
}

export const sessionQueryKey = ['session'] as const;

/**
 * Whether the person may change content in the project (their roles give `manage_content`): the
 * app shows no enabled change to anyone else, and core refuses a forged one all the same.
 */
export function canManageContent(session: Session | null | undefined, projectId: string): boolean {
  return session?.projects.find((p) => p.id === projectId)?.permissions.includes('manage_content') ?? false;
}

async function fetchSession(): Promise<Session | null> {
  try {
    const session = await api<Session>('/session');
    setCsrfToken(session.csrf_token);
    return session;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      setCsrfToken(null);
      return null;
    }
    throw error;
  }
}

/** The session: `data` is null when nobody is signed in (then show the sign-in screen). */
export function useSession() {
  return useQuery({ queryKey: sessionQueryKey, queryFn: fetchSession, staleTime: 60_000, retry: false });
}

/** Signs in; wrong credentials throw an `ApiError` (401), a locked client one with 429. */
export async function signIn(queryClient: QueryClient, input: { email: string; password: string }): Promise<void> {
  const started = await api<{ csrf_token: string }>('/session', { method: 'POST', body: input });
  setCsrfToken(started.csrf_token);
  await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
}

/** Accepts an invitation or reset link with the chosen password; the answer is a session. */
export async function acceptLink(queryClient: QueryClient, input: { token: string; password: string }): Promise<void> {
  const started = await api<{ csrf_token: string }>(`/links/${encodeURIComponent(input.token)}`, {
    method: 'POST',
    body: { password: input.password },
  });
  setCsrfToken(started.csrf_token);
  await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
}

/** Ends this session, or every session of the person (`isEverywhere`); the cache goes with it. */
export async function signOut(queryClient: QueryClient, options: { isEverywhere: boolean }): Promise<void> {
  try {
    if (options.isEverywhere) await api('/session/sign-out-everywhere', { method: 'POST' });
    else await api('/session', { method: 'DELETE' });
  } finally {
    setCsrfToken(null);
    queryClient.clear();
  }
}

/** The query client, for the session's actions. */
export function useSessionActions() {
  const queryClient = useQueryClient();
  return {
    signIn: (input: { email: string; password: string }) => signIn(queryClient, input),
    acceptLink: (input: { token: string; password: string }) => acceptLink(queryClient, input),
    signOut: (options: { isEverywhere: boolean }) => signOut(queryClient, options),
  };
}

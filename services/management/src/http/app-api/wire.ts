import type { PersonLinkPurpose, PersonProject } from '@lectern/core';

/*
 * The JSON bodies of `/app/api` session routes, for the editor's typed client (`import type`).
 * The project routes answer the Management API v2 shapes.
 */

export interface SessionUserJson {
  readonly id: string;
  readonly email: string;
}

/** `POST /app/api/session`, `POST /app/api/links/{token}`: signed in (the cookie is set too). */
export interface SignedInJson {
  readonly user: SessionUserJson;
  /** Send as `x-csrf-token` on every request that is not GET or HEAD. */
  readonly csrf_token: string;
}

/** `GET /app/api/session`: the person and the environments they may open, with their roles there. */
export interface SessionJson extends SignedInJson {
  readonly projects: readonly PersonProject[];
}

/** `GET /app/api/links/{token}`: what the accept page shows. */
export interface PersonLinkJson {
  readonly email: string;
  readonly purpose: PersonLinkPurpose;
  readonly project_name: string | null;
}

/** `POST /app/api/session/sign-out-everywhere`. */
export interface SignedOutEverywhereJson {
  readonly ended_sessions: number;
}

/** `GET /app/api/sign-in-options`: what the sign-in screen offers (docs/sso.md). */
export interface SignInOptionsJson {
  /** Whether e-mail and password sign-in is on (LECTERN_PASSWORD_SIGN_IN). */
  readonly password: boolean;
  /** Single sign-on, when configured: the button's provider name and where it starts. */
  readonly sso: { readonly provider_name: string; readonly start_url: string } | null;
}

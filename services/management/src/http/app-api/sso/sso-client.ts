import * as oidc from 'openid-client';
import { LecternError } from '@lectern/errors';
import type { IdentitySignInInput } from '@lectern/core';
import { isLoopback, type SsoOptions } from '../../../sso-settings.ts';

/*
 * The OpenID Connect relying party of the editor (docs/sso.md), over `openid-client`: the
 * authorization code flow with PKCE (S256), `state` and `nonce`. What a sign-in in progress must
 * remember (the verifier, state, nonce and redirect URI) travels in a short-lived HttpOnly cookie
 * (sso-routes.ts), so any replica can finish a sign-in another replica started.
 */

/** What `start` hands the browser to keep until the provider sends it back. */
export interface PendingSignIn {
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
  readonly redirectUri: string;
}

/** A verified answer of the provider: the person for the core sign-in, and whether they are an operator. */
export interface SsoAnswer {
  readonly identity: IdentitySignInInput;
  /** Whether the role claim holds LECTERN_OIDC_OPERATOR_VALUE (the console's operators). */
  readonly isOperator: boolean;
}

export interface SsoClient {
  readonly providerName: string;
  /** Whether some person can be an operator of the console through the provider (LECTERN_OIDC_OPERATOR_VALUE). */
  readonly hasOperators: boolean;
  /** The provider's authorization URL for a new sign-in, and what to remember for `finish`. */
  start(input: { redirectUri: string }): Promise<{ url: string; pending: PendingSignIn }>;
  /**
   * Checks the provider's answer (`query`: the callback's query string) against `pending` and
   * the provider's keys, and answers the person's verified claims. SSO_STATE_INVALID
   * for another sign-in's answer, SSO_PROVIDER_REFUSED when the provider says no or its answer does
   * not verify.
   */
  finish(input: { query: URLSearchParams; pending: PendingSignIn }): Promise<SsoAnswer>;
}

/** The longest a provider may take for discovery or a token exchange, in seconds. */
const providerTimeoutSeconds = 10;

/**
 * Reads the provider's discovery document and answers the client; throws an Error naming
 * LECTERN_OIDC_ISSUER when the provider cannot be reached or its document does not fit.
 */
export async function discoverSso(options: SsoOptions): Promise<SsoClient> {
  const issuer = new URL(options.issuer);
  // The ID token's signature is checked against the provider's keys too (openid-client leaves it to
  // TLS by default): a provider on loopback may speak plain http, and a forged token must not pass.
  const execute = [
    oidc.enableNonRepudiationChecks,
    ...(issuer.protocol === 'http:' && isLoopback(issuer.hostname) ? [oidc.allowInsecureRequests] : []),
  ];
  let config: oidc.Configuration;
  try {
    config = await oidc.discovery(
      issuer,
      options.clientId,
      options.clientSecret === null ? {} : { client_secret: options.clientSecret },
      options.clientSecret === null ? oidc.None() : oidc.ClientSecretBasic(options.clientSecret),
      { execute, timeout: providerTimeoutSeconds },
    );
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(
      `LECTERN_OIDC_ISSUER: cannot read the OpenID discovery document of ${options.issuer} (${why}). ` +
        'Check the issuer URL (its /.well-known/openid-configuration must answer) and that this server can reach it.',
      { cause: error },
    );
  }
  config.timeout = providerTimeoutSeconds;
  return createSsoClient(config, options);
}

function createSsoClient(config: oidc.Configuration, options: SsoOptions): SsoClient {
  return {
    providerName: options.providerName,
    hasOperators: options.operatorValue !== null,
    async start({ redirectUri }) {
      const pending: PendingSignIn = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
        redirectUri,
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: options.scopes,
        response_type: 'code',
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url: url.href, pending };
    },
    async finish({ query, pending }) {
      // Checked before anything goes to the provider: an answer to another sign-in stops here.
      if (query.get('state') !== pending.state) throw new LecternError('SSO_STATE_INVALID');
      const currentUrl = new URL(pending.redirectUri);
      currentUrl.search = query.toString();
      let claims: Record<string, unknown>;
      try {
        const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
        const idToken = tokens.claims();
        if (!idToken) throw new Error('no ID token');
        claims = { ...idToken };
        // Some providers put the e-mail or the role claim only in the UserInfo answer.
        const needed = ['email', options.emailVerifiedClaim, ...(options.roleClaim ? [options.roleClaim] : [])];
        if (needed.some((c) => claims[c] === undefined) && config.serverMetadata().userinfo_endpoint) {
          const info = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
          claims = { ...info, ...claims };
          for (const c of needed) if (claims[c] === undefined && info[c] !== undefined) claims[c] = info[c];
        }
      } catch (error) {
        throw new LecternError('SSO_PROVIDER_REFUSED', { cause: error });
      }
      const values = options.roleClaim === null ? [] : claimValues(claims[options.roleClaim]);
      return {
        identity: identityOf(claims, options),
        isOperator: options.operatorValue !== null && values.includes(options.operatorValue),
      };
    },
  };
}

/** The core sign-in's input from verified claims: the e-mail, whether it is verified, the mapped roles. */
export function identityOf(claims: Record<string, unknown>, options: SsoOptions): IdentitySignInInput {
  const values = options.roleClaim === null ? [] : claimValues(claims[options.roleClaim]);
  const grants = options.roleMap
    .filter((entry) => values.includes(entry.claimValue))
    .map((entry) => ({ projectId: entry.projectId, role: entry.role }));
  const verified = claims[options.emailVerifiedClaim];
  const name = claims['name'];
  return {
    email: claims['email'],
    // Only a real true (or the string "true" some providers send) vouches for the address.
    isEmailVerified: verified === true || verified === 'true',
    name: typeof name === 'string' ? name : undefined,
    grants,
    mappedProjectIds: options.roleMap.map((entry) => entry.projectId),
  };
}

/** A claim's string values: a string, or the strings of an array (at most 1,000 looked at). */
function claimValues(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return [];
  return value.slice(0, 1000).filter((v): v is string => typeof v === 'string');
}

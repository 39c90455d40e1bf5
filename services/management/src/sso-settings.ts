import { z } from 'zod';
import { ConfigError, envBoolean, type ConfigOf, type Setting } from '@lectern/config';
import { grantableRoles, type IdentityGrant } from '@lectern/core';

/*
 * Single sign-on through OpenID Connect (docs/sso.md). Off unless LECTERN_OIDC_ISSUER is set;
 * then the client id is required, and the provider's discovery document is read at start (a
 * server whose provider cannot be reached does not start). `lectern start` and the cluster's
 * Management service read the same names.
 */

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One entry of the role map: a claim value granting a built-in role in an environment. */
export interface RoleMapEntry extends IdentityGrant {
  readonly claimValue: string;
}

/**
 * Parses `LECTERN_OIDC_ROLE_MAP`: comma-separated `<claim value>=<environment id>:<role>`, the role
 * one of project-manager, developer, content-creator, reviewer. The claim value is everything
 * before the last `=` (Keycloak's group paths such as `/lectern/editors` work as they are).
 */
export function parseRoleMap(value: string, ctx: z.RefinementCtx): RoleMapEntry[] {
  const out: RoleMapEntry[] = [];
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const cut = entry.lastIndexOf('=');
    const claimValue = entry.slice(0, cut).trim();
    const [projectId = '', role = '', ...rest] = entry
      .slice(cut + 1)
      .split(':')
      .map((s) => s.trim());
    const isRole = (grantableRoles as readonly string[]).includes(role);
    if (cut <= 0 || claimValue === '' || rest.length > 0 || !uuidPattern.test(projectId.toLowerCase()) || !isRole) {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" is not <claim value>=<environment id>:<role> (role: ${grantableRoles.join(', ')})`,
      });
      continue;
    }
    out.push({ claimValue, projectId: projectId.toLowerCase(), role: role as IdentityGrant['role'] });
  }
  return out;
}

const httpUrl = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//.test(u), { message: 'must be an http or https URL' });

export const managementSsoSettings = {
  oidcIssuer: {
    env: 'LECTERN_OIDC_ISSUER',
    schema: httpUrl.optional(),
    doc: 'OpenID Connect issuer (its discovery document is read at start), e.g. https://id.example.com/realms/acme; unset: no single sign-on. http only on loopback.',
  },
  oidcClientId: {
    env: 'LECTERN_OIDC_CLIENT_ID',
    schema: z.string().min(1).max(400).optional(),
    doc: 'The client id Lectern has at the provider (required with LECTERN_OIDC_ISSUER).',
  },
  oidcClientSecret: {
    env: 'LECTERN_OIDC_CLIENT_SECRET',
    schema: z.string().min(1).max(4000).optional(),
    isSecret: true,
    doc: 'The client secret (client_secret_basic); unset: a public client (PKCE only).',
  },
  oidcScopes: {
    env: 'LECTERN_OIDC_SCOPES',
    schema: z
      .string()
      .regex(/^[\x21-\x7e]+( [\x21-\x7e]+)*$/, 'space-separated scope names')
      .refine((s) => s.split(' ').includes('openid'), { message: 'must include openid' }),
    default: 'openid email profile',
    doc: 'Scopes asked for, space-separated (openid required); add the scope that carries the role claim (e.g. groups) when the provider needs one.',
  },
  oidcProviderName: {
    env: 'LECTERN_OIDC_PROVIDER_NAME',
    schema: z.string().min(1).max(60),
    default: 'single sign-on',
    doc: 'The name on the sign-in button ("Sign in with <name>"), e.g. Keycloak, Microsoft.',
  },
  oidcEmailVerifiedClaim: {
    env: 'LECTERN_OIDC_EMAIL_VERIFIED_CLAIM',
    schema: z.string().min(1).max(100),
    default: 'email_verified',
    doc: 'The boolean claim by which the provider vouches for the e-mail address (Entra ID: xms_edov); a person whose claim is not true is refused.',
  },
  oidcRoleClaim: {
    env: 'LECTERN_OIDC_ROLE_CLAIM',
    schema: z.string().min(1).max(100).optional(),
    doc: 'The claim whose values (a string or an array of strings) LECTERN_OIDC_ROLE_MAP maps to roles, e.g. groups or roles; unset: roles come from invitations only.',
  },
  oidcRoleMap: {
    env: 'LECTERN_OIDC_ROLE_MAP',
    schema: z.string().max(20_000).transform(parseRoleMap),
    default: '',
    doc: 'Comma-separated <claim value>=<environment id>:<role> (project-manager, developer, content-creator, reviewer); the claim decides the roles in every environment named here.',
  },
  oidcOperatorValue: {
    env: 'LECTERN_OIDC_OPERATOR_VALUE',
    schema: z.string().min(1).max(400).optional(),
    doc: 'A value of LECTERN_OIDC_ROLE_CLAIM that makes a person an operator of the console (every project), signed in through the provider; unset: the console takes the operator token and management keys only.',
  },
  passwordSignIn: {
    env: 'LECTERN_PASSWORD_SIGN_IN',
    schema: envBoolean,
    default: 'true',
    doc: 'false: people sign in to the editor only through single sign-on (needs LECTERN_OIDC_ISSUER); the password route answers 403.',
  },
} satisfies Record<string, Setting<unknown>>;

export type SsoConfig = ConfigOf<typeof managementSsoSettings>;

/** What the app needs of the settings: null when single sign-on is off. */
export interface SsoOptions {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string | null;
  readonly scopes: string;
  readonly providerName: string;
  readonly emailVerifiedClaim: string;
  readonly roleClaim: string | null;
  readonly roleMap: readonly RoleMapEntry[];
  /** The role claim's value that makes a person an operator of the console; null: none. */
  readonly operatorValue: string | null;
}

/** The single sign-on options of the settings (null: off); ConfigError naming the settings that do not fit together. */
export function ssoOptionsOf(config: SsoConfig): SsoOptions | null {
  const problems: string[] = [];
  if (config.oidcIssuer === undefined) {
    if (config.oidcOperatorValue !== undefined) problems.push('LECTERN_OIDC_OPERATOR_VALUE needs LECTERN_OIDC_ISSUER');
    if (!config.passwordSignIn)
      problems.push('LECTERN_PASSWORD_SIGN_IN=false needs LECTERN_OIDC_ISSUER: otherwise no one could sign in');
    if (problems.length > 0) throw new ConfigError(problems);
    return null;
  }
  if (config.oidcClientId === undefined) problems.push('LECTERN_OIDC_CLIENT_ID: required with LECTERN_OIDC_ISSUER');
  if (config.oidcRoleMap.length > 0 && config.oidcRoleClaim === undefined)
    problems.push('LECTERN_OIDC_ROLE_MAP needs LECTERN_OIDC_ROLE_CLAIM (the claim whose values it maps)');
  if (config.oidcOperatorValue !== undefined && config.oidcRoleClaim === undefined)
    problems.push('LECTERN_OIDC_OPERATOR_VALUE needs LECTERN_OIDC_ROLE_CLAIM (the claim that holds it)');
  const issuer = new URL(config.oidcIssuer);
  if (issuer.protocol === 'http:' && !isLoopback(issuer.hostname))
    problems.push(
      'LECTERN_OIDC_ISSUER: must be https (http only for a provider on this machine: localhost, 127.0.0.1, ::1)',
    );
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    issuer: config.oidcIssuer,
    clientId: config.oidcClientId ?? '',
    clientSecret: config.oidcClientSecret ?? null,
    scopes: config.oidcScopes,
    providerName: config.oidcProviderName,
    emailVerifiedClaim: config.oidcEmailVerifiedClaim,
    roleClaim: config.oidcRoleClaim ?? null,
    roleMap: config.oidcRoleMap,
    operatorValue: config.oidcOperatorValue ?? null,
  };
}

export function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127\.\d+\.\d+\.\d+$/.test(hostname)
  );
}

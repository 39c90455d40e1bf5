import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@lectern/config';
import { createServer } from 'node:net';
import { discoverSso, identityOf } from './http/app-api/sso/sso-client.ts';
import { managementSsoSettings, ssoOptionsOf } from './sso-settings.ts';

/* The single sign-on settings: the role map's grammar, settings that must go together, and claims → grants. */

const project = '0b6c2f39-7a3e-4c55-9d43-2d3b8f1f6a10';
const load = (env: Record<string, string>) => loadConfig({ settings: managementSsoSettings, env });

describe('single sign-on settings', () => {
  it('is off without an issuer, and refuses password sign-in off without one', () => {
    expect(ssoOptionsOf(load({}))).toBeNull();
    expect(() => ssoOptionsOf(load({ LECTERN_PASSWORD_SIGN_IN: 'false' }))).toThrow(/LECTERN_OIDC_ISSUER/);
  });

  it('names every setting that is missing or wrong at once', () => {
    let problems: readonly string[] = [];
    try {
      ssoOptionsOf(
        load({
          LECTERN_OIDC_ISSUER: 'http://id.example.com',
          LECTERN_OIDC_ROLE_MAP: `a=${project}:reviewer`,
          LECTERN_OIDC_OPERATOR_VALUE: 'ops',
        }),
      );
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems.join('\n')).toMatch(/LECTERN_OIDC_CLIENT_ID/);
    expect(problems.join('\n')).toMatch(/LECTERN_OIDC_ROLE_CLAIM/);
    expect(problems.join('\n')).toMatch(/must be https/);
    expect(problems.join('\n')).toMatch(/LECTERN_OIDC_OPERATOR_VALUE needs LECTERN_OIDC_ROLE_CLAIM/);
  });

  it('parses the role map (claim values with slashes and = kept) and refuses a wrong entry by its text', () => {
    const config = load({
      LECTERN_OIDC_ISSUER: 'https://id.example.com/realms/acme',
      LECTERN_OIDC_CLIENT_ID: 'lectern',
      LECTERN_OIDC_ROLE_CLAIM: 'groups',
      LECTERN_OIDC_ROLE_MAP: ` /acme/editors=${project.toUpperCase()}:content-creator, a=b=${project}:project-manager `,
    });
    expect(ssoOptionsOf(config)?.roleMap).toEqual([
      { claimValue: '/acme/editors', projectId: project, role: 'content-creator' },
      { claimValue: 'a=b', projectId: project, role: 'project-manager' },
    ]);
    expect(() => load({ LECTERN_OIDC_ROLE_MAP: `editors=${project}:admin` })).toThrow(/"editors=.*:admin" is not/);
    expect(() => load({ LECTERN_OIDC_ROLE_MAP: 'editors=not-an-id:reviewer' })).toThrow(ConfigError);
    expect(() => load({ LECTERN_OIDC_SCOPES: 'email profile' })).toThrow(/must include openid/);
  });

  it('turns claims into grants: a string or an array of strings, only true vouches for the e-mail', () => {
    const options = ssoOptionsOf(
      load({
        LECTERN_OIDC_ISSUER: 'http://127.0.0.1:9999',
        LECTERN_OIDC_CLIENT_ID: 'lectern',
        LECTERN_OIDC_ROLE_CLAIM: 'roles',
        LECTERN_OIDC_EMAIL_VERIFIED_CLAIM: 'xms_edov',
        LECTERN_OIDC_ROLE_MAP: `Writers=${project}:content-creator,Admins=${project}:project-manager`,
      }),
    );
    if (options === null) throw new Error('expected single sign-on on');
    expect(identityOf({ email: 'a@b.c', xms_edov: true, roles: ['Writers', 7, 'Other'] }, options)).toMatchObject({
      isEmailVerified: true,
      grants: [{ projectId: project, role: 'content-creator' }],
      mappedProjectIds: [project, project],
    });
    expect(identityOf({ email: 'a@b.c', xms_edov: 'yes', roles: 'Admins' }, options)).toMatchObject({
      isEmailVerified: false,
      grants: [{ projectId: project, role: 'project-manager' }],
    });
    expect(identityOf({ email: 'a@b.c', email_verified: true }, options).isEmailVerified).toBe(false);
  });

  it('does not start when the issuer cannot be reached: the error names LECTERN_OIDC_ISSUER', async () => {
    // A port that was free a moment ago: nothing answers there.
    const probe = createServer();
    const port = await new Promise<number>((resolve) =>
      probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)),
    );
    await new Promise((resolve) => probe.close(resolve));
    const options = ssoOptionsOf(
      load({ LECTERN_OIDC_ISSUER: `http://127.0.0.1:${port}/realms/acme`, LECTERN_OIDC_CLIENT_ID: 'lectern' }),
    );
    if (options === null) throw new Error('expected single sign-on on');
    await expect(discoverSso(options)).rejects.toThrow(
      /^LECTERN_OIDC_ISSUER: cannot read the OpenID discovery document/,
    );
  });
});

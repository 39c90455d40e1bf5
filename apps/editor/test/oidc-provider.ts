import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Adapter, type AdapterPayload, type Configuration } from 'oidc-provider';

/*
 * A real OpenID provider for the single sign-on tests: the npm `oidc-provider` (panva's certified
 * implementation) on a loopback port, with its development interaction (a sign-in form that
 * takes a login and any password, then a consent page). One confidential client, `lectern`, whose
 * redirect URIs are set once Lectern listens (`setRedirectUris`): the provider must be up first,
 * since Lectern reads its discovery document at start.
 */

export interface TestAccount {
  readonly email: string;
  readonly emailVerified: boolean;
  readonly name: string;
  readonly groups: readonly string[];
}

export interface LocalProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Registers Lectern's callback URLs (the editor's, the console's) as the client's redirect URIs. */
  setRedirectUris(uris: readonly string[]): void;
  stop(): Promise<void>;
}

/** A memory store for the provider's models; the client is read from `clients` (mutable). */
function memoryAdapter(clients: Map<string, AdapterPayload>) {
  const rows = new Map<string, AdapterPayload>();
  return class MemoryAdapter implements Adapter {
    private readonly model: string;
    constructor(model: string) {
      this.model = model;
    }
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload): Promise<void> {
      rows.set(this.key(id), payload);
    }
    async find(id: string): Promise<AdapterPayload | undefined> {
      return this.model === 'Client' ? clients.get(id) : rows.get(this.key(id));
    }
    async findByUserCode(): Promise<undefined> {
      return undefined;
    }
    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      for (const [key, payload] of rows) if (key.startsWith(`${this.model}:`) && payload.uid === uid) return payload;
      return undefined;
    }
    async consume(id: string): Promise<void> {
      const row = rows.get(this.key(id));
      if (row) row.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string): Promise<void> {
      rows.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string): Promise<void> {
      for (const [key, payload] of rows) if (payload.grantId === grantId) rows.delete(key);
    }
  };
}

/** Starts the provider with `accounts` (by login name, as typed into its sign-in form). */
export async function startLocalProvider(accounts: Readonly<Record<string, TestAccount>>): Promise<LocalProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'lectern';
  const clientSecret = 'a-test-client-secret-of-the-local-provider';
  const clients = new Map<string, AdapterPayload>();
  const setRedirectUris = (uris: readonly string[]) =>
    clients.set(clientId, {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [...uris],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    });
  setRedirectUris(['http://127.0.0.1:1/not-yet']);
  const configuration: Configuration = {
    adapter: memoryAdapter(clients),
    cookies: { keys: ['local-provider-cookie-key-for-tests-only'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    pkce: { required: () => true },
    // Lifetimes in seconds (the provider asks for them to be chosen).
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    findAccount: (_ctx, id) => {
      const account = accounts[id];
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: account.email,
          email_verified: account.emailVerified,
          name: account.name,
          groups: [...account.groups],
        }),
      };
    },
  };
  const provider = new Provider(issuer, configuration);
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    setRedirectUris,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

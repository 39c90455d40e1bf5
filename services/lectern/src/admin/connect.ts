import { join, resolve } from 'node:path';
import { openPgliteStore, openPostgresStore } from '@lectern/store-sql';
import { lockDataDir, readServerInfo } from '../data-dir.ts';
import type { AdminPort } from './admin-port.ts';
import { defaultManagementUrl, directAdmin } from './direct-admin.ts';
import { httpAdmin } from './http-admin.ts';

export interface ConnectOptions {
  readonly dataDir: string;
  readonly databaseUrl?: string | undefined;
  /** An explicit admin API (a remote server): management URL and operator token. */
  readonly url?: string | undefined;
  readonly token?: string | undefined;
  /** LECTERN_MANAGEMENT_PUBLIC_URL: where people's links point when the CLI works on the store itself. */
  readonly managementPublicUrl?: string | undefined;
}

/**
 * Chooses how the CLI reaches projects and keys: an explicit `--url`; else the server running on
 * the data directory (found through server.json); else the store itself, opened directly.
 */
export async function connectAdmin(options: ConnectOptions): Promise<AdminPort> {
  if (options.url !== undefined) {
    if (!options.token)
      throw new Error('--url needs --token (or LECTERN_OPERATOR_TOKEN): the operator token of that server.');
    return httpAdmin({ managementUrl: options.url.replace(/\/+$/, ''), operatorToken: options.token });
  }
  const dataDir = resolve(options.dataDir);
  const running = readServerInfo(dataDir);
  if (running?.urls['management'])
    return httpAdmin({ managementUrl: running.urls['management'], operatorToken: running.operatorToken });
  const direct = { managementUrl: options.managementPublicUrl ?? defaultManagementUrl };
  if (options.databaseUrl !== undefined) {
    return directAdmin(await openPostgresStore({ connectionString: options.databaseUrl }), () => undefined, direct);
  }
  const lock = lockDataDir(dataDir);
  try {
    return directAdmin(await openPgliteStore({ dataDir: join(dataDir, 'pglite') }), () => lock.release(), direct);
  } catch (error) {
    lock.release();
    throw error;
  }
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@lectern/config';
import { startEmbedded, type EmbeddedServer } from '../embedded.ts';
import { startSettings } from '../settings.ts';

/** An embedded Lectern for webhook tests, with its demo project's id and management key. */
export interface WebhooksTestServer {
  readonly server: EmbeddedServer;
  readonly projectId: string;
  readonly managementKey: string;
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * Test support: starts the embedded process in a fresh data directory, with receivers on private
 * addresses allowed (tests listen on 127.0.0.1) and no Management rate limit.
 */
export async function startWebhooksTestServer(): Promise<WebhooksTestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-webhooks-'));
  const server = await startEmbedded(
    loadConfig({
      settings: startSettings,
      env: {
        LECTERN_DATA_DIR: dataDir,
        LECTERN_PORT_BASE: '0',
        LECTERN_LOG_LEVEL: 'silent',
        LECTERN_WEBHOOKS_ALLOW_PRIVATE: 'true',
        LECTERN_MANAGEMENT_PER_SECOND: '0',
        LECTERN_MANAGEMENT_PER_MINUTE: '0',
        LECTERN_MANAGEMENT_PER_HOUR: '0',
      },
    }),
  );
  const demo = server.demo;
  if (demo === null) throw new Error('no demo project');
  return {
    server,
    projectId: demo.project.id,
    managementKey: demo.keys.find((k) => k.key.kind === 'management')?.secret ?? '',
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

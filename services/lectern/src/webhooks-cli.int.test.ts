import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestReceiver } from '@lectern/testing';
import { runCommand, startServer } from './testing/test-process.ts';

describe('lectern webhooks', () => {
  it('adds, lists, disables, enables, re-points and deletes webhooks, through the admin API and on the store', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lectern-webhooks-cli-'));
    const receiver = await startTestReceiver();
    const server = await startServer(dataDir, ['--webhooks-allow-private', 'true']);
    try {
      const projectId = server.summary.demo?.project_id as string;
      const cli = async (...args: string[]) => {
        const result = await runCommand(['webhooks', ...args, '--data-dir', dataDir]);
        if (result.code !== 0) throw new Error(`lectern webhooks ${args.join(' ')}: ${result.stderr}`);
        return result.stdout;
      };
      const added = JSON.parse(
        await cli('add', projectId, receiver.url, '--name', 'Everything', '--secret', 's3cret', '--header', 'x-a=1', '--json'),
      ) as { id: string; enabled: boolean; headers: unknown };
      expect(added).toMatchObject({ enabled: true, headers: [{ key: 'x-a', value: '1' }] });
      expect(await cli('list', projectId)).toMatch(/Everything/);

      // A change through the Management API is delivered to the webhook the CLI registered.
      const key = server.summary.demo?.keys.find((k) => k.kind === 'management')?.api_key as string;
      const created = await fetch(`${server.summary.urls['management']}/v2/projects/${projectId}/taxonomies`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Cli', codename: 'cli', terms: [] }),
      });
      expect(created.status).toBe(201);
      await receiver.waitFor(1);
      const debug = JSON.parse(await cli('notifications', projectId, added.id, '--json')) as { state: string }[];
      expect(debug.map((n) => n.state)).toContain('delivered');

      await cli('disable', projectId, added.id);
      expect(JSON.parse(await cli('get', projectId, added.id, '--json'))).toMatchObject({ enabled: false });
      await cli('enable', projectId, added.id);
      const moved = JSON.parse(await cli('set-url', projectId, added.id, 'https://example.com/new', '--json')) as {
        url: string;
      };
      expect(moved.url).toBe('https://example.com/new');
      const bad = await runCommand(['webhooks', 'add', projectId, 'nope', '--name', 'x', '--data-dir', dataDir]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/url/);

      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      // No server: the CLI works on the store and sees the same webhook.
      expect(await cli('list', projectId)).toMatch(/example\.com\/new/);
      await cli('delete', projectId, added.id);
      expect(JSON.parse(await cli('list', projectId, '--json'))).toEqual([]);
    } finally {
      server.child.kill('SIGKILL');
      await receiver.close();
    }
  }, 120_000);
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand, startServer } from './testing/test-process.ts';

type Json = Record<string, unknown>;

describe('lectern environments, projects delete, users and roles', () => {
  it('clones with progress, deletes with confirmation and manages users and roles, through the admin API and on the store', { timeout: 600_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lectern-environments-cli-'));
    const server = await startServer(dataDir);
    const management = server.summary.urls['management'] as string;
    const demo = server.summary.demo?.project_id as string;
    const demoKey = server.summary.demo?.keys.find((k) => k.kind === 'management')?.api_key as string;
    const lectern = (...args: string[]) => runCommand([...args, '--data-dir', dataDir]);
    const api = async (projectId: string, key: string, path: string, init: RequestInit = {}) => {
      const response = await fetch(`${management}/v2/projects/${projectId}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      });
      return { status: response.status, json: (await response.json().catch(() => ({}))) as Json };
    };
    try {
      const commands = [
        ['environments', 'clone'],
        ['projects', 'delete'],
        ['users', 'invite'],
        ['users', 'roles'],
        ['users', 'list'],
        ['users', 'reset-link'],
        ['roles', 'list'],
      ];
      const helps = await Promise.all(commands.map((command) => runCommand([...command, '--help'])));
      for (const [i, help] of helps.entries()) {
        expect(help.code, commands[i]?.join(' ')).toBe(0);
        expect(help.stdout).toMatch(/--data-dir/);
      }

      // Roles and users.
      const roles = JSON.parse((await lectern('roles', 'list', demo, '--json')).stdout) as { name: string; permissions: string[] }[];
      expect(roles.map((r) => [r.name, r.permissions])).toEqual([
        ['Project manager', ['manage_content', 'manage_model', 'manage_environment']],
        ['Developer', ['manage_content', 'manage_model']],
        ['Content creator', ['manage_content']],
        ['Reviewer', []],
      ]);
      expect((await lectern('roles', 'list', demo)).stdout).toMatch(/content-creator\s+Content creator\s+manage_content/);
      const invited = await lectern('users', 'invite', demo, 'bob@example.com', '--role', 'reviewer');
      expect(invited.code).toBe(0);
      expect(invited.stdout).toMatch(
        new RegExp(`^Invited bob@example.com as Reviewer.\nInvitation link \\(send it to them; valid until \\S+\\):\n${management}/app/accept#[\\w-]{43}\n$`),
      );
      const unknownRole = await lectern('users', 'invite', demo, 'eve@example.com', '--role', 'boss');
      expect(unknownRole.code).toBe(1);
      expect(unknownRole.stderr).toMatch(/Unknown role "boss". Roles: project-manager, developer, content-creator, reviewer/);
      expect(unknownRole.stderr).toMatch(/lectern roles list/);
      const changed = await lectern('users', 'roles', demo, 'bob@example.com', '--role', 'Content creator');
      expect(changed).toMatchObject({ code: 0, stdout: 'bob@example.com is now Content creator.\n' });
      const nobody = await lectern('users', 'roles', demo, 'nobody@example.com', '--role', 'reviewer');
      expect(nobody.code).toBe(1);
      expect(nobody.stderr).toMatch(/lectern users list/);
      const users = JSON.parse((await lectern('users', 'list', demo, '--json')).stdout) as Json[];
      expect(users.find((u) => u['email'] === 'bob@example.com')).toMatchObject({ roles: ['Content creator'], source: 'invited' });
      expect(users.some((u) => u['source'] === 'key_owner')).toBe(true);
      // A reset link (printed, no e-mail): Bob chooses a password there and reads the project in the editor's API.
      const reset = await lectern('users', 'reset-link', demo, 'bob@example.com');
      expect(reset.code, reset.stderr).toBe(0);
      expect(reset.stdout).toMatch(/^Password reset link for bob@example.com \(send it to them; valid until \S+\):\n/);
      const resetToken = /\/app\/accept#([\w-]{43})\n$/.exec(reset.stdout)?.[1] as string;
      const accepted = await fetch(`${management}/app/api/links/${resetToken}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password: 'bobs new password' }),
      });
      expect(accepted.status).toBe(200);
      const cookie = /lectern_app=[\w-]+/.exec(accepted.headers.get('set-cookie') ?? '')?.[0] as string;
      const asBob = await fetch(`${management}/app/api/v2/projects/${demo}/items`, { headers: { cookie } });
      expect(asBob.status).toBe(200);
      const noOne = await lectern('users', 'reset-link', demo, 'nobody@example.com');
      expect(noOne.code).toBe(1);
      expect(noOne.stderr).toMatch(/user was not found/);
      // Bob's key may write content but not the model.
      const bobKey = JSON.parse(
        (await lectern('keys', 'create', demo, '--kind', 'management', '--user', 'bob@example.com', '--json')).stdout,
      ) as { api_key: string };
      const refused = await api(demo, bobKey.api_key, '/taxonomies', { method: 'POST', body: JSON.stringify({ name: 'X', terms: [] }) });
      expect(refused).toMatchObject({ status: 403, json: { error_code: 16 } });

      // Clone with a progress counter, then the clone serves the same items.
      const cloned = await lectern('environments', 'clone', demo, '--name', 'Staging');
      expect(cloned.code, cloned.stderr).toBe(0);
      const progress = cloned.stderr.trim().split('\n');
      expect(progress.at(-1)).toMatch(/^Copying items and assets: (\d+)\/\1$/);
      const cloneId = /: ([0-9a-f-]{36})\n/.exec(cloned.stdout)?.[1] as string;
      const cloneKey = /management key: (\S+)/.exec(cloned.stdout)?.[1] as string;
      expect((await api(cloneId, cloneKey, '/environment-cloning-state')).json).toEqual({ cloning_state: 'done' });
      const items = async (projectId: string, key: string) =>
        ((await api(projectId, key, '/items')).json['items'] as Json[]).map((i) => i['codename']);
      expect(await items(cloneId, cloneKey)).toEqual(await items(demo, demoKey));

      // Deleting needs --yes; the production environment of a project with clones stays.
      const unconfirmed = await lectern('projects', 'delete', cloneId);
      expect(unconfirmed.code).toBe(1);
      expect(unconfirmed.stderr).toMatch(/Run again with --yes/);
      expect((await api(cloneId, cloneKey, '/items')).status).toBe(200);
      const production = await lectern('projects', 'delete', demo, '--yes');
      expect(production.code).toBe(1);
      expect(production.stderr).toMatch(/Mark another environment of the project as production first/);
      expect(await lectern('projects', 'delete', cloneId, '--yes')).toMatchObject({ code: 0, stdout: `Deleted project ${cloneId}.\n` });
      expect((await api(cloneId, cloneKey, '/items')).status).not.toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }

    // No server: the CLI opens the store and runs the copy itself.
    const offline = await lectern('environments', 'clone', demo, '--name', 'Offline', '--json');
    expect(offline.code, offline.stderr).toBe(0);
    const result = JSON.parse(offline.stdout) as { project: { id: string }; task: { status: string; progress: { done: number; total: number } } };
    expect(result.task.status).toBe('finished');
    expect(result.task.progress.done).toBe(result.task.progress.total);
    const listed = JSON.parse((await lectern('project', 'list', '--json')).stdout) as { id: string; environment: string }[];
    expect(listed.find((p) => p.id === result.project.id)?.environment).toBe('Offline');
    // On the store, the link names the embedded server's default address.
    const offlineLink = await lectern('users', 'reset-link', demo, 'bob@example.com');
    expect(offlineLink.stdout).toMatch(/\nhttp:\/\/localhost:4400\/app\/accept#[\w-]{43}\n$/);
    // Now the demo project's production environment has a clone again; alone it could go.
    expect((await lectern('projects', 'delete', result.project.id, '--yes')).code).toBe(0);
    expect((await lectern('projects', 'delete', demo, '--yes')).code).toBe(0);
    expect((JSON.parse((await lectern('project', 'list', '--json')).stdout) as unknown[]).length).toBe(0);
  });
});

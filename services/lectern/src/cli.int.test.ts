import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand, startServer } from './testing/test-process.ts';

const envInfo = (managementUrl: string, projectId: string, key: string) =>
  fetch(`${managementUrl}/v2/projects/${projectId}`, { headers: { authorization: `Bearer ${key}` } });

describe('lectern start and the operator CLI', () => {
  it('starts embedded with a demo project, manages projects and keys, and stops on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lectern-cli-'));
    const server = await startServer(dataDir);
    const { urls, demo } = server.summary;
    expect(Object.keys(urls).sort()).toEqual(['assets', 'delivery', 'graphql', 'management', 'preview', 'recommendations']);
    const demoProject = demo?.project_id as string;
    const demoKey = demo?.keys.find((k) => k.kind === 'management')?.api_key as string;
    expect((await envInfo(urls['management'] as string, demoProject, demoKey)).status).toBe(200);
    expect((await fetch(`${urls['management']}/v2/projects/${demoProject}`)).status).toBe(401);
    for (const url of Object.values(urls)) expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const types = (await fetch(`${urls['management']}/v2/projects/${demoProject}/types`, {
      headers: { authorization: `Bearer ${demoKey}` },
    }).then((r) => r.json())) as { types: { codename: string; elements: { codename?: string; type: string }[] }[] };
    expect(types.types.map((t) => t.codename).sort()).toEqual(['article', 'author']);
    const article = types.types.find((t) => t.codename === 'article');
    expect(article?.elements.map((e) => e.type)).toEqual([
      'text', 'text', 'rich_text', 'date_time', 'number', 'modular_content', 'taxonomy', 'snippet', 'url_slug',
    ]);

    // The demo content is published: Delivery lists it, and Smart Recommendations recommends from it.
    const deliveryKey = demo?.keys.find((k) => k.kind === 'delivery_primary')?.api_key as string;
    const articles = (await fetch(`${urls['delivery']}/${demoProject}/items?system.type=article&order=elements.published_on[desc]`, {
      headers: { authorization: `Bearer ${deliveryKey}` },
    }).then((r) => r.json())) as { items: { system: { codename: string } }[]; modular_content: Record<string, unknown> };
    expect(articles.items.map((i) => i.system.codename)).toEqual([
      'pricing_a_self_hosted_platform', 'modelling_content_types', 'caching_delivery_responses',
    ]);
    expect(Object.keys(articles.modular_content)).toEqual(['ada_editor']);
    const recsKey = demo?.keys.find((k) => k.kind === 'recommendations')?.api_key as string;
    let recommended: string[] = [];
    for (let i = 0; i < 50 && recommended.length === 0; i++) {
      const response = await fetch(`${urls['recommendations']}/api/v2/recommend/items`, {
        method: 'POST',
        headers: { authorization: `Bearer ${recsKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ visitId: 'demo', currentItemCodename: 'caching_delivery_responses', responseLimit: 3, requestedTypeCodename: 'article' }),
      });
      expect(response.status).toBe(200);
      recommended = ((await response.json()) as { codename: string }[]).map((r) => r.codename);
      if (recommended.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(recommended.sort()).toEqual(['modelling_content_types', 'pricing_a_self_hosted_platform']);

    // While the server runs, the CLI goes through its admin API.
    const created = await runCommand(['project', 'create', 'Shop', '--data-dir', dataDir, '--json']);
    expect(created.code).toBe(0);
    const shop = JSON.parse(created.stdout) as { id: string };
    const key = await runCommand(['keys', 'create', shop.id, '--kind', 'management', '--user', 'ann@example.com', '--data-dir', dataDir, '--json']);
    expect(key.code).toBe(0);
    const issued = JSON.parse(key.stdout) as { id: string; api_key: string };
    expect((await envInfo(urls['management'] as string, shop.id, issued.api_key)).status).toBe(200);

    const regenerated = await runCommand(['keys', 'regenerate', issued.id, '--data-dir', dataDir, '--json']);
    expect(regenerated.code).toBe(0);
    const revokedUse = await envInfo(urls['management'] as string, shop.id, issued.api_key);
    expect(revokedUse.status).toBe(403);
    expect(((await revokedUse.json()) as { error_code: number }).error_code).toBe(7);

    const clash = await runCommand(['keys', 'create', shop.id, '--kind', 'management', '--user', 'ann@example.com', '--data-dir', dataDir]);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toMatch(/lectern keys regenerate/);

    const second = await runCommand(['start', '--port-base', '0', '--data-dir', dataDir]);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/in use by a running Lectern/);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);

    // No server: the CLI opens the store itself and sees the same data.
    const listed = await runCommand(['project', 'list', '--data-dir', dataDir, '--json']);
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { name: string }[]).map((p) => p.name).sort()).toEqual(['Lectern demo', 'Shop']);
    const keys = await runCommand(['keys', 'list', shop.id, '--data-dir', dataDir, '--json']);
    expect((JSON.parse(keys.stdout) as { status: string }[]).map((k) => k.status).sort()).toEqual(['active', 'revoked']);

    // A restart keeps the data and does not seed (or print keys) again.
    const again = await startServer(dataDir);
    expect(again.summary.demo).toBeNull();
    const regeneratedKey = (JSON.parse(regenerated.stdout) as { api_key: string }).api_key;
    expect((await envInfo(again.summary.urls['management'] as string, shop.id, regeneratedKey)).status).toBe(200);
    const demoTypes = `${again.summary.urls['delivery']}/${demoProject}/types`;
    const before = await (await fetch(demoTypes, { headers: { 'x-kc-wait-for-loading-new-content': 'true' } })).text();
    expect((JSON.parse(before) as { types: unknown[] }).types).toHaveLength(2);
    const busy = await runCommand(['index', 'rebuild', '--data-dir', dataDir]);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/Stop it first/);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);

    // The index rebuilt from scratch serves the same answers.
    const rebuilt = await runCommand(['index', 'rebuild', '--data-dir', dataDir]);
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stdout).toMatch(/The delivery index is rebuilt/);
    expect(rebuilt.stderr).toMatch(/items of project 2\/2/);
    const third = await startServer(dataDir);
    const after = await fetch(demoTypes.replace(again.summary.urls['delivery'] as string, third.summary.urls['delivery'] as string));
    expect(await after.text()).toBe(before);
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  });

  it('explains mistakes and what to do next', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lectern-cli-'));
    const missing = await runCommand(['keys', 'create', '00000000-0000-4000-8000-000000000001', '--kind', 'preview_primary', '--data-dir', dataDir]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/project was not found[\s\S]*lectern project list/);
    const badKind = await runCommand(['keys', 'create', 'x', '--kind', 'root', '--data-dir', dataDir]);
    expect(badKind.code).not.toBe(0);
    expect(badKind.stderr).toMatch(/Allowed choices are management, delivery_primary/);
    const badPort = await runCommand(['start', '--port-base', '70000', '--data-dir', dataDir]);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toMatch(/LECTERN_PORT_BASE/);
  });

  it('has --help on every command', async () => {
    for (const command of [[], ['start'], ['project'], ['project', 'create'], ['project', 'list'], ['project', 'update'], ['keys'], ['keys', 'create'], ['keys', 'list'], ['keys', 'regenerate'], ['keys', 'revoke']]) {
      const help = await runCommand([...command, '--help']);
      expect(help.code, command.join(' ')).toBe(0);
      expect(help.stdout).toMatch(/^Usage: lectern/);
    }
  });
});

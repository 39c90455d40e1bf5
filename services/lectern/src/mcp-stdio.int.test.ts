import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliPath, runCommand, startServer, type StartedServer } from './testing/test-process.ts';

/*
 * `lectern mcp` over stdio, spawned by the SDK's own StdioClientTransport against a real
 * `lectern start`: an agent creates a type, creates and fills an item (rich text with a
 * component), publishes it; the Delivery API then serves it, and so does the query-delivery tool.
 * A Reviewer's key is refused with the Management API's error.
 */

let server: StartedServer;
let dataDir: string;
let client: Client;
let projectId: string;
let deliveryUrl: string;

function stdioClient(key: string): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', '--project', projectId, '--data-dir', dataDir],
    env: { ...(process.env as Record<string, string>), LECTERN_MCP_KEY: key },
    stderr: 'pipe',
  });
}

async function call(on: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await on.callTool({ name, arguments: args });
  const text = (result.content as { text?: string }[]).map((c) => c.text ?? '').join('');
  return { isError: result.isError === true, text, json: JSON.parse(text) as Record<string, unknown> };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'lectern-mcp-'));
  // The Management rate limit is off here: this file calls many tools in a row with one key, and
  // mcp.int.test.ts already shows MCP calls count against it (429 with error_code 10000).
  server = await startServer(dataDir, [], { env: { LECTERN_MANAGEMENT_PER_SECOND: '0' } });
  projectId = server.summary.demo?.project_id as string;
  deliveryUrl = server.summary.urls['delivery'] as string;
  const key = server.summary.demo?.keys.find((k) => k.kind === 'management')?.api_key as string;
  client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(stdioClient(key));
});
afterAll(async () => {
  await client?.close();
  server?.child.kill('SIGTERM');
  await server?.exited;
});

describe('lectern mcp (stdio)', () => {
  it('creates a type and an item with a component, publishes it, and Delivery serves it', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('query-delivery');
    const type = await call(client, 'add-content-type-mapi', {
      name: 'Note', codename: 'note',
      elements: [
        { type: 'text', name: 'Title', codename: 'title' },
        { type: 'rich_text', name: 'Body', codename: 'body' },
      ],
    });
    expect(type.isError, type.text).toBe(false);
    await call(client, 'add-content-item-mapi', { name: 'First note', codename: 'first_note', type: { codename: 'note' } });
    const id = '7a0c1b1e-0000-4000-8000-000000000002';
    const ref = { item: { codename: 'first_note' }, language: { codename: 'en-US' } };
    const languages = await call(client, 'list-languages-mapi');
    const language = (languages.json['languages'] as { codename: string; is_default: boolean }[]).find((l) => l.is_default);
    ref.language.codename = language?.codename ?? 'default';
    const filled = await call(client, 'upsert-language-variant-mapi', {
      ...ref,
      elements: [
        { element: { codename: 'title' }, value: 'Written by an agent' },
        {
          element: { codename: 'body' },
          value: `<p>Hello</p><object type="application/kenticocloud" data-type="component" data-id="${id}"></object>`,
          components: [{ id, type: { codename: 'note' }, elements: [{ element: { codename: 'title' }, value: 'Inner' }] }],
        },
      ],
    });
    expect(filled.isError, filled.text).toBe(false);
    const published = await call(client, 'publish-variant-mapi', ref);
    expect(published.isError, published.text).toBe(false);

    // The Delivery API (public for the demo project) serves it once the index has caught up.
    let item: { elements: Record<string, { value: unknown }> } | undefined;
    let modular: Record<string, { system: { type: string } }> = {};
    for (let i = 0; i < 100 && item === undefined; i++) {
      const response = await fetch(`${deliveryUrl}/${projectId}/items/first_note`);
      if (response.status === 200) {
        const body = (await response.json()) as { item: typeof item; modular_content: typeof modular };
        item = body.item;
        modular = body.modular_content;
      } else await new Promise((r) => setTimeout(r, 100));
    }
    expect(item?.elements['title']?.value).toBe('Written by an agent');
    expect(String(item?.elements['body']?.value)).toContain('<p>Hello</p>');
    expect(Object.values(modular).map((c) => c.system.type)).toEqual(['note']);

    const delivered = await call(client, 'query-delivery', { type: 'note' });
    expect(delivered.isError, delivered.text).toBe(false);
    const items = delivered.json['items'] as { system: { codename: string }; components: Record<string, unknown> }[];
    expect(items.map((i) => i.system.codename)).toEqual(['first_note']);
    expect(Object.keys(items[0]?.components ?? {})).toHaveLength(1);
  });

  it("refuses a Reviewer key's write with the Management API's error", async () => {
    const roles = (await (
      await fetch(`${server.summary.urls['management']}/v2/projects/${projectId}/roles`, {
        headers: { authorization: `Bearer ${server.summary.demo?.keys.find((k) => k.kind === 'management')?.api_key}` },
      })
    ).json()) as { roles: { id: string; name: string }[] };
    const invited = await fetch(`${server.summary.urls['management']}/v2/projects/${projectId}/users`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.summary.demo?.keys.find((k) => k.kind === 'management')?.api_key}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        email: 'reviewer@example.com',
        collection_groups: [{ collections: [], roles: [{ id: roles.roles.find((r) => r.name === 'Reviewer')?.id, languages: [] }] }],
      }),
    });
    expect(invited.status).toBe(201);
    const issued = await runCommand(['keys', 'create', projectId, '--kind', 'management', '--user', 'reviewer@example.com', '--data-dir', dataDir, '--json']);
    expect(issued.code, issued.stderr).toBe(0);
    const reviewer = new Client({ name: 'reviewer', version: '1.0.0' });
    await reviewer.connect(stdioClient((JSON.parse(issued.stdout) as { api_key: string }).api_key));
    const write = await call(reviewer, 'add-content-item-mapi', { name: 'Nope', type: { codename: 'note' } });
    expect(write.isError).toBe(true);
    expect(write.json).toMatchObject({ error_code: 16 });
    await reviewer.close();
  });

  it('says what is missing when no key is given', async () => {
    const run = await runCommand(['mcp', '--project', projectId, '--data-dir', dataDir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/LECTERN_MCP_KEY/);
    const help = await runCommand(['mcp', '--help']);
    expect(help.stdout).toMatch(/--project <id>/);
  });
});

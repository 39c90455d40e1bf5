import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@lectern/config';
import { startEmbedded, type EmbeddedServer } from './embedded.ts';
import { startSettings } from './settings.ts';

const dirs: string[] = [];
const servers: EmbeddedServer[] = [];

async function start(env: Record<string, string>): Promise<EmbeddedServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lectern-routing-'));
  dirs.push(dataDir);
  const config = loadConfig({
    settings: startSettings,
    env: { LECTERN_DATA_DIR: dataDir, LECTERN_PORT_BASE: '0', LECTERN_LOG_LEVEL: 'silent', ...env },
  });
  const server = await startEmbedded(config);
  servers.push(server);
  return server;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** A GET to the routed port as a client that resolved `host` to it; over TLS when `ca` is given. */
function get(options: { url: string; host: string; path: string; key?: string; ca?: Buffer }): Promise<Answer> {
  const port = Number(new URL(options.url).port);
  const headers = { host: `${options.host}:${port}`, ...(options.key ? { authorization: `Bearer ${options.key}` } : {}) };
  return new Promise((resolve, reject) => {
    const onResponse = (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
      );
    };
    const common = { host: '127.0.0.1', port, path: options.path, headers };
    const req =
      options.ca === undefined
        ? httpRequest(common, onResponse)
        : httpsRequest({ ...common, servername: options.host, ca: options.ca }, onResponse);
    req.on('error', reject);
    req.end();
  });
}

function keyOf(server: EmbeddedServer, kind: string): string {
  return server.demo?.keys.find((k) => k.key.kind === kind)?.secret ?? '';
}

afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('one port for every API, chosen by the Host name', () => {
  let server: EmbeddedServer;
  let projectId: string;
  beforeAll(async () => {
    server = await start({ LECTERN_HOST_ROUTING_PORT: '0', LECTERN_GRAPHQL_PREVIEW: 'true' });
    projectId = server.demo?.project.id ?? '';
  });

  it('routes manage., deliver. and preview-deliver. to their APIs, in any case and with a port', async () => {
    const url = server.urls.routed ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const management = await get({ url, host: 'MANAGE.lectern.example', path: `/v2/projects/${projectId}`, key: keyOf(server, 'management') });
    expect(management).toMatchObject({ status: 200, body: { id: projectId, name: 'Lectern demo' } });
    const delivery = await get({ url, host: 'deliver.lectern.example', path: `/${projectId}/types` });
    expect(delivery.status).toBe(200);
    expect((delivery.body['types'] as unknown[]).length).toBeGreaterThan(0);
    const preview = await get({ url, host: 'preview-deliver.lectern.example', path: `/${projectId}/items` });
    expect(preview.status).toBe(401);
    expect(preview.body['error_code']).toBeGreaterThan(0);
    const withKey = await get({ url, host: 'preview-deliver.lectern.example', path: `/${projectId}/items`, key: keyOf(server, 'preview_primary') });
    expect(withKey.status).toBe(200);
    expect(withKey.body).toHaveProperty('items');
  });

  it('routes graphql. and preview-graphql. to GraphQL and preview GraphQL', async () => {
    const url = server.urls.routed ?? '';
    const path = `/${projectId}?query=${encodeURIComponent('{ __typename }')}`;
    const graphql = await get({ url, host: 'graphql.lectern.example', path });
    expect(graphql).toMatchObject({ status: 200, body: { data: { __typename: '_RootQuery' } } });
    expect((await get({ url, host: 'preview-graphql.lectern.example', path })).status).toBe(401);
    const preview = await get({ url, host: 'preview-graphql.lectern.example', path, key: keyOf(server, 'preview_primary') });
    expect(preview).toMatchObject({ status: 200, body: { data: { __typename: '_RootQuery' } } });
  });

  it('routes app. to the editor on the Management API, leading / to /app/', async () => {
    const url = server.urls.routed ?? '';
    const port = Number(new URL(url).port);
    const raw = (path: string) =>
      new Promise<IncomingMessage>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host: `app.lectern.example:${port}` } }, resolve);
        req.on('error', reject);
        req.end();
      });
    const home = await raw('/');
    home.resume();
    expect(home.statusCode).toBe(302);
    expect(home.headers.location).toBe('/app/');
    // The app itself is served there: its page, or the page saying how to build it.
    const page = await raw('/app/');
    page.resume();
    expect([200, 503]).toContain(page.statusCode);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const management = await get({ url, host: 'app.lectern.example', path: `/v2/projects/${projectId}`, key: keyOf(server, 'management') });
    expect(management).toMatchObject({ status: 200, body: { id: projectId } });
  });

  it('answers a host it does not know with a 404 naming the host names it serves', async () => {
    const answer = await get({ url: server.urls.routed ?? '', host: 'www.lectern.example', path: `/${projectId}/items` });
    expect(answer.status).toBe(404);
    expect(answer.body['message']).toContain("'www.lectern.example:");
    expect(answer.body['message']).toContain('preview-deliver.<domain>');
    expect(answer.body['error_code']).toBeGreaterThan(0);
  });
});

describe('TLS on the host-routing port', () => {
  it('serves HTTPS with the configured certificate, which a client verifies for the API host names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lectern-tls-'));
    dirs.push(dir);
    const [certFile, keyFile] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=lectern.example',
      '-addext', 'subjectAltName=DNS:*.lectern.example', '-keyout', keyFile, '-out', certFile,
    ], { stdio: 'ignore' });
    const server = await start({ LECTERN_HOST_ROUTING_PORT: '0', LECTERN_TLS_CERT_FILE: certFile, LECTERN_TLS_KEY_FILE: keyFile });
    const url = server.urls.routed ?? '';
    expect(url).toMatch(/^https:\/\//);
    const answer = await get({
      url,
      host: 'manage.lectern.example',
      path: `/v2/projects/${server.demo?.project.id ?? ''}`,
      key: keyOf(server, 'management'),
      ca: readFileSync(certFile),
    });
    expect(answer).toMatchObject({ status: 200, body: { name: 'Lectern demo' } });
  });

  it('refuses a certificate without its key, or TLS without the host-routing port, before starting', async () => {
    await expect(start({ LECTERN_TLS_CERT_FILE: '/x/cert.pem', LECTERN_HOST_ROUTING_PORT: '0' })).rejects.toThrow(ConfigError);
    await expect(start({ LECTERN_TLS_CERT_FILE: '/x/cert.pem', LECTERN_TLS_KEY_FILE: '/x/key.pem' })).rejects.toThrow(
      /LECTERN_HOST_ROUTING_PORT/,
    );
  });
});

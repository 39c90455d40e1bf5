import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from './testing/test-process.ts';

/**
 * Shutdown and stalled clients against the real `lectern start` process: slow or stalled
 * clients must neither keep a SIGTERMed server alive past its grace period nor hold sockets
 * open for ever while it runs.
 */
const dataDirs: string[] = [];
afterAll(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-shutdown-'));
  dataDirs.push(dir);
  return dir;
}

/** A socket to an http://host:port URL that collects what the server sends and notes when it closes. */
async function open(url: string): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => text, closed };
}

/** Half a request line and headers, then nothing. */
async function stallHeaders(url: string) {
  const client = await open(url);
  client.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
  return client;
}

/** Complete headers announcing 1,000 body bytes, ten of them sent. */
async function stallBody(url: string) {
  const client = await open(url);
  client.socket.write(
    'POST /v2/projects/x/items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":"a',
  );
  return client;
}

/** One answered request on a keep-alive connection, then silence. */
async function idleKeepAlive(url: string) {
  const client = await open(url);
  client.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
  while (!client.received().includes('\r\n\r\n')) await new Promise((r) => setTimeout(r, 5));
  return client;
}

describe('lectern start with stalled clients', () => {
  it('exits within the grace period after SIGTERM with 120 stalled and idle connections on each port', async () => {
    const graceMs = 2000;
    const server = await startServer(freshDataDir(), ['--no-demo'], {
      env: { LECTERN_SHUTDOWN_GRACE_MS: String(graceMs) },
    });
    const clients = [];
    const urls = Object.values(server.summary.urls);
    for (const url of urls)
      for (let i = 0; i < 40; i++) clients.push(await stallHeaders(url), await stallBody(url), await idleKeepAlive(url));
    expect(clients).toHaveLength(120 * urls.length);

    const sent = Date.now();
    server.child.kill('SIGTERM');
    const code = await server.exited;
    const tookMs = Date.now() - sent;
    // Drain up to the grace period, then every remaining socket is destroyed and the store closed.
    expect(code).toBe(0);
    expect(tookMs).toBeLessThan(graceMs + 5000);
    await Promise.all(clients.map((c) => c.closed));
  }, 120_000);

  it('closes connections whose headers or body stall while it runs (408 for stalled headers), never a slow upload', async () => {
    const server = await startServer(freshDataDir(), [], {
      // A body stalled after an early answer (a 401 before the body was read) is bounded by the
      // keep-alive timeout, which takes over once the answer is sent.
      env: {
        LECTERN_HTTP_HEADERS_TIMEOUT_MS: '1000',
        LECTERN_HTTP_IDLE_TIMEOUT_MS: '2000',
        LECTERN_HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
      },
    });
    try {
      const urls = Object.values(server.summary.urls);
      const headers = await Promise.all(urls.map(stallHeaders));
      const bodies = await Promise.all(urls.map(stallBody));
      // Generous: the settings say 1 to 2 s; today's defaults keep them for a minute or for ever.
      const within = (closed: Promise<void>) =>
        Promise.race([closed.then(() => true), new Promise((r) => setTimeout(() => r(false), 6000))]);
      expect(await Promise.all([...headers, ...bodies].map((c) => within(c.closed)))).not.toContain(false);
      for (const client of headers) expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);

      // An upload that keeps sending, for four times the idle timeout and eight times the headers
      // timeout in all, is stored: no total request time cuts it.
      const projectId = server.summary.demo?.project_id ?? '';
      const key = server.summary.demo?.keys.find((k) => k.kind === 'management')?.api_key ?? '';
      const upload = await open(server.summary.urls['management'] ?? '');
      const chunks = 16;
      upload.socket.write(
        `POST /v2/projects/${projectId}/files/slow.bin HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
          `Content-Type: application/octet-stream\r\nContent-Length: ${chunks * 1024}\r\nConnection: close\r\n\r\n`,
      );
      for (let i = 0; i < chunks; i++) {
        await new Promise((r) => setTimeout(r, 500));
        upload.socket.write(Buffer.alloc(1024, i));
      }
      await upload.closed;
      expect(upload.received()).toMatch(/^HTTP\/1\.1 200 [\s\S]*"type":"internal"/);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 120_000);
});

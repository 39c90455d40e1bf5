import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAddressAllowed } from '@lectern/http-kit';
import { createHttpSender } from './http-sender.ts';

describe('the SSRF guard', () => {
  it('refuses loopback, private, link-local, metadata and other special addresses, v4 and v6', () => {
    for (const address of [
      '127.0.0.1',
      '127.9.9.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::7f00:1',
      'not an address',
    ])
      expect(isAddressAllowed(address), address).toBe(false);
    for (const address of [
      '93.184.216.34',
      '8.8.8.8',
      '172.32.0.1',
      '2606:2800:220:1:248:1893:25c8:1946',
      '::ffff:8.8.8.8',
    ])
      expect(isAddressAllowed(address), address).toBe(true);
  });
});

describe('the HTTP sender', () => {
  let server: Server;
  let base: string;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits += 1;
      if (req.url === '/redirect') res.writeHead(302, { location: '/ok' }).end();
      else if (req.url === '/big') res.writeHead(200).end('x'.repeat(1_000_000));
      else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end('late'), 2_000);
      else res.writeHead(204).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  const request = (path: string, host = base) => ({ url: `${host}${path}`, headers: {}, body: Buffer.from('{}') });

  it('refuses a loopback receiver, by IP literal or by a name resolving to it, unless private addresses are allowed', async () => {
    const guarded = createHttpSender();
    const before = hits;
    const literal = await guarded(request('/ok'));
    expect(literal).toMatchObject({ status: null, isAccepted: false });
    expect(literal.response).toMatch(/127\.0\.0\.1.*LECTERN_WEBHOOKS_ALLOW_PRIVATE/);
    const port = new URL(base).port;
    const named = await guarded(request('/ok', `http://localhost:${port}`));
    expect(named).toMatchObject({ status: null, isAccepted: false });
    expect(named.response).toMatch(/loopback/);
    expect(hits).toBe(before);
    expect(await createHttpSender({ isPrivateAllowed: true })(request('/ok'))).toMatchObject({
      status: 204,
      isAccepted: true,
    });
  });

  it('follows no redirect, caps the answer it reads, and gives up on a receiver that does not answer in time', async () => {
    const send = createHttpSender({
      isPrivateAllowed: true,
      timeoutMs: 500,
      maxResponseBytes: 1024,
      excerptChars: 100,
    });
    expect(await send(request('/redirect'))).toMatchObject({ status: 302, isAccepted: false });
    const big = await send(request('/big'));
    expect(big).toMatchObject({ status: 200, isAccepted: true });
    expect(big.response).toHaveLength(100);
    const slow = await send(request('/slow'));
    expect(slow).toMatchObject({ status: null, isAccepted: false });
    expect(slow.response).toMatch(/No answer within 0.5 s/);
  });
});

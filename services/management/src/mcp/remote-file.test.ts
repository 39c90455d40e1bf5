import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LecternError } from '@lectern/errors';
import { createRemoteFetch } from './remote-file.ts';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hop') res.writeHead(302, { location: '/files/logo.png' }).end();
    else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
    else if (req.url === '/bad-location') res.writeHead(302, { location: 'http://[::1' }).end();
    else if (req.url === '/files/logo.png') res.writeHead(200, { 'content-type': 'image/png; x=1' }).end('PNGBYTES');
    else if (req.url === '/big') res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(5000));
    else res.writeHead(404).end('no');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LecternError);
  return (error as LecternError).code;
}

describe('createRemoteFetch (asset upload from a URL)', () => {
  it('refuses loopback and private addresses, by IP literal and by name, with the guard on', async () => {
    const guarded = createRemoteFetch();
    expect(await codeOf(guarded(`${base}/files/logo.png`, 1000))).toBe('REMOTE_FILE_UNREACHABLE');
    const port = (server.address() as AddressInfo).port;
    expect(await codeOf(guarded(`http://localhost:${port}/files/logo.png`, 1000))).toBe('REMOTE_FILE_UNREACHABLE');
    expect(await codeOf(guarded('http://169.254.169.254/latest/meta-data', 1000))).toBe('REMOTE_FILE_UNREACHABLE');
    expect(await codeOf(guarded('file:///etc/passwd', 1000))).toBe('REMOTE_FILE_UNREACHABLE');
    expect(await codeOf(guarded('not a url', 1000))).toBe('REMOTE_FILE_UNREACHABLE');
  });

  it('follows redirects, names the file after the URL, and bounds size, status and hops', async () => {
    const open = createRemoteFetch({ isPrivateAllowed: true });
    const file = await open(`${base}/hop`, 1000);
    expect(file).toMatchObject({ contentType: 'image/png', fileName: 'logo.png' });
    expect(file.bytes.toString()).toBe('PNGBYTES');
    expect(await codeOf(open(`${base}/big`, 1000))).toBe('FILE_TOO_LARGE');
    expect(await codeOf(open(`${base}/missing`, 1000))).toBe('REMOTE_FILE_UNREACHABLE');
    expect(await codeOf(open(`${base}/loop`, 1000))).toBe('REMOTE_FILE_UNREACHABLE');
    expect(await codeOf(open(`${base}/bad-location`, 1000))).toBe('REMOTE_FILE_UNREACHABLE');
  });
});

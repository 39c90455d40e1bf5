import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { toDeliveryError } from '@lectern/errors';
import { createFastifyService } from './fastify-service.ts';
import { createLogger } from './logger.ts';
import { createProcessMetrics } from './metrics.ts';
import { createReadiness } from './readiness.ts';

let app: FastifyInstance;
let base: string;
let port: number;

beforeAll(async () => {
  app = createFastifyService({
    service: 'test',
    metrics: createProcessMetrics(),
    readiness: createReadiness([]),
    logger: createLogger({ level: 'silent' }),
    toErrorResponse: toDeliveryError,
    bodyLimitBytes: 1024,
  });
  app.get('/:projectId/items/:codename', async (request) => ({ params: request.params }));
  app.post('/:projectId/graphql', async (request) => ({ body: request.body }));
  base = await app.listen({ host: '127.0.0.1', port: 0 });
  port = Number(new URL(base).port);
});
afterAll(async () => {
  await app.close();
});

/** Sends raw bytes and reads everything the server answers until it closes the connection. */
function exchange(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

function expectDeliveryError(body: unknown, errorCode: number): void {
  expect(body).toEqual({
    message: expect.any(String),
    request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    error_code: errorCode,
    specific_code: 0,
  });
}

describe('a Fastify listener answers framework errors in the API error body', () => {
  it('a path segment that is not valid percent-encoding: 400 naming the segment', async () => {
    const response = await fetch(`${base}/p/items/%E0%A4%A`);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { message: string };
    expectDeliveryError(body, 1);
    expect(body.message).toContain('%E0%A4%A');
  });

  it('a path segment longer than any codename: 400, not 414', async () => {
    const response = await fetch(`${base}/p/items/${'a'.repeat(201)}`);
    expect(response.status).toBe(400);
    expectDeliveryError(await response.json(), 1);
    expect((await fetch(`${base}/p/items/${'a'.repeat(122)}`)).status).toBe(200);
  });

  it('U+0000 in the path or query: 400', async () => {
    for (const path of ['/p/items/a%00b', '/p/items/a?x=%00', '/nowhere%00']) {
      const response = await fetch(`${base}${path}`);
      expect([path, response.status]).toEqual([path, 400]);
      expectDeliveryError(await response.json(), 1);
    }
  });

  it('a URL over 16 KiB: 431 with the error body, and a HEAD answer without one', async () => {
    const long = `/p/items/a?x=${'a'.repeat(17_000)}`;
    const response = await fetch(`${base}${long}`);
    expect(response.status).toBe(431);
    expectDeliveryError(await response.json(), 431);

    const head = await exchange(`HEAD ${long} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head.endsWith('\r\n\r\n')).toBe(true);
    const headFetch = await fetch(`${base}${long}`, { method: 'HEAD' });
    expect(headFetch.status).toBe(431);
  });

  it('a URL over the parser limit (64 KiB): 431 from the parser, with no body after HEAD', async () => {
    const huge = `/p/items/a?x=${'a'.repeat(70_000)}`;
    const get = await exchange(`GET ${huge} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(get).toMatch(/^HTTP\/1\.1 431 /);
    const body = get.slice(get.indexOf('\r\n\r\n') + 4);
    // The request arrived in several packets: the parser cannot tell its method, so no body.
    if (body !== '') expectDeliveryError(JSON.parse(body), 431);
    const head = await exchange(`HEAD ${huge} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(head).toMatch(/^HTTP\/1\.1 431 [^]*\r\ncontent-length: 0\r\n/);
    expect(head.endsWith('\r\n\r\n')).toBe(true);
  });

  it('a request line HTTP cannot parse: 400 with the error body', async () => {
    const answer = await exchange('GET /p/items/a b c HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expectDeliveryError(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)), 1);
  });

  it('an unsupported media type: 415; a body over the limit: 413', async () => {
    const media = await fetch(`${base}/p/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-weird' },
      body: 'x',
    });
    expect(media.status).toBe(415);
    expectDeliveryError(await media.json(), 415);
    const large = await fetch(`${base}/p/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ q: 'x'.repeat(2000) }),
    });
    expect(large.status).toBe(413);
    expectDeliveryError(await large.json(), 413);
  });

  it('a JSON body nested deeper than the limit: 400 before it is parsed; a shallow one is parsed', async () => {
    const deep = await fetch(`${base}/p/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `${'['.repeat(200)}${']'.repeat(200)}`,
    });
    expect(deep.status).toBe(400);
    expectDeliveryError(await deep.json(), 1);
    const shallow = await fetch(`${base}/p/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":[[1]]}',
    });
    expect(await shallow.json()).toEqual({ body: { a: [[1]] } });
    const poisoned = await fetch(`${base}/p/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"__proto__":{"x":1}}',
    });
    expect(poisoned.status).toBe(400);
  });

  it('HEAD answers of errors carry no body', async () => {
    const answer = await exchange('HEAD /p/items/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer.endsWith('\r\n\r\n')).toBe(true);
  });
});

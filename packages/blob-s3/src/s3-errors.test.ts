import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { BlobStoreFullError } from '@lectern/core';
import { isLecternError, toManagementError } from '@lectern/errors';
import { openS3BlobStore } from './s3-blob-store.ts';

/** One scripted answer of the stand-in S3 server. */
interface Answer {
  readonly status: number;
  readonly code?: string;
  readonly message?: string;
}

const xmlError = (a: Answer) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${a.code}</Code><Message>${a.message ?? ''}</Message><RequestId>R1</RequestId></Error>`;

/**
 * An HTTP server standing in for S3 (the adapter's mapping of answers is what is tested here; the
 * same answers from a real MinIO on a full volume: full-volume.s3.int.test.ts). A bucket HEAD is
 * answered 200; object requests take the scripted answers in turn, then 200.
 */
async function fakeS3(answers: Answer[]): Promise<{ endpoint: string; objectRequests: string[]; server: Server }> {
  const objectRequests: string[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      if (path.split('/').filter(Boolean).length < 2) return response.writeHead(200).end();
      objectRequests.push(`${request.method} ${path}`);
      const answer = answers.shift() ?? { status: 200 };
      if (answer.status === 200) return response.writeHead(200, { etag: '"e1"' }).end();
      const body = answer.code === undefined ? '' : xmlError(answer);
      response.writeHead(answer.status, { 'content-type': 'application/xml' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, objectRequests, server };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve));
});

async function putAgainst(answers: Answer[]) {
  const s3 = await fakeS3(answers);
  servers.push(s3.server);
  const blobs = openS3BlobStore({ endpoint: s3.endpoint, accessKey: 'k', secretKey: 'secret-key', bucket: 'bucket-1' });
  const put = blobs.put({ key: 'p/f1', body: Readable.from([Buffer.from('hello')]), contentType: 'text/plain' });
  const outcome = await put.then(
    (info) => ({ info, error: undefined }),
    (error: unknown) => ({ info: undefined, error }),
  );
  return { ...outcome, objectRequests: s3.objectRequests };
}

describe('blob-s3: what an S3 server error becomes', () => {
  it("a 500 'no space left on device' (MinIO filled since its last drive check) is a full store, not retried", async () => {
    const { error, objectRequests } = await putAgainst([
      {
        status: 500,
        code: 'InternalError',
        message: 'We encountered an internal error, please try again.: cause(no space left on device)',
      },
    ]);
    expect(error).toBeInstanceOf(BlobStoreFullError);
    expect(objectRequests).toEqual(['PUT /bucket-1/p/f1']);
  });

  it('a 507 XMinioStorageFull is a full store', async () => {
    const { error } = await putAgainst([{ status: 507, code: 'XMinioStorageFull', message: 'threshold' }]);
    expect(error).toBeInstanceOf(BlobStoreFullError);
    expect((error as Error).message).toContain('XMinioStorageFull');
  });

  it('another 5xx is retried once; failing again it is DEPENDENCY_UNAVAILABLE (503, Retry-After) with the server code kept', async () => {
    const { error, objectRequests } = await putAgainst([
      { status: 503, code: 'SlowDown', message: 'Please reduce your request rate.' },
      { status: 500, code: 'InternalError', message: 'We encountered an internal error, please try again.' },
    ]);
    expect(objectRequests).toEqual(['PUT /bucket-1/p/f1', 'PUT /bucket-1/p/f1']);
    expect(isLecternError(error) && error.code).toBe('DEPENDENCY_UNAVAILABLE');
    expect(((error as Error).cause as { code: string; status: number }).code).toBe('InternalError');
    const answer = toManagementError(error, 'req-1');
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
  });

  it('a 5xx followed by a success stores the blob (our one retry)', async () => {
    const { info, error, objectRequests } = await putAgainst([{ status: 502 }]);
    expect(error).toBeUndefined();
    expect(info).toEqual({ key: 'p/f1', size: 5, contentType: 'text/plain' });
    expect(objectRequests).toHaveLength(2);
  });

  it('a refusal that is not the server failing (403 AccessDenied) stays what it is', async () => {
    const { error, objectRequests } = await putAgainst([{ status: 403, code: 'AccessDenied', message: 'no' }]);
    expect(isLecternError(error)).toBe(false);
    expect((error as { code?: string }).code).toBe('AccessDenied');
    expect(objectRequests).toHaveLength(1);
    expect(toManagementError(error, 'req-1').status).toBe(500);
  });

  it('a server nobody listens on is DEPENDENCY_UNAVAILABLE, for a write and a read', async () => {
    const s3 = await fakeS3([]);
    const { endpoint } = s3;
    await new Promise((resolve) => s3.server.close(resolve));
    const blobs = openS3BlobStore({ endpoint, accessKey: 'k', secretKey: 'secret-key', bucket: 'bucket-1' });
    const put = blobs.put({ key: 'p/f1', body: Readable.from([Buffer.from('x')]), contentType: 'text/plain' });
    await expect(put).rejects.toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE', retryAfterSeconds: 1 });
    await expect(blobs.get('p/f1')).rejects.toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
  });

  it('a read answered 502 with no body is DEPENDENCY_UNAVAILABLE, not a bare "Retryable HTTP status"', async () => {
    const s3 = await fakeS3([{ status: 502 }]);
    servers.push(s3.server);
    const blobs = openS3BlobStore({
      endpoint: s3.endpoint,
      accessKey: 'k',
      secretKey: 'secret-key',
      bucket: 'bucket-1',
    });
    const failed = await blobs.stat('p/f1').catch((error: unknown) => error);
    expect(isLecternError(failed) && failed.code).toBe('DEPENDENCY_UNAVAILABLE');
    expect(((failed as Error).cause as { code: string }).code).toBe('HTTP502');
  });
});

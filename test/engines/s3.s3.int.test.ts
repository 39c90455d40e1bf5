import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Client } from 'minio';
import { describe, expect, inject, it } from 'vitest';

const s3Endpoint = inject('s3Endpoint');

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function namesOf(stream: AsyncIterable<{ name?: string; size?: number }>): Promise<[string, number][]> {
  const names: [string, number][] = [];
  for await (const item of stream) names.push([item.name ?? '', item.size ?? -1]);
  return names.sort();
}

describe.skipIf(!s3Endpoint)('S3-compatible server (MinIO) through the minio client', () => {
  const url = new URL(s3Endpoint);
  const client = new Client({
    endPoint: url.hostname,
    port: Number(url.port),
    useSSL: false,
    accessKey: inject('s3AccessKey'),
    secretKey: inject('s3SecretKey'),
    region: 'us-east-1',
    pathStyle: true,
  });

  it('makes a bucket, puts, stats, gets, lists and removes objects, and serves a presigned GET', async () => {
    const bucket = `proof-${randomUUID()}`;
    await client.makeBucket(bucket, 'us-east-1');
    expect(await client.bucketExists(bucket)).toBe(true);

    const asset = randomBytes(300 * 1024 + 7);
    const note = Buffer.from('a small text object\n');
    await client.putObject(bucket, 'assets/photo.bin', asset, asset.length, {
      'Content-Type': 'application/octet-stream',
      'X-Amz-Meta-Owner': 'lectern',
    });
    await client.putObject(bucket, 'assets/notes/readme.txt', note, note.length, { 'Content-Type': 'text/plain' });
    await client.putObject(bucket, 'elsewhere.txt', note, note.length);

    const stat = await client.statObject(bucket, 'assets/photo.bin');
    expect(stat.size).toBe(asset.length);
    expect(stat.metaData).toMatchObject({ 'content-type': 'application/octet-stream', owner: 'lectern' });

    expect((await bytesOf(await client.getObject(bucket, 'assets/photo.bin'))).equals(asset)).toBe(true);
    const range = await bytesOf(await client.getPartialObject(bucket, 'assets/photo.bin', 1000, 24));
    expect(range.equals(asset.subarray(1000, 1024))).toBe(true);

    expect(await namesOf(client.listObjectsV2(bucket, 'assets/', true))).toEqual([
      ['assets/notes/readme.txt', note.length],
      ['assets/photo.bin', asset.length],
    ]);

    // A presigned GET is a plain HTTP URL: no client, no credentials.
    const presigned = await client.presignedGetObject(bucket, 'assets/photo.bin', 60);
    const response = await fetch(presigned);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(asset)).toBe(true);
    const tampered = new URL(presigned);
    tampered.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    const refused = await fetch(tampered);
    await refused.body?.cancel();
    expect(refused.status).toBe(403);

    await client.removeObject(bucket, 'assets/photo.bin');
    await expect(client.statObject(bucket, 'assets/photo.bin')).rejects.toMatchObject({ code: 'NotFound' });
    await client.removeObjects(bucket, ['assets/notes/readme.txt', 'elsewhere.txt']);
    expect(await namesOf(client.listObjectsV2(bucket, '', true))).toEqual([]);
    await client.removeBucket(bucket);
    expect(await client.bucketExists(bucket)).toBe(false);
  });
});

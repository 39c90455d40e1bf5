import { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { toDeliveryError } from '@lectern/errors';
import { answerClientErrors } from './client-errors.ts';

/** What the listener writes for a parser error on a packet, as text. */
function answerTo(code: string, packet: string): Promise<string> {
  return new Promise((resolve) => {
    let written = '';
    const socket = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString('latin1');
        done();
      },
      final(done) {
        resolve(written);
        done();
      },
    });
    const error = Object.assign(new Error(code), {
      code,
      rawPacket: Buffer.from(packet, 'latin1'),
      bytesParsed: packet.length,
    });
    answerClientErrors(toDeliveryError)(error, socket);
  });
}

const bodyOf = (answer: string) => answer.slice(answer.indexOf('\r\n\r\n') + 4);

describe('answers to what the parser refused', () => {
  it('an oversized request whose packet begins with its request line: the error body', async () => {
    const answer = await answerTo('HPE_HEADER_OVERFLOW', `GET /p/items?x=${'a'.repeat(100)}`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(bodyOf(answer))).toMatchObject({ error_code: 431 });
  });

  it('an oversized request seen from a later packet: no body, whatever its headers hold (accept: */* is no request line)', async () => {
    const packet = `%F0%9F%98%80%F0%9F%98%80/x HTTP/1.1\r\nhost: 127.0.0.1:4406\r\naccept: */*\r\nuser-agent: a b\r\n`;
    const answer = await answerTo('HPE_HEADER_OVERFLOW', packet);
    expect(answer).toMatch(/^HTTP\/1\.1 431 [^]*\r\ncontent-length: 0\r\n/);
    expect(bodyOf(answer)).toBe('');
  });

  it('a character the URL cannot hold, found in a later packet of a long HEAD request: no body', async () => {
    const answer = await answerTo('HPE_INVALID_URL', `%F0%9F%98%80%F0%9F%98%80/\u00e2\u00a8&%ED%A0%80 HTTP/1.1\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 400 [^]*\r\ncontent-length: 0\r\n/);
    expect(bodyOf(answer)).toBe('');
  });

  it('a malformed method in the first packet: the error body', async () => {
    const answer = await answerTo('HPE_INVALID_METHOD', 'G\u0001T /p/x HTTP/1.1\r\n\r\n');
    expect(JSON.parse(bodyOf(answer))).toMatchObject({ error_code: 1 });
  });

  it('a later packet that begins at a header line: no body', async () => {
    const answer = await answerTo('HPE_HEADER_OVERFLOW', 'accept: */*\r\nx-long: aaaa');
    expect(bodyOf(answer)).toBe('');
  });

  it('a HEAD request: never a body', async () => {
    const answer = await answerTo('HPE_INVALID_METHOD', 'HEAD /p/items HTTP/1.1\r\nx\r\n');
    expect(bodyOf(answer)).toBe('');
  });
});

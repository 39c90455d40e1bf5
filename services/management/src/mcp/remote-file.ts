import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { LecternError } from '@lectern/errors';
import { AddressRefusedError, guardRequest } from '@lectern/http-kit';

/** A file fetched from a URL, held whole (at most the upload limit). */
export interface RemoteFile {
  readonly bytes: Buffer;
  readonly contentType: string;
  /** The last path segment of the URL, or `file` when it has none. */
  readonly fileName: string;
}

export interface RemoteFetchOptions {
  /** Whole fetch, redirects included (default 20 s). */
  readonly timeoutMs?: number;
  /** Redirects followed, each checked like the first URL (default 3). */
  readonly maxRedirects?: number;
  /** Tests only: let loopback and private addresses through (the SSRF guard off). */
  readonly isPrivateAllowed?: boolean;
}

const refused = (message: string) =>
  new LecternError('REMOTE_FILE_UNREACHABLE', { problems: [{ path: 'url', message }] });

/** The URL's last path segment, decoded when it can be. */
function fileNameOf(url: URL): string {
  const raw = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(raw).trim();
  } catch {
    return raw;
  }
}

/**
 * Fetches a file for an asset upload from a URL an agent gave. The webhooks' SSRF guard checks every
 * address connected to (inside the socket's lookup, so DNS cannot answer twice) and every IP
 * literal, on the first URL and on each redirect; bodies over `maxBytes` are cut off and refused.
 */
export function createRemoteFetch(options: RemoteFetchOptions = {}) {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const maxRedirects = options.maxRedirects ?? 3;
  const isPrivateAllowed = options.isPrivateAllowed ?? false;

  const once = (url: URL, maxBytes: number, signal: AbortSignal) =>
    new Promise<{ response: IncomingMessage; body: Buffer | null }>((resolve, reject) => {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused('Only http and https URLs are fetched.');
      const guard = guardRequest(url, isPrivateAllowed);
      if (guard.refusedAddress !== null)
        throw refused(
          `The URL points to ${guard.refusedAddress}, a loopback, private, link-local or metadata address.`,
        );
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const request = send(url, {
        method: 'GET',
        signal,
        agent: false,
        ...guard.options,
      });
      request.on('error', (error) =>
        reject(
          error instanceof AddressRefusedError
            ? refused('The URL resolves to a loopback, private, link-local or metadata address.')
            : refused(`The URL could not be fetched (${error.name === 'AbortError' ? 'timed out' : error.message}).`),
        ),
      );
      request.on('response', (response) => {
        if ((response.statusCode ?? 0) >= 300 && (response.statusCode ?? 0) < 400) {
          response.resume();
          resolve({ response, body: null });
          return;
        }
        const declared = Number(response.headers['content-length'] ?? 0);
        if (declared > maxBytes) {
          response.destroy();
          reject(new LecternError('FILE_TOO_LARGE', { message: `The file is larger than ${maxBytes} bytes.` }));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            response.destroy();
            reject(new LecternError('FILE_TOO_LARGE', { message: `The file is larger than ${maxBytes} bytes.` }));
          } else chunks.push(chunk);
        });
        response.on('end', () => resolve({ response, body: Buffer.concat(chunks) }));
        response.on('error', (error) => reject(refused(`The answer broke off (${error.message}).`)));
      });
      request.end();
    });

  return async (raw: string, maxBytes: number): Promise<RemoteFile> => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw refused('The URL is not an absolute http(s) URL.');
    }
    const signal = AbortSignal.timeout(timeoutMs);
    for (let hop = 0; hop <= maxRedirects; hop++) {
      const { response, body } = await once(url, maxBytes, signal);
      const status = response.statusCode ?? 0;
      if (body === null) {
        const location = response.headers.location;
        if (location === undefined || !URL.canParse(location, url.href))
          throw refused(`The URL answered ${status} without a usable Location.`);
        url = new URL(location, url);
        continue;
      }
      if (status !== 200) throw refused(`The URL answered ${status}, not 200.`);
      const segment = fileNameOf(url);
      return {
        bytes: body,
        contentType: response.headers['content-type']?.split(';')[0]?.trim() || 'application/octet-stream',
        fileName: segment === '' ? 'file' : segment,
      };
    }
    throw refused(`More than ${maxRedirects} redirects.`);
  };
}

import type { IncomingMessage } from 'node:http';
import { LecternError } from '@lectern/errors';

/** Largest request line and headers accepted together, as Node's default: 16 KiB. */
export const maxRequestHeadBytes = 16 * 1024;

/**
 * What Node's parser accepts, well above `maxRequestHeadBytes`: a request between the two reaches
 * the framework, which answers 431 knowing the method (a HEAD answer carries no body). Only a
 * larger one is refused by the parser itself (`answerClientErrors`).
 */
export const parserMaxHeaderBytes = 64 * 1024;

/**
 * Longest path segment a Fastify route parameter takes. The longest identifier in a Delivery path
 * is a snippet element's codename (`<snippet>__<element>`, 122 characters).
 */
export const maxPathSegmentLength = 200;

function quoted(text: string): string {
  const shown = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  return JSON.stringify(shown);
}

/**
 * What is wrong with a request URL before any route reads it, or null: an empty path segment
 * (`//`, 400 MALFORMED_URL), a path segment that is not valid percent-encoding (400
 * MALFORMED_URL), one that decodes to U+0000 (400 INVALID_IDENTIFIER: no stored identifier holds
 * it, and PostgreSQL refuses it in text), or a `%00` in the query string (400 INVALID_QUERY).
 * Malformed encoding in the query is left to the API's query parser, which names the parameter.
 *
 * An empty segment is refused rather than collapsed: authentication reads the project from the
 * first segment before routing, so a path the router and the authenticator could read
 * differently (`//items`, `//{project}/items`) must never reach either. Only the trailing slash
 * (ignored by the routers) may be empty.
 */
export function checkUrl(url: string): LecternError | null {
  const at = url.indexOf('?');
  // An absolute-form target (`GET http://host/p/items`) is judged by its path.
  const path = (at < 0 ? url : url.slice(0, at)).replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  const segments = path.split('/');
  for (const [i, segment] of segments.entries()) {
    if (segment === '' && i > 0 && i < segments.length - 1) {
      return new LecternError('MALFORMED_URL', {
        message: `The path ${quoted(path)} holds an empty segment ('//'). Remove the extra slash; no identifier is empty.`,
      });
    }
    if (!segment.includes('%')) continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return new LecternError('MALFORMED_URL', {
        message: `The path segment ${quoted(segment)} is not valid percent-encoding. Encode each reserved or non-ASCII character as its UTF-8 bytes in '%XX' form, for example '%20' for a space and '%25' for '%'.`,
      });
    }
    if (decoded.includes('\u0000')) {
      return new LecternError('INVALID_IDENTIFIER', {
        message: `The path segment ${quoted(segment)} contains '%00' (the character U+0000), which no identifier holds. Remove it.`,
      });
    }
  }
  if (at >= 0 && /%00/i.test(url.slice(at))) {
    return new LecternError('INVALID_QUERY', {
      message: "The query string contains '%00' (the character U+0000), which no parameter value holds. Remove it.",
    });
  }
  return null;
}

/** The error for a path segment longer than `maxPathSegmentLength` (Fastify's router refuses it). */
export function pathSegmentTooLong(): LecternError {
  return new LecternError('INVALID_IDENTIFIER', {
    message: `A path segment is longer than ${maxPathSegmentLength} characters; no id or codename is that long. Check the path.`,
  });
}

/**
 * What is wrong with a request before any route reads it, or null: a request line and headers
 * over `maxRequestHeadBytes` (431 HEADERS_TOO_LARGE), then what `checkUrl` finds.
 */
export function checkRequest(request: Pick<IncomingMessage, 'method' | 'url' | 'rawHeaders'>): LecternError | null {
  const url = request.url ?? '/';
  let size = (request.method?.length ?? 0) + url.length + ' HTTP/1.1\r\n'.length;
  for (let i = 0; i < request.rawHeaders.length; i += 2)
    size += (request.rawHeaders[i]?.length ?? 0) + (request.rawHeaders[i + 1]?.length ?? 0) + 4;
  if (size > maxRequestHeadBytes) return new LecternError('HEADERS_TOO_LARGE');
  return checkUrl(url);
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DeliveryContext } from './delivery-context.ts';
import type { CachedResponse } from './response-cache.ts';
import { cacheControl, matchesEtag, requestKey, waitHeader } from './serve.ts';

const operationalPaths = new Set(['healthz', 'readyz', 'metrics']);

/**
 * Each cached answer's response head, built once per (Cache-Control, X-Stale-Content) pair:
 * the stored headers, Content-Length and the per-request three, as the flat array
 * `writeHead` takes. Kept beside the entry, so it goes when the entry goes.
 */
const heads = new WeakMap<CachedResponse, Map<string, string[]>>();

function headOf(response: CachedResponse, control: string, stale: '0' | '1'): string[] {
  let byVariant = heads.get(response);
  if (byVariant === undefined) {
    byVariant = new Map();
    heads.set(response, byVariant);
  }
  const variant = `${stale}${control}`;
  let head = byVariant.get(variant);
  if (head === undefined) {
    head = [];
    for (const [name, value] of Object.entries(response.headers)) head.push(name, value);
    head.push('cache-control', control, 'x-stale-content', stale, 'x-cache', 'HIT');
    head.push('content-length', String(response.body.length));
    byVariant.set(variant, head);
  }
  return head;
}

/** The head of a 304: the same minus Content-Type and Content-Length (RFC 9110 15.4.5). */
function notModifiedHead(head: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < head.length; i += 2) {
    const name = head[i] as string;
    if (name !== 'content-type' && name !== 'content-length') out.push(name, head[i + 1] as string);
  }
  return out;
}

/**
 * The cache hit before the framework sees the request (Fastify's routing, hooks and reply
 * building cost more than the rest of a hit). Answers only what is certain without a promise:
 * a GET whose exact URL (and `X-Continuation`) was answered at the project's current watermark,
 * from a caller whose authentication outcome is held in memory as a success, with a URL and
 * headers `checkRequest` accepts; anything else (a first request, a pending or failed
 * authentication, `X-KC-Wait-For-Loading-New-Content: true`, HEAD, a miss) returns false and
 * goes through the framework, which answers it as before. The answer is the one `serve` sends —
 * stored bytes and headers, Cache-Control, X-Stale-Content, X-Cache: HIT, 304 on a matching
 * If-None-Match — and the request is counted in the same request metric.
 */
export function createFastHit(
  ctx: DeliveryContext,
  hooks: {
    /** The listener's own check of URL and head (http-kit's `checkRequest`): null when acceptable. */
    readonly checkRequest: (request: IncomingMessage) => unknown;
    /** Counts an answered request in the listener's request metric. */
    readonly observe: (sample: { route: string; status: number; seconds: number }) => void;
  },
): (request: IncomingMessage, response: ServerResponse) => boolean {
  const api = ctx.channel === 'preview' ? 'preview' : 'delivery';
  return (request, response) => {
    const started = performance.now();
    if (ctx.index === null || request.method !== 'GET') return false;
    const url = request.url ?? '';
    const headers = request.headers;
    const wait = headers[waitHeader];
    if (wait !== undefined && String(wait).toLowerCase() === 'true') return false;
    // The project segment, as the authentication hook and the routes read it.
    const end = url.indexOf('?');
    const path = end < 0 ? url : url.slice(0, end);
    const second = path.indexOf('/', 1);
    let first = second < 0 ? path.slice(1) : path.slice(1, second);
    if (first === 'v2') {
      const third = path.indexOf('/', second + 1);
      first = third < 0 ? path.slice(second + 1) : path.slice(second + 1, third);
    }
    if (first === '' || operationalPaths.has(first) || hooks.checkRequest(request) !== null) return false;
    let projectId: string;
    try {
      projectId = decodeURIComponent(first).toLowerCase();
    } catch {
      return false;
    }
    if (ctx.auth.peek({ api, projectId, authorization: headers.authorization }) === undefined) return false;
    const watermark = ctx.indexed.peek(projectId);
    const latest = ctx.committed.peek(projectId);
    if (watermark === undefined || latest === undefined) return false;
    const key = `${projectId}\u0000${ctx.channel}\u0000${watermark}\u0000${requestKey({ url, headers })}`;
    const cached = ctx.cache.get(key);
    if (cached === undefined) return false;
    const head = headOf(cached, cacheControl(ctx, { headers }), watermark < latest ? '1' : '0');
    let status = 200;
    if (matchesEtag(headers['if-none-match'], cached.etag)) {
      status = 304;
      response.writeHead(304, notModifiedHead(head));
      response.end();
    } else {
      response.writeHead(200, head);
      response.end(cached.body);
    }
    hooks.observe({ route: cached.route, status, seconds: (performance.now() - started) / 1000 });
    return true;
  };
}

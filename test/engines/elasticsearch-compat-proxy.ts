import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * TEST HARNESS ONLY — never use this in production code.
 *
 * A loopback HTTP proxy that lets the official `@elastic/elasticsearch` client (9.x) talk to the
 * test OpenSearch node, so that code written against the Elasticsearch client can be tested here,
 * where no real Elasticsearch can be installed. It forwards every request and response unchanged
 * except for exactly two rewrites:
 *
 * 1. Request `Content-Type`: `application/vnd.elasticsearch+<format>; compatible-with=<N>` becomes
 *    `application/<format>` (so `…+json` → `application/json`, `…+x-ndjson` → `application/x-ndjson`).
 *    Why: the client always sends Elasticsearch's versioned vendor media types, and OpenSearch
 *    rejects them with 406 "Content-Type header [...] is not supported". The `Accept` header is left
 *    as sent: OpenSearch ignores it and answers plain JSON, which the client accepts.
 * 2. Response header `X-Elastic-Product: Elasticsearch` is added when absent.
 *    Why: the client refuses every successful response without it (ProductNotSupportedError, "the
 *    server is not Elasticsearch"); OpenSearch never sends it.
 *
 * Bodies, status codes, paths and all other headers pass through untouched, so any other
 * difference between the two engines' APIs still shows in tests.
 */
export interface ElasticsearchCompatProxy {
  /** Base URL to give the `@elastic/elasticsearch` client as its node. */
  readonly url: string;
  /** How many times each rewrite has been applied, for tests that show the shim at work. */
  readonly rewrites: { contentType: number; productHeader: number };
  stop(): Promise<void>;
}

const vendorMediaType = /^application\/vnd\.elasticsearch\+([\w.-]+)\s*(;\s*compatible-with=\d+)?/i;

export async function startElasticsearchCompatProxy(targetUrl: string): Promise<ElasticsearchCompatProxy> {
  const target = new URL(targetUrl);
  const rewrites = { contentType: 0, productHeader: 0 };
  const server = createServer((incoming, outgoing) => {
    const headers: IncomingHttpHeaders = { ...incoming.headers, host: target.host };
    const contentType = headers['content-type'];
    if (contentType !== undefined && vendorMediaType.test(contentType)) {
      headers['content-type'] = contentType.replace(vendorMediaType, 'application/$1');
      rewrites.contentType++;
    }
    const upstream = request(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers },
      (response) => {
        const responseHeaders = { ...response.headers };
        if (responseHeaders['x-elastic-product'] === undefined) {
          responseHeaders['x-elastic-product'] = 'Elasticsearch';
          rewrites.productHeader++;
        }
        outgoing.writeHead(response.statusCode ?? 502, responseHeaders);
        response.pipe(outgoing);
      },
    );
    upstream.once('error', (error) => {
      outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`elasticsearch-compat-proxy: ${error.message}`);
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    rewrites,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

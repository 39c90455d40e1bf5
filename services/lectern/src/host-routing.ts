import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { LecternError, toDeliveryError } from '@lectern/errors';
import { answerClientErrors, parserMaxHeaderBytes } from '@lectern/http-kit';
import type { ListenerName } from './settings.ts';

/**
 * The first label of the Host name that selects each API, as Kontent.ai's host names do
 * (`manage.kontent.ai`, `deliver.kontent.ai`, `preview-deliver.kontent.ai`, …). A tool that
 * builds every API's URL from one domain, such as data-ops' `--kontentUrl`, reaches all of them
 * through one port.
 */
export const hostPrefixes = {
  manage: 'management',
  // The editor app: Management serves it at /app/, and `/` on this host leads there.
  app: 'management',
  deliver: 'delivery',
  'preview-deliver': 'preview',
  graphql: 'graphql',
  'preview-graphql': 'graphqlPreview',
  recommend: 'recommendations',
  // Asset binaries, on a host of their own: never the console's (manage.) origin.
  assets: 'assets',
} as const satisfies Record<string, RoutedApi>;

/** The APIs one port can route to: every listener, and preview GraphQL when it is on. */
type RoutedApi = ListenerName | 'graphqlPreview';

export interface HostRouterOptions {
  /** The HTTP server of each API: a routed request is handed to it as if it had arrived there. */
  readonly targets: Readonly<Record<ListenerName, Server>> & { readonly graphqlPreview?: Server };
  /** PEM certificate chain and private key files; with them the routed port speaks HTTPS. */
  readonly tls: { readonly certFile: string; readonly keyFile: string } | null;
}

/** The API a Host header names, or null: its first label, case-insensitive, port ignored. */
export function apiOfHost(host: string | undefined): RoutedApi | null {
  if (host === undefined) return null;
  const name = host.toLowerCase().replace(/:\d+$/, '');
  const label = name.slice(0, name.includes('.') ? name.indexOf('.') : name.length);
  return Object.hasOwn(hostPrefixes, label) ? hostPrefixes[label as keyof typeof hostPrefixes] : null;
}

function answerUnknownHost(request: IncomingMessage, response: ServerResponse): void {
  const names = Object.keys(hostPrefixes)
    .map((p) => `${p}.<domain>`)
    .join(', ');
  // preview-graphql. is served only while preview GraphQL is on (LECTERN_GRAPHQL_PREVIEW).
  const error = new LecternError('ROUTE_NOT_FOUND', {
    message: `No API is served at the host '${request.headers.host ?? ''}'. This port chooses the API by the first label of the Host header: ${names}.`,
  });
  const { status, body } = toDeliveryError(error, randomUUID());
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(request.method === 'HEAD' ? undefined : JSON.stringify(body));
}

/**
 * One server for every API, chosen per request by the Host header's first label; over TLS when
 * a certificate and key are given (the request then counts as HTTPS to the API it reaches).
 */
export function createHostRouter(options: HostRouterOptions): Server {
  const route = (request: IncomingMessage, response: ServerResponse) => {
    const api = apiOfHost(request.headers.host);
    const target = api === null ? undefined : options.targets[api];
    if (target === undefined) answerUnknownHost(request, response);
    else target.emit('request', request, response);
  };
  const serverOptions = { maxHeaderSize: parserMaxHeaderBytes };
  const server =
    options.tls === null
      ? createHttpServer(serverOptions, route)
      : createHttpsServer(
          { ...serverOptions, cert: readFileSync(options.tls.certFile), key: readFileSync(options.tls.keyFile) },
          route,
        );
  server.on('clientError', answerClientErrors(toDeliveryError));
  return server as Server;
}

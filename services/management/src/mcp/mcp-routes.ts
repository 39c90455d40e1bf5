import { Router, type NextFunction, type Request, type Response } from 'express';
import { authenticateKeyOfAnyProject, type BlobStore, type CoreDeps, type DeliveryIndexReader } from '@lectern/core';
import { defaultMaxFileBytes } from '@lectern/core';
import type { Logger } from '@lectern/http-kit';
import { requireManagementKey } from '../http/auth.ts';
import { locals } from '../http/context.ts';
import { methodNotAllowed } from '../http/errors.ts';
import { assetsBaseOf } from '../http/files/binary-routes.ts';
import { rateLimit, type RateLimits } from '../http/rate-limit.ts';
import { createRemoteFetch, type RemoteFetchOptions } from './remote-file.ts';

export interface McpRouteOptions {
  readonly core: CoreDeps;
  readonly logger: Logger;
  readonly blobs: BlobStore | null;
  readonly maxFileBytes?: number | undefined;
  /** The Management API's limits per key; every MCP request counts as one API request. */
  readonly rateLimits: RateLimits;
  /** The Delivery index, for query-delivery; null: the tool is not offered. */
  readonly deliveryIndex: DeliveryIndexReader | null;
  /** How upload-asset-mapi fetches URLs (the SSRF guard stays on unless a test turns it off). */
  readonly remoteFetch?: RemoteFetchOptions | undefined;
}

/** `/mcp`: the project is the key's own, so the key check is the one the console's sign-in uses. */
function requireKeyOfAnyProject(core: CoreDeps) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    locals(res).actor = await authenticateKeyOfAnyProject(core, {
      api: 'management',
      authorization: req.headers.authorization,
    });
    next();
  };
}

/** JSON-RPC batches were dropped from MCP (2025-06-18); one request each keeps the rate limit per call. */
function refuseBatches(req: Request, res: Response, next: NextFunction): void {
  if (!Array.isArray(req.body)) return next();
  res.status(400).json({
    jsonrpc: '2.0',
    error: { code: -32600, message: 'Invalid Request: send one JSON-RPC message per request (no batches).' },
    id: null,
  });
}

/**
 * The MCP endpoint (Streamable HTTP, stateless: every POST carries one JSON-RPC message and gets
 * its answer as JSON) at `/mcp` (the key's environment) and `/{environment_id}/mcp`. A management
 * key as Bearer, checked by the Management API's own key check; its rate limit counts each
 * request; each tool calls the core operation its Management route calls, as the key's user.
 * No server-initiated stream: GET and DELETE answer 405.
 */
export function mcpRouter(options: McpRouteOptions): Router {
  const router = Router({ mergeParams: true });
  const limit = rateLimit(options.core, options.rateLimits);
  const fetchRemote = createRemoteFetch(options.remoteFetch);
  // The MCP SDK and the tools (about 10 MiB of heap) load with the first MCP request.
  const importModules = () =>
    Promise.all([import('./mcp-server.ts'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]);
  let modules: ReturnType<typeof importModules> | null = null;
  const serve = async (req: Request, res: Response): Promise<void> => {
    const actor = locals(res).actor;
    if (!actor || actor.type !== 'api_key') throw new Error('MCP reached without a management key');
    const [{ createLecternMcpServer }, { StreamableHTTPServerTransport }] = await (modules ??= importModules());
    const server = createLecternMcpServer({
      core: options.core,
      actor,
      projectId: actor.projectId,
      requestId: locals(res).requestId,
      logger: options.logger,
      blobs: options.blobs,
      maxFileBytes: options.maxFileBytes ?? defaultMaxFileBytes,
      assetsBase: assetsBaseOf(req),
      deliveryIndex: options.deliveryIndex,
      fetchRemote,
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  };
  router.route('/mcp').post(requireKeyOfAnyProject(options.core), limit, refuseBatches, serve).all(methodNotAllowed);
  router
    .route('/:projectId/mcp')
    .post(requireManagementKey(options.core), limit, refuseBatches, serve)
    .all(methodNotAllowed);
  return router;
}

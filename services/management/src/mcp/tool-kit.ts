import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { LecternError, toManagementError, type ErrorCode } from '@lectern/errors';
import type { Logger } from '@lectern/http-kit';
import {
  isUuid,
  type Actor,
  type BlobStore,
  type Continuation,
  type CoreDeps,
  type DeliveryIndexReader,
  type RecordKey,
} from '@lectern/core';
import type { RemoteFile } from './remote-file.ts';

/** What every tool of one MCP request works with: the caller (a management key's user) and the project. */
export interface McpContext {
  readonly core: CoreDeps;
  /** The actor the Management API's key check made of the Bearer key (its user and role). */
  readonly actor: Actor;
  readonly projectId: string;
  readonly requestId: string;
  readonly logger: Logger;
  readonly blobs: BlobStore | null;
  readonly maxFileBytes: number;
  /** Where asset binaries are served, for asset `url`s (as the assets routes render them). */
  readonly assetsBase: string;
  /** The Delivery index (published content); null: the query-delivery tool is not offered. */
  readonly deliveryIndex: DeliveryIndexReader | null;
  /** Fetches a file from a URL through the SSRF guard. */
  readonly fetchRemote: (url: string, maxBytes: number) => Promise<RemoteFile>;
}

/** One tool: its input as a zod shape (the SDK publishes it as JSON Schema and validates calls with it). */
export interface ToolDefinition<Shape extends z.ZodRawShape> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: Shape;
  /** True for tools that change nothing (MCP's readOnlyHint). */
  readonly isReadOnly: boolean;
  run(args: z.infer<z.ZodObject<Shape>>, context: McpContext): Promise<unknown>;
}

/** A tool with its input type erased, for lists of tools. */
export type AnyTool = ToolDefinition<z.ZodRawShape>;

export function tool<Shape extends z.ZodRawShape>(definition: ToolDefinition<Shape>): AnyTool {
  return definition as unknown as AnyTool;
}

const jsonText = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: value === undefined ? '{"ok":true}' : JSON.stringify(value) }],
});

/**
 * The result of a failed call: the Management API's own error body (request_id, error_code,
 * message, validation_errors) as an isError result the agent can read and correct. An error that is
 * not in the catalogue is logged and answered with the generic internal body, never a stack.
 */
export function errorResult(error: unknown, context: Pick<McpContext, 'requestId' | 'logger'>): CallToolResult {
  const response = toManagementError(error, context.requestId);
  if (!(error instanceof LecternError) || response.status >= 500)
    context.logger.error({ err: error, requestId: context.requestId }, 'MCP tool failed');
  return { ...jsonText(response.body), isError: true };
}

/** Registers `tools` on `server`, each calling its core operation with the context's actor. */
export function registerTools(server: McpServer, tools: readonly AnyTool[], context: McpContext): void {
  for (const definition of tools) {
    server.registerTool(
      definition.name,
      {
        title: definition.title,
        description: definition.description,
        inputSchema: definition.input,
        annotations: { readOnlyHint: definition.isReadOnly, openWorldHint: false },
      },
      async (args: unknown) => {
        try {
          return jsonText(await definition.run(args as never, context));
        } catch (error) {
          return errorResult(error, context);
        }
      },
    );
  }
}

/** The core's `ModelInput` of a context. */
export const modelInput = (context: McpContext) => ({ actor: context.actor, projectId: context.projectId });

/** A reference to an object by id, codename or external id (reference §1.2). */
export const reference = z
  .object({
    id: z.string().max(100).optional().describe('Id (UUID)'),
    codename: z.string().max(200).optional().describe('Codename'),
    external_id: z.string().max(200).optional().describe('External id'),
  })
  .strict()
  .refine((r) => [r.id, r.codename, r.external_id].filter((v) => v !== undefined).length === 1, {
    message: 'Give exactly one of id, codename or external_id.',
  })
  .describe('An object by exactly one of id, codename or external_id');

/** The record key of a reference. */
export function keyOf(ref: z.infer<typeof reference>): RecordKey {
  if (ref.codename !== undefined) return { codename: ref.codename };
  if (ref.external_id !== undefined) return { externalId: ref.external_id };
  return { id: (ref.id ?? '').toLowerCase() };
}

/** A notFound error for an id that is not a UUID, as the routes answer it. */
export function checkedKey(ref: z.infer<typeof reference>, notFound: ErrorCode): RecordKey {
  const key = keyOf(ref);
  if ('id' in key && !isUuid(key.id))
    throw new LecternError(notFound, { message: `'${key.id}' is not an id. Use an id, a codename or an external id.` });
  return key;
}

export const continuationToken = z
  .string()
  .max(4096)
  .optional()
  .describe('continuation_token of the previous page; leave out for the first page');

/** A continuation as the core reads it, named after this tool argument in refusals. */
export function continuationOf(token: string | undefined): Continuation | undefined {
  return token === undefined || token === ''
    ? undefined
    : { token, source: { kind: 'query', name: 'continuation_token' } };
}

/** A page as the tools answer it. */
export function pageJson<T>(key: string, page: { items: T[]; continuationToken: string | null }) {
  return { [key]: page.items, pagination: { continuation_token: page.continuationToken } };
}

/** A JSON object (a request body the core validates with the Management API's messages). */
export const jsonObject = z.record(z.string(), z.unknown());

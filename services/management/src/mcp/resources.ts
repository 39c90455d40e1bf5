import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { contentTypeJson, getContentType, listContentTypes } from '@lectern/core';
import { toManagementError } from '@lectern/errors';
import { modelOverview } from './model-overview.ts';
import { modelInput, type McpContext } from './tool-kit.ts';

const json = (uri: URL, value: unknown) => ({
  contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value) }],
});

/** A failed read as a JSON-RPC error carrying the Management API's error body. */
async function reading<T>(context: McpContext, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const { body } = toManagementError(error, context.requestId);
    throw new McpError(ErrorCode.InvalidParams, body.message, body);
  }
}

/** The content model as resources: the whole model, and each content type by codename. */
export function registerResources(server: McpServer, context: McpContext): void {
  server.registerResource(
    'content-model',
    'lectern://model',
    {
      title: 'Content model',
      description:
        'Languages, content types, snippets, taxonomies, collections, workflows and spaces (Management API JSON).',
      mimeType: 'application/json',
    },
    async (uri) => json(uri, await reading(context, () => modelOverview(context))),
  );
  server.registerResource(
    'content-type',
    new ResourceTemplate('lectern://types/{codename}', {
      list: async () => ({
        resources: (await reading(context, () => listContentTypes(context.core, modelInput(context)))).map((t) => ({
          uri: `lectern://types/${t.codename}`,
          name: t.codename,
          title: String((t.body as { name?: unknown }).name ?? t.codename),
          mimeType: 'application/json',
        })),
      }),
    }),
    { title: 'Content type', description: 'One content type with its elements.', mimeType: 'application/json' },
    async (uri, variables) => {
      const codename = String(variables['codename'] ?? '');
      const type = await reading(context, () =>
        getContentType(context.core, { ...modelInput(context), key: { codename } }),
      );
      return json(uri, contentTypeJson(type));
    },
  );
}

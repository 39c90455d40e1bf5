import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** A tool call's answer: the JSON it carried and whether it was an error. */
export interface ToolAnswer {
  readonly isError: boolean;
  readonly json: Record<string, unknown>;
  readonly text: string;
}

/** The SDK's own client, connected over `transport`, with a helper that reads the tools' JSON answers. */
export async function connectMcpClient(transport: Transport) {
  const client = new Client({ name: 'lectern-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    async call(name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
      const result = await client.callTool({ name, arguments: args });
      const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('');
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // Not JSON: the SDK's own error text (unknown tool, input validation).
      }
      return { isError: result.isError === true, json, text };
    },
  };
}

/** A Streamable HTTP client transport to `url` with a management key as Bearer. */
export function httpTransport(url: string, key: string): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
}

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { readServerInfo } from '../data-dir.ts';

interface McpFlags {
  project: string;
  key?: string;
  url?: string;
  dataDir?: string;
}

/** The Management URL to reach: --url, LECTERN_URL, else the server running on the data directory. */
function managementUrlOf(flags: McpFlags): string {
  const url = flags.url ?? (process.env['LECTERN_URL'] || undefined);
  if (url !== undefined) return url.replace(/\/+$/, '');
  const dataDir = resolve(flags.dataDir ?? process.env['LECTERN_DATA_DIR'] ?? '.lectern-data');
  const running = readServerInfo(dataDir)?.urls['management'];
  if (running === undefined)
    throw new Error(
      `No Lectern server runs on ${dataDir}. Start one (lectern start), or give its Management URL with --url.`,
    );
  return running;
}

/**
 * `lectern mcp`: the MCP server of one environment over stdio, for local clients (Claude Desktop,
 * Cursor…). It relays each JSON-RPC message to the running server's `/{environment_id}/mcp` with
 * the management key, so every call goes through the Management API's key check, role and rate
 * limit exactly as over HTTP, and the embedded database keeps its one writer (the server).
 */
async function relay(flags: McpFlags): Promise<void> {
  const key = flags.key ?? (process.env['LECTERN_MCP_KEY'] || undefined);
  if (key === undefined)
    throw new Error('Give a management API key: LECTERN_MCP_KEY=<key> (or --key). The agent acts as its user, with its role.');
  const endpoint = new URL(`${managementUrlOf(flags)}/${encodeURIComponent(flags.project)}/mcp`);
  const upstream = new StreamableHTTPClientTransport(endpoint, {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  const local = new StdioServerTransport();
  const initializeIds = new Set<string | number>();
  const closed = new Promise<void>((done) => {
    local.onclose = done;
  });
  upstream.onmessage = (message) => {
    // After initialize, every request names the protocol version agreed on.
    if ('id' in message && initializeIds.delete(message.id as string | number) && 'result' in message) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === 'string') upstream.setProtocolVersion(version);
    }
    void local.send(message);
  };
  local.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message) && message.method === 'initialize') initializeIds.add(message.id);
    upstream.send(message).catch((error: unknown) => {
      // The server's refusal (no key, rate limit…) reaches the client as the answer to its request.
      if (!isJSONRPCRequest(message)) return;
      void local.send({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: -32000, message: error instanceof Error ? error.message : String(error) },
      });
    });
  };
  await upstream.start();
  await local.start();
  await closed;
  await upstream.close();
}

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description(
      'Serve the MCP server of one environment over stdio (for Claude Desktop, Cursor…), through a running Lectern server. ' +
        'The key is a management API key (LECTERN_MCP_KEY, or --key); the agent acts as its user, with its role.',
    )
    .requiredOption('--project <id>', 'the environment (project) id')
    .option('--key <key>', 'management API key [env LECTERN_MCP_KEY; prefer the variable: arguments show in ps]')
    .option('--url <url>', 'Management URL of the server [env LECTERN_URL; default: the server running on --data-dir]')
    .option('--data-dir <dir>', 'data directory of the running embedded server [env LECTERN_DATA_DIR, default .lectern-data]')
    .action(relay);
}

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { assetTools } from './asset-tools.ts';
import { contentTools } from './content-tools.ts';
import { deliveryTools } from './delivery-tools.ts';
import { agentGuide, modelOverview } from './model-overview.ts';
import { modelTools } from './model-tools.ts';
import { registerPrompts } from './prompts.ts';
import { registerResources } from './resources.ts';
import { registerTools, tool, type AnyTool, type McpContext } from './tool-kit.ts';
import { workflowTools } from './workflow-tools.ts';

const initialContext = tool({
  name: 'get-initial-context',
  title: 'Start here: the environment and how to use these tools',
  description: 'How the tools fit together, and the whole content model of the environment. Call this first.',
  input: {},
  isReadOnly: true,
  run: async (_args, context) => ({ guide: agentGuide, model: await modelOverview(context) }),
});

/** Values (array entries, object fields, scalars) one tool call may carry. */
export const maxToolInputElements = 20_000;

/** Every tool offered with `context` (query-delivery only where the Delivery index is reachable). */
export function toolsOf(context: Pick<McpContext, 'deliveryIndex'>): readonly AnyTool[] {
  return [
    initialContext,
    ...modelTools,
    ...contentTools,
    ...workflowTools,
    ...assetTools,
    ...(context.deliveryIndex ? deliveryTools(context.deliveryIndex) : []),
  ];
}

/** The MCP server of one environment for one caller: tools, content-model resources and prompts. */
export function createLecternMcpServer(context: McpContext): McpServer {
  const server = new McpServer(
    { name: 'lectern', title: 'Lectern', version: '1.0.0' },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: agentGuide,
      // Beside the body limit (1 MiB): bounds the values zod walks for one call.
      maxToolInputElements: maxToolInputElements,
    },
  );
  registerTools(server, toolsOf(context), context);
  registerResources(server, context);
  registerPrompts(server);
  return server;
}

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import { ACTION_NODE_TYPE, TRIGGER_NODE_TYPE } from '../../../nodes/VideoPlatform/shared/nodeTypes';
import { VideoPlatform } from '../../../nodes/VideoPlatform/VideoPlatform.node';
import { VideoPlatformTrigger } from '../../../nodes/VideoPlatform/VideoPlatformTrigger.node';
import { ensureOwner, instanceMcpToken } from '../../../tools/n8n/api';
import { connectMcpClient, resultText } from '../../helpers/mcpClient';
import type { N8n } from '../n8nWithPackage';

// What n8n's AI Workflow Builder reads about the nodes: the node search of n8n's own MCP server
// (n8n 2.x), the same search the builder runs. The builder itself needs n8n's AI service.

const actionDescription = new VideoPlatform().description;
const triggerDescription = new VideoPlatformTrigger().description;
const { usableAsTool } = actionDescription;
const toolDescription = typeof usableAsTool === 'object' ? usableAsTool.replacements?.description : undefined;
if (!actionDescription.builderHint?.searchHint || !triggerDescription.builderHint?.searchHint || !toolDescription) {
	throw new Error('Both nodes need a builder hint, and the action node a tool description: the search below looks for them');
}

/** The search tool's name on n8n's MCP server (CODE_BUILDER_SEARCH_NODES_TOOL in n8n 2.41). */
const SEARCH_TOOL = 'search_nodes';

/** One node's block in a search answer: from its "- type" line to the next node or query. */
function entryOf(answer: string, nodeType: string): string | undefined {
	const lines = answer.split('\n');
	const start = lines.findIndex((line) => line === `- ${nodeType}` || line.startsWith(`- ${nodeType} [`));
	if (start < 0) return undefined;
	const end = lines.findIndex((line, i) => i > start && /^(- |## )/.test(line));
	return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

export function itFindsTheNodesWithTheirHints(n8n: () => N8n) {
	describe("n8n's own MCP server: the AI builder's node search", () => {
		let client: Client;
		beforeAll(async () => {
			const { baseUrl } = n8n();
			const token = await instanceMcpToken(baseUrl, await ensureOwner(baseUrl));
			client = await connectMcpClient(`${baseUrl}/mcp-server/http`, token);
		});
		afterAll(async () => {
			await client?.close();
		});

		const search = async (query: string, usage?: 'agentTool') =>
			resultText(await client.callTool({ name: SEARCH_TOOL, arguments: { queries: [query], ...(usage ? { usage } : {}) } }));

		it.each(['video', 'room', 'meeting'])('searching "%s" finds both nodes, each with its builder hint and related nodes', async (query) => {
			const answer = await search(query);
			const action = entryOf(answer, ACTION_NODE_TYPE);
			const trigger = entryOf(answer, TRIGGER_NODE_TYPE);
			expect(action).toContain(`@builderHint ${actionDescription.builderHint?.searchHint}`);
			expect(action).toContain('- n8n-nodes-base.googleCalendarTrigger: "Put before room create');
			expect(action).toContain('- n8n-nodes-base.slack: "Put after room create');
			expect(action).toContain('resource: "room"');
			expect(trigger).toContain('[TRIGGER]');
			expect(trigger).toContain(`@builderHint ${triggerDescription.builderHint?.searchHint}`);
			expect(trigger).toContain(`- ${ACTION_NODE_TYPE}: "Put it right after this trigger with resource webhookDelivery, operation dropRedelivered`);
		});

		it("searching agent tools finds the node's tool variant with the description an agent reads", async () => {
			const tool = entryOf(await search('video room', 'agentTool'), `${ACTION_NODE_TYPE}Tool`);
			expect(tool).toContain(`Description: ${toolDescription}`);
		});
	});
}

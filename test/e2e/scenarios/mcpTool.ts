import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import { loadExamples, MCP_LOCAL_TOKEN } from '../../../tools/n8n/examples';
import { credentialRef, mcpServerWorkflow, mcpUrls, VIDEO_PLATFORM_TOOL } from '../../../tools/n8n/workflows';
import { connectMcpClient, resultText } from '../../helpers/mcpClient';
import type { Sandbox } from '../../helpers/sandbox';
import { SANDBOX_KEY } from '../../helpers/sandbox';
import type { N8n } from '../n8nWithPackage';
import { n8nWithPackage } from '../n8nWithPackage';

// The node as an MCP tool, as the MCP example workflow has it: test/e2e/mcp.e2e.test.ts and
// test/load/mcp.load.test.ts.

type ExampleNode = { name: string; type: string; parameters: Record<string, unknown>; credentials?: unknown };

export const example = loadExamples().find((e: { workflow: { id: string } }) => e.workflow.id === 'vpExampleMcp')!.workflow;
export const exampleTool: ExampleNode = example.nodes.find((n: ExampleNode) => n.type === VIDEO_PLATFORM_TOOL);

/** The example's tool as it is, on another credential and under another name. */
export function exampleToolWith(name: string, credentialId: string) {
	return { ...exampleTool, id: name.replace(/\W/g, '-'), name, credentials: credentialRef(credentialId) };
}

/** The tool name MCP clients see for a tool node's name. */
export const mcpToolName = (name: string) => name.replace(/\W/g, '_');

type McpServer = ReturnType<typeof mcpServerWorkflow>;
type Credential = Parameters<N8n['importCredentials']>[0][number];

export type McpServers = {
	/** Names the n8n user folder (n8nWithPackage). */
	userFolder: string;
	/** Read when n8n is set up, so that they may point at sandboxes a beforeAll declared before started. */
	credentials: () => Credential[];
	/** Workflows with an MCP Server Trigger, imported and activated. */
	servers: McpServer[];
	/** The server the returned client() is connected to, with the token. */
	clientOf: McpServer;
};

/**
 * Starts n8n with the MCP servers before the enclosing describe's tests, connects a client, and
 * closes it and disposes of n8n after.
 */
export function mcpServersInN8n(version: string, { userFolder, credentials, servers, clientOf }: McpServers) {
	let n8n: N8n;
	let client: Client;
	const urls = new Map<string, string>();

	beforeAll(async () => {
		n8n = await n8nWithPackage(version, userFolder);
		await n8n.importCredentials(credentials());
		await n8n.importWorkflows(servers);
		for (const server of servers) await n8n.activateWorkflow(server.id);
		await n8n.start();
		for (const server of servers) {
			const [url] = mcpUrls(n8n.baseUrl, server);
			urls.set(server.id, url);
			// A GET without the token is refused once the endpoint is registered, and 404 before.
			await n8n.waitForWebhook(url);
		}
		client = await connectMcpClient(urls.get(clientOf.id)!, MCP_LOCAL_TOKEN);
	}, 15 * 60_000);

	afterAll(async () => {
		await client?.close();
		await n8n?.dispose();
	});

	return {
		client: () => client,
		/** The server's MCP endpoint. */
		url: (server: McpServer) => urls.get(server.id)!,
		/** The running n8n, e.g. for its own MCP server. */
		n8n: () => n8n,
	};
}

export const RATE_LIMITED_TOOL = 'Create room under a rate limit';

export type RateLimitRun = {
	/** The MCP client of a server that has exampleToolWith(RATE_LIMITED_TOOL, …) on `rateLimited`. */
	client: () => Client;
	/** A platform that answers every create with 429. */
	rateLimited: () => Sandbox;
	/** Without Retry-After, the node's back-off: what the test's name says and the least it must have waited. */
	backOff?: { said: string; atLeastS: number };
	testTimeoutMs: number;
};

export function itGivesUpOnARateLimitThatNeverLifts({ client, rateLimited, backOff, testTimeoutMs }: RateLimitRun) {
	const usedUp = backOff ? `the node's retries and ${backOff.said} of back-off are` : "the node's retries are";
	it(`a rate limit that never lifts is a tool error once ${usedUp} used up`, async () => {
		// MCP's default 60 s request timeout would cut the 429 case short.
		const result = await client().callTool({ name: mcpToolName(RATE_LIMITED_TOOL), arguments: { name: 'Physics' } }, undefined, { timeout: 120_000 });
		expect(result.isError).toBe(true);
		const text = resultText(result);
		const refused = /The platform's rate limit refused this item 6 times, with ([\d.]+) s of waiting in between \(HTTP 429\)/;
		expect(text).toMatch(refused);
		if (backOff) expect(Number(refused.exec(text)![1])).toBeGreaterThanOrEqual(backOff.atLeastS);
		expect(text).not.toContain(SANDBOX_KEY);
		expect(rateLimited().state.requests).toHaveLength(6);
	}, testTimeoutMs);
}

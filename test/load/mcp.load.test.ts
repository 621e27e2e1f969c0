import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import { loadExamples, mcpCredential, MCP_CREDENTIAL_ID, MCP_LOCAL_TOKEN } from '../../tools/n8n/examples';
import { credential, credentialRef, mcpServerWorkflow, mcpUrls, VIDEO_PLATFORM_TOOL } from '../../tools/n8n/workflows';
import type { N8n } from '../e2e/n8nWithPackage';
import { FULL_VERSIONS, n8nWithPackage } from '../e2e/n8nWithPackage';
import { connectMcpClient, resultText } from '../helpers/mcpClient';
import type { Sandbox } from '../helpers/sandbox';
import { SANDBOX_KEY, startSandbox } from '../helpers/sandbox';

// The long half of test/e2e/mcp.e2e.test.ts's rate limit test, which there gets Retry-After: 1:
// here the platform sends no Retry-After, so the node backs off 1 + 2 + 4 + 8 + 16 = 31 s before
// it gives up. `npm run bench:load`.
type ExampleNode = { name: string; type: string; parameters: Record<string, unknown> };
const example = loadExamples().find((e: { workflow: { id: string } }) => e.workflow.id === 'vpExampleMcp')!.workflow;
const exampleTool: ExampleNode = example.nodes.find((n: ExampleNode) => n.type === VIDEO_PLATFORM_TOOL);
const TOOL = 'Create room under a rate limit';

describe.each(FULL_VERSIONS)('the node as an MCP tool under a rate limit without Retry-After, in a real n8n %s', (version) => {
	let n8n: N8n;
	let rateLimited: Sandbox;
	let client: Client;

	beforeAll(async () => {
		rateLimited = await startSandbox({ apiKey: SANDBOX_KEY, errorRate: 1, errorStatus: 429, maxLifetimeMs: 15 * 60_000 });
		n8n = await n8nWithPackage(version, 'mcp-load');
		await n8n.importCredentials([mcpCredential(), credential('vpMcpLoadRateLimited', rateLimited.url, SANDBOX_KEY)]);
		const server = mcpServerWorkflow('wfMcpLoad', { path: 'video-platform-load', bearerCredentialId: MCP_CREDENTIAL_ID }, [
			{ ...exampleTool, id: 'rate-limited-tool', name: TOOL, credentials: credentialRef('vpMcpLoadRateLimited') },
		]);
		await n8n.importWorkflow(server);
		await n8n.activateWorkflow(server.id);
		await n8n.start();
		const [url] = mcpUrls(n8n.baseUrl, server);
		await n8n.waitForWebhook(url);
		client = await connectMcpClient(url, MCP_LOCAL_TOKEN);
	}, 15 * 60_000);

	afterAll(async () => {
		await client?.close();
		await n8n?.dispose();
		await rateLimited?.stop();
	});

	it("a rate limit that never lifts is a tool error once the node's retries and 31 s of back-off are used up", async () => {
		// MCP's default 60 s request timeout would cut it short.
		const result = await client.callTool({ name: TOOL.replace(/\W/g, '_'), arguments: { name: 'Physics' } }, undefined, { timeout: 120_000 });
		expect(result.isError).toBe(true);
		const text = resultText(result);
		const waited = /The platform's rate limit refused this item 6 times, with ([\d.]+) s of waiting in between \(HTTP 429\)/.exec(text);
		expect(waited).not.toBeNull();
		expect(Number(waited![1])).toBeGreaterThanOrEqual(30);
		expect(text).not.toContain(SANDBOX_KEY);
		expect(rateLimited.state.requests).toHaveLength(6);
	}, 180_000);
});

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import { mcpCredential, sandboxCredential, MCP_CREDENTIAL_ID, MCP_LOCAL_TOKEN } from '../../tools/n8n/examples';
import { credential, mcpServerWorkflow } from '../../tools/n8n/workflows';
import { connectMcpClient, resultText } from '../helpers/mcpClient';
import type { Sandbox } from '../helpers/sandbox';
import { SANDBOX_KEY, startLockedOutSandbox, startSandbox } from '../helpers/sandbox';
import { versionSpec } from '../../tools/install/versions';
import { FULL_VERSIONS } from './n8nWithPackage';
import { itFindsTheNodesWithTheirHints } from './scenarios/builderSearch';
import { example, exampleTool, exampleToolWith, itGivesUpOnARateLimitThatNeverLifts, mcpServersInN8n, RATE_LIMITED_TOOL } from './scenarios/mcpTool';

const WRONG_KEY = 'sk_mcp_wrong_5e1d0c';

const failuresServer = mcpServerWorkflow('wfMcpFailures', { path: 'video-platform-failures', bearerCredentialId: MCP_CREDENTIAL_ID }, [
	exampleToolWith('Create room with a rejected key', 'vpMcpWrongKey'),
	exampleToolWith(RATE_LIMITED_TOOL, 'vpMcpRateLimited'),
	exampleToolWith('Create room on a failing platform', 'vpMcpFailing'),
]);

describe.each(FULL_VERSIONS)('the node as an MCP tool, in a real n8n %s', (version) => {
	let sandbox: Sandbox;
	let rateLimited: Sandbox;
	let failing: Sandbox;

	beforeAll(async () => {
		sandbox = await startSandbox({ apiKey: SANDBOX_KEY, maxIdleMs: 10 * 60_000 });
		// Every create answered 429 with Retry-After: 1, so the node's retries run out in about 5 s.
		// Without Retry-After they take 31 s of back-off: a load run, test/load/mcp.load.test.ts.
		rateLimited = await startLockedOutSandbox('1', { maxIdleMs: 10 * 60_000 });
		failing = await startSandbox({ apiKey: SANDBOX_KEY, errorRate: 1, errorStatus: 503, maxIdleMs: 10 * 60_000 });
	});
	const mcp = mcpServersInN8n(version, {
		userFolder: 'mcp',
		credentials: () => [
			sandboxCredential(sandbox.url, SANDBOX_KEY),
			mcpCredential(),
			credential('vpMcpWrongKey', sandbox.url, WRONG_KEY),
			credential('vpMcpRateLimited', rateLimited.url, SANDBOX_KEY),
			credential('vpMcpFailing', failing.url, SANDBOX_KEY),
		],
		servers: [example, failuresServer],
		clientOf: example,
	});
	afterAll(async () => {
		for (const server of [sandbox, rateLimited, failing]) await server?.stop();
	});

	if (versionSpec(version).capabilities.mcpNodeSearch) itFindsTheNodesWithTheirHints(mcp.n8n);

	it('lists the Video Platform tool with its description and an input schema that asks for the room name', async () => {
		const { tools } = await mcp.client().listTools();
		expect(tools.map((tool) => tool.name)).toEqual(['Create_video_room']);
		const [tool] = tools;
		expect(tool.description).toBe(exampleTool.parameters.toolDescription);
		expect(tool.inputSchema.required).toEqual(['name']);
		const nameField = (tool.inputSchema.properties as Record<string, { type: string; description: string }>).name;
		expect(nameField.type).toBe('string');
		expect(nameField.description).toMatch(/^The name people will see for the room.*e\.g\./);
	});

	it('a call creates exactly that room, and the result is the platform\'s answer', async () => {
		sandbox.state.rooms.length = 0;
		const result = await mcp.client().callTool({ name: 'Create_video_room', arguments: { name: 'Biology 7A - Tuesday class' } });
		expect(result.isError).toBeFalsy();
		const rooms = sandbox.state.rooms as Array<Record<string, unknown>>;
		expect(rooms).toEqual([expect.objectContaining({ name: 'Biology 7A - Tuesday class', type: 'conference' })]);
		expect(JSON.parse(resultText(result))).toEqual([{ ...rooms[0], sandbox: expect.stringContaining('sandbox') }]);
	});

	describe('when the platform refuses', () => {
		let failures: Client;
		beforeAll(async () => {
			failures = await connectMcpClient(mcp.url(failuresServer), MCP_LOCAL_TOKEN);
		});
		afterAll(async () => {
			await failures?.close();
		});

		/** Calls a tool that must fail; MCP's default 60 s request timeout would cut the 429 case short. */
		async function failedCallText(tool: string, roomName: string): Promise<string> {
			const result = await failures.callTool({ name: tool, arguments: { name: roomName } }, undefined, { timeout: 120_000 });
			expect(result.isError).toBe(true);
			return resultText(result);
		}

		it('a rejected key is a tool error with the node\'s message, without the key', async () => {
			const text = await failedCallText('Create_room_with_a_rejected_key', 'Chemistry');
			expect(text).toContain('The platform rejected the API key (HTTP 401)');
			expect(text).toContain('check the API key');
			expect(text).not.toContain(WRONG_KEY);
		});

		itGivesUpOnARateLimitThatNeverLifts({ client: () => failures, rateLimited: () => rateLimited, testTimeoutMs: 60_000 });

		it('a platform error is a tool error that says the room may exist', async () => {
			const text = await failedCallText('Create_room_on_a_failing_platform', 'Art');
			expect(text).toContain('The platform had a server error (HTTP 503)');
			expect(text).toContain('may have processed it');
			expect(failing.state.requests).toHaveLength(1);
		});
	});

	it('the MCP endpoint refuses a client without its token, or with another one', async () => {
		const refused = { code: 403, message: expect.stringContaining('Authorization data is wrong') };
		await expect(connectMcpClient(mcp.url(example))).rejects.toMatchObject(refused);
		await expect(connectMcpClient(mcp.url(example), 'not-the-token')).rejects.toMatchObject(refused);
		const before = sandbox.state.requests.length;
		const response = await fetch(mcp.url(example), {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
			body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'Create_video_room', arguments: { name: 'Sneaky' } } }),
		});
		expect(response.status).toBe(403);
		expect(sandbox.state.requests).toHaveLength(before);
	});
});

import { mcpCredential, MCP_CREDENTIAL_ID } from '../../tools/n8n/examples';
import { credential, mcpServerWorkflow } from '../../tools/n8n/workflows';
import { FULL_VERSIONS } from '../e2e/n8nWithPackage';
import { exampleToolWith, itGivesUpOnARateLimitThatNeverLifts, mcpServersInN8n, RATE_LIMITED_TOOL } from '../e2e/scenarios/mcpTool';
import type { Sandbox } from '../helpers/sandbox';
import { SANDBOX_KEY, startSandbox } from '../helpers/sandbox';

// The long half of test/e2e/mcp.e2e.test.ts's rate limit test, which there gets Retry-After: 1:
// here the platform sends no Retry-After, so the node backs off 1 + 2 + 4 + 8 + 16 = 31 s before
// it gives up. `npm run bench:load`.
const server = mcpServerWorkflow('wfMcpLoad', { path: 'video-platform-load', bearerCredentialId: MCP_CREDENTIAL_ID }, [
	exampleToolWith(RATE_LIMITED_TOOL, 'vpMcpLoadRateLimited'),
]);

describe.each(FULL_VERSIONS)('the node as an MCP tool under a rate limit without Retry-After, in a real n8n %s', (version) => {
	let rateLimited: Sandbox;

	beforeAll(async () => {
		rateLimited = await startSandbox({ apiKey: SANDBOX_KEY, errorRate: 1, errorStatus: 429, maxIdleMs: 15 * 60_000 });
	});
	const mcp = mcpServersInN8n(version, {
		userFolder: 'mcp-load',
		credentials: () => [mcpCredential(), credential('vpMcpLoadRateLimited', rateLimited.url, SANDBOX_KEY)],
		servers: [server],
		clientOf: server,
	});
	afterAll(async () => {
		await rateLimited?.stop();
	});

	itGivesUpOnARateLimitThatNeverLifts({
		client: mcp.client,
		rateLimited: () => rateLimited,
		backOff: { said: '31 s', atLeastS: 30 },
		testTimeoutMs: 180_000,
	});
});

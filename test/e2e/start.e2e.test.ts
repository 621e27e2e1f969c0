import * as path from 'node:path';

import { createApiKey, ensureOwner, waitForExecutions } from '../../tools/lib/n8n-api';
import { scratchRoot } from '../../tools/lib/paths';
import { outputOf } from '../../tools/lib/workflows';
import { sendSampleDelivery } from '../../tools/sandbox/webhook';
import { startEnvironment, WEBHOOK_EXAMPLE } from '../../tools/start';

describe.each([2, 1] as const)('npm start, headless, with n8n %i.x', (major) => {
	let environment: Awaited<ReturnType<typeof startEnvironment>>;

	beforeAll(async () => {
		environment = await startEnvironment({
			major,
			userFolder: path.join(scratchRoot, `e2e-start-${major}-${process.pid}`),
			port: 0,
			sandboxPort: 0,
			log: () => undefined,
		});
	}, 15 * 60_000);

	afterAll(async () => {
		await environment?.n8n.dispose();
		await environment?.sandbox.stop();
	});

	it("lists the package's node types and credentials", async () => {
		const { baseUrl } = environment.n8n;
		// The editor's own type lists, read as the logged-in owner.
		const cookie = await ensureOwner(baseUrl);
		const read = async (file: string) =>
			(await (await fetch(`${baseUrl}/types/${file}`, { headers: { Cookie: cookie, 'browser-id': 'videoplatform-tooling' } })).json()) as Array<{ name: string }>;
		const nodes = await read('nodes.json');
		const credentials = await read('credentials.json');
		const nodeNames = nodes.map((n) => n.name);
		expect(nodeNames).toEqual(
			expect.arrayContaining(['n8n-nodes-videoplatform.videoPlatform', 'n8n-nodes-videoplatform.videoPlatformTrigger']),
		);
		expect(credentials.map((c) => c.name)).toEqual(expect.arrayContaining(['videoPlatformApi', 'videoPlatformWebhookApi']));
	});

	it('the sandbox answers, and says it is not the platform', async () => {
		const page = await fetch(`${environment.sandbox.url}/`);
		expect(page.status).toBe(200);
		expect(await page.text()).toContain('This is not the platform');
	});

	it('an example workflow executes green', async () => {
		const { n8n } = environment;
		const target = `${n8n.baseUrl}/webhook/8d0c6b52-3f7e-4b8a-9d2e-1c5f4a7e6b90/webhook`;
		await n8n.waitForWebhook(target);
		const sent = await sendSampleDelivery(target);
		expect(sent.status).toBe(200);
		const apiKey = await createApiKey(n8n.baseUrl, await ensureOwner(n8n.baseUrl));
		const runs = await waitForExecutions(n8n.baseUrl, apiKey, WEBHOOK_EXAMPLE);
		expect(runs.map((run) => run.status)).toEqual(['success']);
		expect(outputOf(runs[0], 'Example deliveries')).toHaveLength(1);
	});

	it("the credential's Test button says what it proves, and sends no POST", async () => {
		const { n8n, sandbox } = environment;
		const cookie = await ensureOwner(n8n.baseUrl);
		const test = async (apiKey: string) => {
			const response = await fetch(`${n8n.baseUrl}/rest/credentials/test`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', Cookie: cookie, 'browser-id': 'videoplatform-tooling' },
				body: JSON.stringify({
					credentials: { id: 'vpSandbox', name: 'Video Platform (local sandbox)', type: 'videoPlatformApi', data: { baseUrl: `${sandbox.url}/v1/`, apiKey } },
				}),
			});
			return ((await response.json()) as { data: { status: string; message: string } }).data;
		};
		sandbox.state.requests.length = 0;
		const good = await test(' Bearer sandbox-key ');
		const bad = await test('wrong-key');
		if (major === 2) {
			expect(good.message).toMatch(/was reached and did not reject the API key \(it answered HTTP 405/);
			expect(bad).toEqual({ status: 'Error', message: expect.stringMatching(/rejected the API key \(HTTP 401\)/) });
		} else {
			// n8n 1.x shows its own text for error answers; the README says so. It must not
			// report the sandbox's 405 as a rejected key, and must report the 401 as one.
			expect(good.message).not.toMatch(/reject|authori[sz]|credential/i);
			expect(bad.status).toBe('Error');
			expect(bad.message).toMatch(/401|reject|authori[sz]/i);
		}
		const seen = sandbox.state.requests.map((r: { method: string; path: string }) => `${r.method} ${r.path}`);
		expect(seen.length).toBeGreaterThanOrEqual(2);
		expect(new Set(seen)).toEqual(new Set(['GET /v1/rooms']));
	});
});

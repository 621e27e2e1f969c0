import { readFileSync } from 'node:fs';

import type { Sandbox } from '../helpers/sandbox';
import { SANDBOX_KEY, startLockedOutSandbox } from '../helpers/sandbox';
import { publicApiCall } from '../../tools/n8n/api';
import { createRoom, credential, itemsFrom, webhookTrigger, workflow } from '../../tools/n8n/workflows';
import type { N8n } from './n8nWithPackage';
import { eachVersion, FULL_VERSIONS, n8nWithPackage } from './n8nWithPackage';
import { versionSpec } from '../../tools/install/versions';
import { oneHeavyFileAtATime } from './oneHeavyFileAtATime';

// Long enough to tell a stop that works (about a second) from one that waits it out.
const RETRY_AFTER_S = 12;

const stopWorkflow = workflow('wfStopWaiting', [
	webhookTrigger('stop-while-waiting', '8d1f3a52-6c4e-4b07-9a2d-1e5f7c3b9a60'),
	...itemsFrom('Stop', [{ name: 'Waits on 429' }, { name: 'Never sent' }]),
	createRoom('Create rooms', 'vpLockedOut', {}, { maxConcurrentRequests: 1 }),
]);

type Execution = { id: string; status: string; stoppedAt?: string | null };

const until = async <T>(read: () => Promise<T | undefined>, timeoutMs: number): Promise<T> => {
	const started = Date.now();
	for (;;) {
		const value = await read();
		if (value !== undefined) return value;
		if (Date.now() - started > timeoutMs) throw new Error(`nothing within ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
};

// Only where n8n's public API can stop an execution (2.x); elsewhere the node's stop handling
// is the same code (unit and HTTP tests).
const STOPPABLE = FULL_VERSIONS.filter((version) => versionSpec(version).capabilities.publicApiStop);

// Never beside another heavy file: it times Stop to the second.
oneHeavyFileAtATime();

eachVersion(STOPPABLE)('Stopping an execution in a real n8n %s while the node waits on Retry-After', (version) => {
	let n8n: N8n;
	let sandbox: Sandbox;
	let apiKey: string;

	beforeAll(async () => {
		sandbox = await startLockedOutSandbox(String(RETRY_AFTER_S));
		n8n = await n8nWithPackage(version, 'stop');
		await n8n.importCredentials([credential('vpLockedOut', sandbox.url, SANDBOX_KEY)]);
		await n8n.importWorkflow(stopWorkflow);
		await n8n.activateWorkflow(stopWorkflow.id);
		await n8n.start();
		await n8n.waitForWebhook(`${n8n.baseUrl}/webhook/stop-while-waiting`);
		apiKey = (await n8n.publicApi()).key;
	}, 15 * 60_000);

	afterAll(async () => {
		await n8n?.dispose();
		await sandbox?.stop();
	});

	it('ends within 2 s, and the platform gets no further request', async () => {
		const started = await fetch(`${n8n.baseUrl}/webhook/stop-while-waiting`, { method: 'POST', body: '{}' });
		expect(started.status).toBe(200);
		// The first item got its 429 and waits; the second waits for its turn.
		await until(async () => (sandbox.state.counts.total === 1 ? true : undefined), 30_000);
		const running = await until(async () => {
			const query = `workflowId=${n8n.idOf(stopWorkflow.id)}&status=running`;
			const found = (await publicApiCall(n8n.baseUrl, apiKey, 'GET', `/executions?${query}`)) as { data: Execution[] };
			return found.data[0];
		}, 10_000);

		const stoppedAt = Date.now();
		await publicApiCall(n8n.baseUrl, apiKey, 'POST', `/executions/${running.id}/stop`);
		const ended = await until(async () => {
			const execution = (await publicApiCall(n8n.baseUrl, apiKey, 'GET', `/executions/${running.id}`)) as Execution;
			return execution.status === 'running' || execution.status === 'new' ? undefined : execution;
		}, 10_000);
		expect(Date.now() - stoppedAt).toBeLessThan(2000);
		expect(ended.status).toBe('canceled');

		// Past the Retry-After: a node that only looked finished would send the item again now.
		// No event says that no request will come, so this one waits the time out.
		await new Promise((resolve) => setTimeout(resolve, (RETRY_AFTER_S + 3) * 1000));
		expect(sandbox.state.counts.total).toBe(1);
		expect(sandbox.state.rooms).toHaveLength(0);
		expect(readFileSync(String(n8n.logFile), 'utf8')).not.toContain(SANDBOX_KEY);
	}, 120_000);
});

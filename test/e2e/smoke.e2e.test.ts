import { ALL_DELIVERIES } from '../../nodes/VideoPlatform/trigger/choices';
import { createRoom, credential, itemsFrom, manualTrigger, node, outputOf, VIDEO_PLATFORM_TRIGGER, workflow } from '../../tools/n8n/workflows';
import type { Sandbox } from '../helpers/sandbox';
import { SANDBOX_KEY, startSandbox } from '../helpers/sandbox';
import type { N8n } from './n8nWithPackage';
import { eachVersion, n8nWithPackage, SMOKE_VERSIONS } from './n8nWithPackage';

// The versions the full suites do not cover (tools/install/versions.js, role 'smoke'): does the packed
// package install, create a room, and start a run from one real delivery there?
const CREATE = 'Create room';
const roomWorkflow = workflow('wfSmokeRoom', [manualTrigger(), ...itemsFrom('Smoke', [{ name: 'Smoke room' }]), createRoom(CREATE, 'vpSmoke')]);

const TRIGGER = 'Video Platform Trigger';
const triggerWorkflow = workflow('wfSmokeTrigger', [
	node(TRIGGER, VIDEO_PLATFORM_TRIGGER, { authentication: 'none', event: ALL_DELIVERIES, options: {} }, { webhookId: '2d6a9f13-8c4b-4e70-b5a1-6f0e3c7d9b52' }),
	node('Done', 'n8n-nodes-base.noOp', {}),
]);

eachVersion(SMOKE_VERSIONS)('smoke test in a real n8n %s', (version) => {
	let n8n: N8n;
	let sandbox: Sandbox;

	beforeAll(async () => {
		// The first run installs this n8n (minutes): the sandbox's lifetime starts after it.
		n8n = await n8nWithPackage(version, 'smoke');
		sandbox = await startSandbox({ apiKey: SANDBOX_KEY, maxIdleMs: 10 * 60_000 });
		await n8n.importCredentials([credential('vpSmoke', sandbox.url, SANDBOX_KEY)]);
		await n8n.importWorkflows([roomWorkflow, triggerWorkflow]);
		await n8n.activateWorkflow(triggerWorkflow.id);
	}, 15 * 60_000);

	afterAll(async () => {
		await n8n?.dispose();
		await sandbox?.stop();
	});

	it('Room → Create sends one request and outputs the created room', async () => {
		const result = await n8n.execute(roomWorkflow.id);
		expect(result).toHaveRunOk();
		expect(sandbox.state.requests).toEqual([
			expect.objectContaining({ method: 'POST', path: '/v1/rooms', body: '{"name":"Smoke room","type":"conference"}', authorization: 'valid Bearer key' }),
		]);
		const [room] = sandbox.state.rooms as Array<{ id: string }>;
		expect(outputOf(result.run, CREATE)).toMatchObject([{ json: { id: room.id, name: 'Smoke room', type: 'conference' }, pairedItem: { item: 0 } }]);
	});

	it('the trigger of an active workflow starts one run from one real POST', async () => {
		await n8n.start();
		const url = n8n.triggerUrl(triggerWorkflow);
		await n8n.waitForWebhook(url);
		const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ kind: 'room.ended', id: 'smoke-1' }) });
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ received: true, started: true });

		const runs = await n8n.waitForExecutions(triggerWorkflow.id);
		expect(runs.map((run) => run.status)).toEqual(['success']);
		expect(outputOf(runs[0], TRIGGER)).toMatchObject([{ json: { kind: 'room.ended', id: 'smoke-1' } }]);
	});
});

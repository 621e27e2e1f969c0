import { ALL_DELIVERIES } from '../../nodes/VideoPlatform/trigger/filter';
import { SECRET_CREDENTIAL } from '../../nodes/VideoPlatform/trigger/webhook';
import { createApiKey, ensureOwner, getWorkflow, waitForExecutions } from '../../tools/lib/n8n-api';
import { node, outputOf, VIDEO_PLATFORM_TRIGGER, workflow } from '../../tools/lib/workflows';
import type { N8n } from './n8nWithPackage';
import { n8nWithPackage } from './n8nWithPackage';

const SECRET = 'whsec_e2e_81c4f0a2d9';
const HEADER = 'X-Platform-Secret';

const TRIGGER = 'Video Platform Trigger';
const triggerWorkflow = workflow('wfTrigger', [
	node(
		TRIGGER,
		VIDEO_PLATFORM_TRIGGER,
		{
			authentication: 'secretHeader',
			event: ALL_DELIVERIES,
			options: { filterField: 'kind', filterValues: 'wanted, also-wanted', duplicateIdField: 'id' },
		},
		{
			webhookId: '5f7c1d2e-0b6a-4c59-9e1f-3a8d7b2c4e60',
			credentials: { [SECRET_CREDENTIAL]: { id: 'vpSecret', name: 'vpSecret' } },
		},
	),
	node('Done', 'n8n-nodes-base.noOp', {}),
]);

type Execution = { id: string; status: string };
/** The delivery an execution started with, as the trigger put it out. */
const deliveryOf = (execution: Execution) => outputOf(execution, TRIGGER)[0].json as Record<string, unknown>;

describe.each([2, 1] as const)('Video Platform Trigger in a real n8n %i.x', (major) => {
	let n8n: N8n;
	let url: string;
	let apiKey: string;

	const post = (body: unknown, secret: string | null = SECRET) =>
		fetch(url, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', ...(secret === null ? {} : { [HEADER]: secret }) },
			body: JSON.stringify(body),
		});

	const executions = async (expected: number) =>
		(await waitForExecutions(n8n.baseUrl, apiKey, triggerWorkflow.id, { atLeast: expected })) as Execution[];

	beforeAll(async () => {
		n8n = await n8nWithPackage(major, 'trigger');
		await n8n.importCredentials([
			{ id: 'vpSecret', name: 'vpSecret', type: SECRET_CREDENTIAL, data: { headerName: HEADER, secret: SECRET } },
		]);
		await n8n.importWorkflow(triggerWorkflow);
		await n8n.activateWorkflow(triggerWorkflow.id);
		await n8n.start();
		url = n8n.triggerUrl(triggerWorkflow);
		await n8n.waitForWebhook(url);
		apiKey = await createApiKey(n8n.baseUrl, await ensureOwner(n8n.baseUrl));
	}, 15 * 60_000);

	afterAll(async () => {
		await n8n?.dispose();
	});

	it('a valid delivery starts one execution with the payload at the top level', async () => {
		const response = await post({ kind: 'wanted', id: 'first', data: { room: 'r1' } });
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ received: true, started: true });

		const [execution] = await executions(1);
		expect(execution.status).toBe('success');
		const item = deliveryOf(execution);
		expect(item).toMatchObject({ kind: 'wanted', id: 'first', data: { room: 'r1' } });
		expect(JSON.stringify(item)).not.toContain(SECRET);
	});

	it('a wrong or missing secret gets 401 and starts nothing', async () => {
		const wrong = await post({ kind: 'wanted' }, 'not-the-secret');
		const missing = await post({ kind: 'wanted' }, null);
		expect([wrong.status, missing.status]).toEqual([401, 401]);
		expect(await executions(1)).toHaveLength(1);
	});

	it('a filtered-out delivery is acknowledged and starts nothing', async () => {
		const response = await post({ kind: 'unwanted' });
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ received: true, started: false, reason: 'filtered' });
		expect(await executions(1)).toHaveLength(1);
	});

	// Only on 1.x: n8n 2.41 was seen not to persist static data that a webhook method changes, so
	// there the duplicate drop cannot be relied on (the README says so).
	const onOneX = major === 1 ? it : it.skip;
	onOneX('a redelivered id is acknowledged and starts nothing, also on a later request', async () => {
		const before = (await executions(0)).length;
		const first = await post({ kind: 'wanted', id: 'redelivered-1' });
		expect(await first.json()).toEqual({ received: true, started: true });
		// n8n saves the workflow's static data after the first delivery's execution ends; wait
		// until it is there (a copy arriving before that may pass, as the README says).
		await executions(before + 1);
		for (let i = 0; i < 100; i++) {
			const { staticData } = (await getWorkflow(n8n.baseUrl, apiKey, triggerWorkflow.id)) as { staticData?: object };
			if (JSON.stringify(staticData ?? {}).includes('redelivered-1')) break;
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
		const again = await post({ kind: 'wanted', id: 'redelivered-1' });
		expect(await again.json()).toEqual({ received: true, started: false, reason: 'duplicate' });
		expect(await executions(before + 1)).toHaveLength(before + 1);
	});

	it('200 deliveries at concurrency 20 give 200 executions, none lost', async () => {
		const ids = Array.from({ length: 200 }, (_, i) => `burst-${i}`);
		const statuses: number[] = [];
		for (let start = 0; start < ids.length; start += 20) {
			const batch = ids.slice(start, start + 20).map(async (id) => (await post({ kind: 'also-wanted', id })).status);
			statuses.push(...(await Promise.all(batch)));
		}
		expect(statuses.filter((s) => s === 200)).toHaveLength(200);

		const all = await executions(202);
		const seen = all.map((e) => deliveryOf(e).id).filter((id) => String(id).startsWith('burst-'));
		expect(new Set(seen)).toEqual(new Set(ids));
		expect(all.filter((e) => e.status !== 'success')).toEqual([]);
	});
});

import { ALL_DELIVERIES } from '../../nodes/VideoPlatform/trigger/choices';
import { defaultVersion } from '../../tools/install/versions';
import { roomBatchWorkflow } from '../../tools/queue/stack';
import { dropRedelivered, node, outputOf, VIDEO_PLATFORM_TRIGGER, workflow } from '../../tools/n8n/workflows';
import { itCreatesEveryRoomOnceOnBothWorkers, itSpreadsDeliveriesOverTheWorkers, markerOf, queueModeStack } from './scenarios/queueMode';
import { TRIGGER } from './scenarios/triggerDeliveries';
import { oneHeavyFileAtATime } from './oneHeavyFileAtATime';

// The default n8n 2.x in queue mode (test/e2e/scenarios/queueMode.ts). Speed is measured by
// `npm run bench:queue`, not here; the same checks with 4 × 250 rooms and 500 deliveries are load
// runs: test/load/queue.load.test.ts.

// Trigger → Drop Redelivered → "Passed": it runs on the workers, n8n keeps its keys in PostgreSQL.
const FILTER = 'Drop Redeliveries';
const redeliveryWorkflow = workflow('wfQueueRedeliver', [
	node(TRIGGER, VIDEO_PLATFORM_TRIGGER, { authentication: 'none', event: ALL_DELIVERIES, options: { deliveryIdField: 'id' } }, { webhookId: '7b3f9e14-5a2c-4d8b-b6e0-1c9d4f7a2e85' }),
	dropRedelivered(FILTER),
	node('Passed', 'n8n-nodes-base.noOp', {}),
]);

// VIDEOPLATFORM_QUEUE_N8N=1.123.50 runs it on another installable n8n (1.x: by hand, docs/queue-mode.md).
const ONCE_PATH = 'queue-once';
const onceRows = ['Once A', 'Once B', 'Once C'].map((name) => ({ name }));
const onceSettings = { key: '={{ $json.name }}', mode: 'create', scope: 'node', keysRemembered: 1000 };
const onceWorkflow = roomBatchWorkflow('wfQueueOnce', ONCE_PATH, onceRows, 'vpQueueSandbox', { createOncePerKey: { settings: onceSettings } });

const version = process.env.VIDEOPLATFORM_QUEUE_N8N ?? defaultVersion();

// Never beside another heavy file: five n8n processes, PostgreSQL and Redis.
oneHeavyFileAtATime();

describe(`n8n ${version} in queue mode: main, two workers, two webhook processors`, () => {
	const queue = queueModeStack({
		idPrefix: 'Queue',
		logLabel: 'queue',
		scratchDir: 'e2e-queue',
		triggerWebhookId: '0c5e2f8a-6b1d-4e7a-9c3f-2d8b4a6e1f70',
		apiKey: 'sk_queue_e2e_7d21',
		secret: 'whsec_queue_e2e_5a9c',
		batches: 4,
		roomsPerBatch: 25,
		sandboxLifetimeS: 900,
		executionTimeoutMs: 240_000,
		moreWorkflows: [redeliveryWorkflow, onceWorkflow],
		version,
	});

	itCreatesEveryRoomOnceOnBothWorkers(queue);

	describe('Video Platform Trigger on the webhook processor', () => {
		beforeAll(async () => {
			const [url] = queue.stack().triggerUrls(queue.triggerWorkflow);
			expect(url.startsWith(`${queue.stack().webhookUrl}/webhook/`)).toBe(true);
			await queue.stack().waitForWebhook(url);
		});

		it('a delivery starts one execution, on a worker; a wrong or missing secret gets 401 and starts nothing', async () => {
			const wrong = await queue.post({ kind: 'wanted', marker: 'wrong-secret' }, 'not-the-secret');
			const missing = await queue.post({ kind: 'wanted', marker: 'no-secret' }, null);
			expect([wrong.status, missing.status]).toEqual([401, 401]);

			const good = await queue.post({ kind: 'wanted', marker: 'first' });
			expect(good.status).toBe(200);
			const [execution, ...more] = await queue.executions(queue.triggerWorkflow.id, 1);
			expect(more).toEqual([]);
			expect(execution.status).toBe('success');
			expect(markerOf(execution)).toBe('first');
			expect(queue.workerOf(execution.id)).toMatch(/^worker-/);
		});

		itSpreadsDeliveriesOverTheWorkers(queue, { deliveries: 40, concurrency: 20, executionsBefore: 1 });
	});

	// Issue 15's proof 3 in queue mode: the filter runs on whichever worker takes the execution, and
	// n8n keeps its keys in PostgreSQL, so a copy is dropped on the other worker and after a restart.
	describe('Drop Redelivered on the workers', () => {
		/** Posts a delivery to a webhook processor; says whether the execution it started got past the filter. */
		const deliver = async (body: unknown, webhookProcessor = 0) => {
			const stack = queue.stack();
			const before = (await queue.executions(redeliveryWorkflow.id, 0)).length;
			const [url] = stack.triggerUrls(redeliveryWorkflow, stack.webhooks[webhookProcessor]);
			const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
			expect(response.status).toBe(200);
			const all = await queue.executions(redeliveryWorkflow.id, before + 1);
			expect(all).toHaveLength(before + 1);
			const [newest] = all.sort((a, b) => Number(b.id) - Number(a.id));
			expect(newest.status).toBe('success');
			const runData = (newest as unknown as { data: { resultData: { runData: Record<string, unknown> } } }).data.resultData.runData;
			expect(outputOf(newest, FILTER)).toHaveLength('Passed' in runData ? 1 : 0);
			return 'Passed' in runData;
		};

		it('drops the same delivery posted again, to the other webhook processor, and again after the workers restart; passes a different one', async () => {
			const stack = queue.stack();
			for (const webhook of stack.webhooks) await stack.waitForWebhook(stack.triggerUrls(redeliveryWorkflow, webhook)[0]);
			expect(await deliver({ id: 'q-1', copy: 1 })).toBe(true);
			expect(await deliver({ id: 'q-1', copy: 2 }, 1)).toBe(false);
			await stack.restartWorkers();
			expect(await deliver({ id: 'q-1', copy: 3 })).toBe(false);
			expect(await deliver({ id: 'q-2' })).toBe(true);
		}, 4 * 60_000);
	});

	// Create Once Per Key keeps its keys in n8n's database (PostgreSQL here), so the worker that runs
	// the workflow again skips what the other one created.
	it('Create Once Per Key: the same rows run again, one run after the other on both workers, create each room once', async () => {
		const stack = queue.stack();
		const url = `${stack.webhookUrl}/webhook/${ONCE_PATH}`;
		await stack.waitForWebhook(url);
		const runs: Array<{ worker?: string; outputs: Array<{ json: { id?: string; reason?: string } }> }> = [];
		// Runs one after the other until two of them landed on different workers (at most 8).
		while (runs.length < 8 && new Set(runs.map(({ worker }) => worker)).size < 2) {
			const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
			expect(response.status).toBe(200);
			const all = await queue.executions(onceWorkflow.id, runs.length + 1);
			const [newest] = all.sort((a, b) => Number(b.id) - Number(a.id));
			expect(newest.status).toBe('success');
			runs.push({ worker: queue.workerOf(newest.id), outputs: outputOf(newest, 'Create rooms') });
		}
		expect(new Set(runs.map(({ worker }) => worker)).size).toBe(2);
		const [first, ...later] = runs;
		expect(first.outputs.map(({ json }) => json.reason)).toEqual([undefined, undefined, undefined]);
		for (const run of later) expect(run.outputs.map(({ json }) => json.reason)).toEqual(['created-before', 'created-before', 'created-before']);
		const state = (await queue.sandbox().state()) as { rooms: Array<{ name: string }> };
		expect(state.rooms.map(({ name }) => name).filter((name) => name.startsWith('Once ')).sort()).toEqual(['Once A', 'Once B', 'Once C']);
	}, 4 * 60_000);
});

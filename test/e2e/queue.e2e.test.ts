import * as path from 'node:path';

import { ALL_DELIVERIES } from '../../nodes/VideoPlatform/trigger/filter';
import { WEBHOOK_CREDENTIAL } from '../../nodes/VideoPlatform/shared/credentials';
import { freePort } from '../../tools/common/ports';
import { waitForExecutions } from '../../tools/n8n/api';
import { roomBatchWorkflow, startQueueStack } from '../../tools/queue/stack';
import { defaultVersion } from '../../tools/install/versions';
import { scratchRoot } from '../../tools/common/paths';
import { startSandboxProcess } from '../../tools/sandbox/process';
import { credential, dropRedelivered, node, outputOf, VIDEO_PLATFORM_TRIGGER, workflow } from '../../tools/n8n/workflows';
import { packedTarball } from './packedTarball';

// The default n8n 2.x in queue mode, as the README's "Running at scale" describes it: PostgreSQL,
// Redis, a main process, two workers (concurrency 2) and a webhook processor, each with the packed
// package installed in its own user folder. Speed is measured by `npm run bench:queue`, not here;
// the same checks with 4 × 250 rooms and 500 deliveries are load runs: test/load/queue.load.test.ts.
const API_KEY = 'sk_queue_e2e_7d21';
const SECRET = 'whsec_queue_e2e_5a9c';
const HEADER = 'X-Platform-Secret';
const BATCHES = 4;
const ROOMS_PER_BATCH = 25;
const DELIVERIES = 40;
const DELIVERY_CONCURRENCY = 20;

const TRIGGER = 'Video Platform Trigger';
const triggerWorkflow = workflow('wfQueueTrigger', [
	node(
		TRIGGER,
		VIDEO_PLATFORM_TRIGGER,
		{ authentication: 'secretHeader', event: ALL_DELIVERIES, options: {} },
		{ webhookId: '0c5e2f8a-6b1d-4e7a-9c3f-2d8b4a6e1f70', credentials: { [WEBHOOK_CREDENTIAL.type]: { id: 'vpQueueSecret', name: 'vpQueueSecret' } } },
	),
	node('Done', 'n8n-nodes-base.noOp', {}),
]);
// Trigger → Drop Redelivered → "Passed": it runs on the workers, n8n keeps its keys in PostgreSQL.
const FILTER = 'Drop Redeliveries';
const redeliveryWorkflow = workflow('wfQueueRedeliver', [
	node(TRIGGER, VIDEO_PLATFORM_TRIGGER, { authentication: 'none', event: ALL_DELIVERIES, options: { deliveryIdField: 'id' } }, { webhookId: '7b3f9e14-5a2c-4d8b-b6e0-1c9d4f7a2e85' }),
	dropRedelivered(FILTER),
	node('Passed', 'n8n-nodes-base.noOp', {}),
]);
const batchRows = (batch: number) => Array.from({ length: ROOMS_PER_BATCH }, (_, i) => ({ name: `Batch ${batch} class ${i}` }));
const batchWorkflows = Array.from({ length: BATCHES }, (_, batch) =>
	roomBatchWorkflow(`wfQueueRooms${batch}`, `queue-rooms-${batch}`, batchRows(batch), 'vpQueueSandbox'),
);

type Execution = { id: string; status: string; workflowId?: string };
type Stack = Awaited<ReturnType<typeof startQueueStack>>;

describe(`n8n ${defaultVersion()} in queue mode: main, two workers, two webhook processors`, () => {
	let stack: Stack;
	let sandbox: Awaited<ReturnType<typeof startSandboxProcess>>;

	const executions = async (workflowId: string, atLeast: number, timeoutMs = 240_000) =>
		(await waitForExecutions(stack.baseUrl, stack.api.key, workflowId, { atLeast, timeoutMs })) as Execution[];
	/** Which worker's log says it started the execution ("Worker started execution <id>"). */
	const workerOf = (id: string) =>
		Object.entries(stack.executionsByWorker() as Record<string, string[]>).find(([, ids]) => ids.includes(id))?.[0];

	beforeAll(async () => {
		sandbox = await startSandboxProcess({ port: await freePort(), apiKey: API_KEY, latencyMs: 20, rateLimit: 50, maxLifetimeS: 900 });
		stack = await startQueueStack({
			tarball: await packedTarball(),
			dir: path.join(scratchRoot, `e2e-queue-${process.pid}`),
			// The second one takes a redelivery, as a load balancer in front of several would.
			webhookProcessors: 2,
			credentials: [
				credential('vpQueueSandbox', sandbox.url, API_KEY),
				{ id: 'vpQueueSecret', name: 'vpQueueSecret', type: WEBHOOK_CREDENTIAL.type, data: { headerName: HEADER, secret: SECRET } },
			],
			workflows: [...batchWorkflows, triggerWorkflow, redeliveryWorkflow],
			activate: [...batchWorkflows, triggerWorkflow, redeliveryWorkflow].map(({ id }) => id),
			log: (message: string) => process.stderr.write(`[queue] ${message}\n`),
		});
		process.stderr.write(`[queue] ${stack.describe().join('\n[queue] ')}\n`);
	}, 10 * 60_000);

	afterAll(async () => {
		await stack?.dispose();
		await sandbox?.stop();
	}, 120_000);

	it(`Room → Create: ${BATCHES} workflows of ${ROOMS_PER_BATCH} items started at once run on both workers, every room created once`, async () => {
		const urls = batchWorkflows.map((_, batch) => `${stack.webhookUrl}/webhook/queue-rooms-${batch}`);
		for (const url of urls) await stack.waitForWebhook(url);
		const answers = await Promise.all(urls.map((url) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })));
		expect(answers.map((answer) => answer.status)).toEqual(urls.map(() => 200));

		const runs = (await Promise.all(batchWorkflows.map(({ id }) => executions(id, 1)))).flat();
		const placement = runs.map((run) => `${run.workflowId ?? '?'}: execution ${run.id} on ${workerOf(run.id) ?? 'no worker'} (${run.status})`);
		process.stderr.write(`[queue] Room → Create, which worker ran which execution:\n[queue]   ${placement.join('\n[queue]   ')}\n`);
		expect(runs).toHaveLength(BATCHES);
		expect(runs.map((run) => run.status)).toEqual(runs.map(() => 'success'));
		expect(new Set(runs.map((run) => workerOf(run.id))).size).toBe(2);

		for (const run of runs) {
			const created = outputOf(run, 'Create rooms') as Array<{ json: { error?: unknown } }>;
			expect(created).toHaveLength(ROOMS_PER_BATCH);
			expect(created.filter((item) => item.json.error !== undefined)).toEqual([]);
		}
		const state = (await sandbox.state()) as { rooms: Array<{ name: string }>; counts: { createdByBody: Record<string, number> } };
		const expected = batchWorkflows.flatMap((_, batch) => batchRows(batch).map(({ name }) => name)).sort();
		expect(state.rooms.map((room) => room.name).sort()).toEqual(expected);
		const createdByBody = Object.values(state.counts.createdByBody);
		expect(createdByBody).toHaveLength(BATCHES * ROOMS_PER_BATCH);
		expect(createdByBody.filter((n) => n !== 1)).toEqual([]);
	}, 8 * 60_000);

	describe('Video Platform Trigger on the webhook processor', () => {
		let url: string;
		const post = (body: unknown, secret: string | null = SECRET) =>
			fetch(url, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', ...(secret === null ? {} : { [HEADER]: secret }) },
				body: JSON.stringify(body),
			});
		const markerOf = (execution: Execution) => (outputOf(execution, TRIGGER)[0].json as { marker?: string }).marker;

		beforeAll(async () => {
			[url] = stack.triggerUrls(triggerWorkflow);
			expect(url.startsWith(`${stack.webhookUrl}/webhook/`)).toBe(true);
			await stack.waitForWebhook(url);
		});

		it('a delivery starts one execution, on a worker; a wrong or missing secret gets 401 and starts nothing', async () => {
			const wrong = await post({ kind: 'wanted', marker: 'wrong-secret' }, 'not-the-secret');
			const missing = await post({ kind: 'wanted', marker: 'no-secret' }, null);
			expect([wrong.status, missing.status]).toEqual([401, 401]);

			const good = await post({ kind: 'wanted', marker: 'first' });
			expect(good.status).toBe(200);
			const [execution, ...more] = await executions(triggerWorkflow.id, 1);
			expect(more).toEqual([]);
			expect(execution.status).toBe('success');
			expect(markerOf(execution)).toBe('first');
			expect(workerOf(execution.id)).toMatch(/^worker-/);
		});

		it(`${DELIVERIES} deliveries at concurrency ${DELIVERY_CONCURRENCY} give ${DELIVERIES} executions on the workers, none lost, none doubled`, async () => {
			const markers = Array.from({ length: DELIVERIES }, (_, i) => `burst-${i}`);
			const statuses: number[] = [];
			let next = 0;
			await Promise.all(
				Array.from({ length: DELIVERY_CONCURRENCY }, async () => {
					while (next < markers.length) {
						const marker = markers[next++];
						statuses.push((await post({ kind: 'wanted', marker })).status);
					}
				}),
			);
			expect(statuses.filter((status) => status === 200)).toHaveLength(DELIVERIES);

			const all = await executions(triggerWorkflow.id, DELIVERIES + 1);
			const burst = all.filter((execution) => String(markerOf(execution)).startsWith('burst-'));
			expect(burst).toHaveLength(DELIVERIES);
			expect(new Set(burst.map(markerOf))).toEqual(new Set(markers));
			expect(all.filter((execution) => execution.status !== 'success')).toEqual([]);
			expect(all.filter((execution) => markerOf(execution) === undefined)).toEqual([]);

			const perWorker = Object.fromEntries(
				Object.entries(stack.executionsByWorker() as Record<string, string[]>).map(([name, ids]) => [name, burst.filter((e) => ids.includes(e.id)).length]),
			);
			process.stderr.write(`[queue] ${DELIVERIES} deliveries, executions per worker: ${JSON.stringify(perWorker)}\n`);
			expect(Object.values(perWorker).reduce((sum, n) => sum + n, 0)).toBe(DELIVERIES);
		}, 8 * 60_000);
	});

	// Issue 15's proof 3 in queue mode: the filter runs on whichever worker takes the execution, and
	// n8n keeps its keys in PostgreSQL, so a copy is dropped on the other worker and after a restart.
	describe('Drop Redelivered on the workers', () => {
		/** Posts a delivery to a webhook processor; says whether the execution it started got past the filter. */
		const deliver = async (body: unknown, webhookProcessor = 0) => {
			const before = (await executions(redeliveryWorkflow.id, 0)).length;
			const [url] = stack.triggerUrls(redeliveryWorkflow, stack.webhooks[webhookProcessor]);
			const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
			expect(response.status).toBe(200);
			const all = await executions(redeliveryWorkflow.id, before + 1);
			expect(all).toHaveLength(before + 1);
			const [newest] = all.sort((a, b) => Number(b.id) - Number(a.id));
			expect(newest.status).toBe('success');
			const runData = (newest as unknown as { data: { resultData: { runData: Record<string, unknown> } } }).data.resultData.runData;
			expect(outputOf(newest, FILTER)).toHaveLength('Passed' in runData ? 1 : 0);
			return 'Passed' in runData;
		};

		it('drops the same delivery posted again, to the other webhook processor, and again after the workers restart; passes a different one', async () => {
			for (const webhook of stack.webhooks) await stack.waitForWebhook(stack.triggerUrls(redeliveryWorkflow, webhook)[0]);
			expect(await deliver({ id: 'q-1', copy: 1 })).toBe(true);
			expect(await deliver({ id: 'q-1', copy: 2 }, 1)).toBe(false);
			await stack.restartWorkers();
			expect(await deliver({ id: 'q-1', copy: 3 })).toBe(false);
			expect(await deliver({ id: 'q-2' })).toBe(true);
		}, 4 * 60_000);
	});
});

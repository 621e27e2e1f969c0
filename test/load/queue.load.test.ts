import * as path from 'node:path';

import { ALL_DELIVERIES } from '../../nodes/VideoPlatform/trigger/filter';
import { WEBHOOK_CREDENTIAL } from '../../nodes/VideoPlatform/shared/credentials';
import { freePort } from '../../tools/common/ports';
import { waitForExecutions } from '../../tools/n8n/api';
import { roomBatchWorkflow, startQueueStack } from '../../tools/queue/stack';
import { defaultVersion } from '../../tools/install/versions';
import { scratchRoot } from '../../tools/common/paths';
import { startSandboxProcess } from '../../tools/sandbox/process';
import { credential, node, outputOf, VIDEO_PLATFORM_TRIGGER, workflow } from '../../tools/n8n/workflows';
import { packedTarball } from '../e2e/packedTarball';

// The load half of test/e2e/queue.e2e.test.ts (which runs the same checks with 4 × 25 rooms and 40
// deliveries): the same stack, PostgreSQL, Redis, a main process, two workers (concurrency 2) and
// two webhook processors. `npm run bench:load`; speed itself is `npm run bench:queue`'s.
const API_KEY = 'sk_queue_load_2c84';
const SECRET = 'whsec_queue_load_91be';
const HEADER = 'X-Platform-Secret';
const BATCHES = 4;
const ROOMS_PER_BATCH = 250;
const DELIVERIES = 500;
const DELIVERY_CONCURRENCY = 20;

const TRIGGER = 'Video Platform Trigger';
const triggerWorkflow = workflow('wfQueueLoadTrigger', [
	node(
		TRIGGER,
		VIDEO_PLATFORM_TRIGGER,
		{ authentication: 'secretHeader', event: ALL_DELIVERIES, options: {} },
		{ webhookId: '4e9a1c73-2d5b-4f60-8b1e-6c7d8e9f0a81', credentials: { [WEBHOOK_CREDENTIAL.type]: { id: 'vpQueueLoadSecret', name: 'vpQueueLoadSecret' } } },
	),
	node('Done', 'n8n-nodes-base.noOp', {}),
]);
const batchRows = (batch: number) => Array.from({ length: ROOMS_PER_BATCH }, (_, i) => ({ name: `Batch ${batch} class ${i}` }));
const batchWorkflows = Array.from({ length: BATCHES }, (_, batch) =>
	roomBatchWorkflow(`wfQueueLoadRooms${batch}`, `queue-load-rooms-${batch}`, batchRows(batch), 'vpQueueLoadSandbox'),
);

type Execution = { id: string; status: string; workflowId?: string };
type Stack = Awaited<ReturnType<typeof startQueueStack>>;

describe(`n8n ${defaultVersion()} in queue mode under load: main, two workers, two webhook processors`, () => {
	let stack: Stack;
	let sandbox: Awaited<ReturnType<typeof startSandboxProcess>>;

	const executions = async (workflowId: string, atLeast: number) =>
		(await waitForExecutions(stack.baseUrl, stack.api.key, workflowId, { atLeast, timeoutMs: 5 * 60_000 })) as Execution[];
	const workerOf = (id: string) =>
		Object.entries(stack.executionsByWorker() as Record<string, string[]>).find(([, ids]) => ids.includes(id))?.[0];

	beforeAll(async () => {
		sandbox = await startSandboxProcess({ port: await freePort(), apiKey: API_KEY, latencyMs: 20, rateLimit: 50, maxLifetimeS: 1800 });
		stack = await startQueueStack({
			tarball: await packedTarball(),
			dir: path.join(scratchRoot, `load-queue-${process.pid}`),
			webhookProcessors: 2,
			credentials: [
				credential('vpQueueLoadSandbox', sandbox.url, API_KEY),
				{ id: 'vpQueueLoadSecret', name: 'vpQueueLoadSecret', type: WEBHOOK_CREDENTIAL.type, data: { headerName: HEADER, secret: SECRET } },
			],
			workflows: [...batchWorkflows, triggerWorkflow],
			activate: [...batchWorkflows, triggerWorkflow].map(({ id }) => id),
			log: (message: string) => process.stderr.write(`[queue-load] ${message}\n`),
		});
	}, 10 * 60_000);

	afterAll(async () => {
		await stack?.dispose();
		await sandbox?.stop();
	}, 120_000);

	it(`Room → Create: ${BATCHES} workflows of ${ROOMS_PER_BATCH} items started at once run on both workers, every room created once`, async () => {
		const urls = batchWorkflows.map((_, batch) => `${stack.webhookUrl}/webhook/queue-load-rooms-${batch}`);
		for (const url of urls) await stack.waitForWebhook(url);
		const answers = await Promise.all(urls.map((url) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })));
		expect(answers.map((answer) => answer.status)).toEqual(urls.map(() => 200));

		const runs = (await Promise.all(batchWorkflows.map(({ id }) => executions(id, 1)))).flat();
		expect(runs.map((run) => run.status)).toEqual(batchWorkflows.map(() => 'success'));
		expect(new Set(runs.map((run) => workerOf(run.id))).size).toBe(2);
		for (const run of runs) {
			const created = outputOf(run, 'Create rooms') as Array<{ json: { error?: unknown } }>;
			expect(created).toHaveLength(ROOMS_PER_BATCH);
			expect(created.filter((item) => item.json.error !== undefined)).toEqual([]);
		}
		const state = (await sandbox.state()) as { rooms: Array<{ name: string }>; counts: { createdByBody: Record<string, number> } };
		const expected = batchWorkflows.flatMap((_, batch) => batchRows(batch).map(({ name }) => name)).sort();
		expect(state.rooms.map((room) => room.name).sort()).toEqual(expected);
		expect(Object.values(state.counts.createdByBody).filter((n) => n !== 1)).toEqual([]);
	}, 8 * 60_000);

	it(`${DELIVERIES} deliveries at concurrency ${DELIVERY_CONCURRENCY} give ${DELIVERIES} executions on the workers, none lost, none doubled`, async () => {
		const [url] = stack.triggerUrls(triggerWorkflow);
		await stack.waitForWebhook(url);
		const markers = Array.from({ length: DELIVERIES }, (_, i) => `burst-${i}`);
		const statuses: number[] = [];
		let next = 0;
		await Promise.all(
			Array.from({ length: DELIVERY_CONCURRENCY }, async () => {
				while (next < markers.length) {
					const marker = markers[next++];
					const response = await fetch(url, {
						method: 'POST',
						headers: { 'Content-Type': 'application/json', [HEADER]: SECRET },
						body: JSON.stringify({ kind: 'wanted', marker }),
					});
					statuses.push(response.status);
				}
			}),
		);
		expect(statuses.filter((status) => status === 200)).toHaveLength(DELIVERIES);

		const all = await executions(triggerWorkflow.id, DELIVERIES);
		const markerOf = (execution: Execution) => (outputOf(execution, TRIGGER)[0].json as { marker?: string }).marker;
		expect(all).toHaveLength(DELIVERIES);
		expect(new Set(all.map(markerOf))).toEqual(new Set(markers));
		expect(all.filter((execution) => execution.status !== 'success')).toEqual([]);
		const perWorker = Object.entries(stack.executionsByWorker() as Record<string, string[]>).map(
			([name, ids]) => [name, all.filter((e) => ids.includes(e.id)).length] as const,
		);
		process.stderr.write(`[queue-load] ${DELIVERIES} deliveries, executions per worker: ${JSON.stringify(Object.fromEntries(perWorker))}\n`);
		expect(perWorker.reduce((sum, [, n]) => sum + n, 0)).toBe(DELIVERIES);
	}, 8 * 60_000);
});

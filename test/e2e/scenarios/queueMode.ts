import * as path from 'node:path';

import { ALL_DELIVERIES } from '../../../nodes/VideoPlatform/trigger/choices';
import { WEBHOOK_CREDENTIAL } from '../../../nodes/VideoPlatform/shared/credentials';
import { freePort } from '../../../tools/common/ports';
import { waitForExecutions } from '../../../tools/n8n/api';
import { roomBatchWorkflow, startQueueStack } from '../../../tools/queue/stack';
import { scratchRoot } from '../../../tools/common/paths';
import { startSandboxProcess } from '../../../tools/sandbox/process';
import { credential, node, outputOf, VIDEO_PLATFORM_TRIGGER, workflow } from '../../../tools/n8n/workflows';
import { packedTarball } from '../packedTarball';
import { SECRET_HEADER, TRIGGER } from './triggerDeliveries';

// n8n in queue mode, as docs/queue-mode.md describes it: PostgreSQL, Redis, a main
// process, two workers (concurrency 2 unless a run says) and two webhook processors, each with the packed package in
// its own user folder. test/e2e/queue.e2e.test.ts runs it small, test/load/queue.load.test.ts big.

export type QueueModeRun = {
	/** In workflow and credential ids (`wf${idPrefix}Trigger`, `vp${idPrefix}Sandbox`): a run's own. */
	idPrefix: string;
	/** Starts the Room → Create webhook paths (`${logLabel}-rooms-0`) and the log lines (`[${logLabel}]`). */
	logLabel: string;
	/** The folder under .scratch that holds the stack's user folders. */
	scratchDir: string;
	triggerWebhookId: string;
	apiKey: string;
	secret: string;
	batches: number;
	roomsPerBatch: number;
	sandboxLifetimeS: number;
	/** How long to wait for the executions a test expects. */
	executionTimeoutMs: number;
	/** Further workflows the stack imports and activates, for tests of the run's own. */
	moreWorkflows?: Array<ReturnType<typeof workflow>>;
	/** The n8n version; the default 2.x when left out. */
	version?: string;
	/** Executions each worker runs at once (the stack's default when left out). */
	concurrency?: number;
};

export type Execution = { id: string; status: string; workflowId?: string };
type Stack = Awaited<ReturnType<typeof startQueueStack>>;
type SandboxProcess = Awaited<ReturnType<typeof startSandboxProcess>>;

export const markerOf = (execution: Execution) => (outputOf(execution, TRIGGER)[0].json as { marker?: string }).marker;

/**
 * Starts the sandbox and the stack before the enclosing describe's tests and stops them after;
 * declare it first in a describe. Returns what the tests use.
 */
export function queueModeStack(run: QueueModeRun) {
	const log = (message: string) => process.stderr.write(`[${run.logLabel}] ${message}\n`);
	const triggerWorkflow = workflow(`wf${run.idPrefix}Trigger`, [
		node(
			TRIGGER,
			VIDEO_PLATFORM_TRIGGER,
			{ authentication: 'secretHeader', event: ALL_DELIVERIES, options: {} },
			{ webhookId: run.triggerWebhookId, credentials: { [WEBHOOK_CREDENTIAL.type]: { id: `vp${run.idPrefix}Secret`, name: `vp${run.idPrefix}Secret` } } },
		),
		node('Done', 'n8n-nodes-base.noOp', {}),
	]);
	const batchRows = (batch: number) => Array.from({ length: run.roomsPerBatch }, (_, i) => ({ name: `Batch ${batch} class ${i}` }));
	const batchPath = (batch: number) => `${run.logLabel}-rooms-${batch}`;
	const batchWorkflows = Array.from({ length: run.batches }, (_, batch) =>
		roomBatchWorkflow(`wf${run.idPrefix}Rooms${batch}`, batchPath(batch), batchRows(batch), `vp${run.idPrefix}Sandbox`),
	);

	let stack: Stack;
	let sandbox: SandboxProcess;

	beforeAll(async () => {
		sandbox = await startSandboxProcess({ port: await freePort(), apiKey: run.apiKey, latencyMs: 20, rateLimit: 50, maxLifetimeS: run.sandboxLifetimeS });
		const workflows = [...batchWorkflows, triggerWorkflow, ...(run.moreWorkflows ?? [])];
		stack = await startQueueStack({
			tarball: await packedTarball(),
			version: run.version,
			dir: path.join(scratchRoot, `${run.scratchDir}-${process.pid}`),
			// The second one takes a redelivery, as a load balancer in front of several would.
			webhookProcessors: 2,
			concurrency: run.concurrency,
			credentials: [
				credential(`vp${run.idPrefix}Sandbox`, sandbox.url, run.apiKey),
				{ id: `vp${run.idPrefix}Secret`, name: `vp${run.idPrefix}Secret`, type: WEBHOOK_CREDENTIAL.type, data: { headerName: SECRET_HEADER, secret: run.secret } },
			],
			workflows,
			activate: workflows.map(({ id }) => id),
			log,
			// Nothing here opens the editor: n8n skips rewriting its files at start.
			editor: false,
		});
		log(stack.describe().join(`\n[${run.logLabel}] `));
	}, 10 * 60_000);

	afterAll(async () => {
		await stack?.dispose();
		await sandbox?.stop();
	}, 120_000);

	return {
		run,
		log,
		triggerWorkflow,
		batchWorkflows,
		batchRows,
		batchPath,
		stack: () => stack,
		sandbox: () => sandbox,
		executions: async (workflowId: string, atLeast: number) =>
			(await waitForExecutions(stack.baseUrl, stack.api.key, workflowId, { atLeast, timeoutMs: run.executionTimeoutMs })) as Execution[],
		/** Which worker's log says it started the execution ("Worker started execution <id>"). */
		workerOf: (id: string) =>
			Object.entries(stack.executionsByWorker() as Record<string, string[]>).find(([, ids]) => ids.includes(id))?.[0],
		/** Posts a delivery to the trigger on the first webhook processor, with the secret unless told otherwise. */
		post: (body: unknown, secret: string | null = run.secret) =>
			fetch(stack.triggerUrls(triggerWorkflow)[0], {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', ...(secret === null ? {} : { [SECRET_HEADER]: secret }) },
				body: JSON.stringify(body),
			}),
	};
}

export type QueueModeStack = ReturnType<typeof queueModeStack>;

/** Room → Create: the run's batch workflows started at once must spread over both workers and create every room once. */
export function itCreatesEveryRoomOnceOnBothWorkers(queue: QueueModeStack) {
	const { batches, roomsPerBatch } = queue.run;
	it(`Room → Create: ${batches} workflows of ${roomsPerBatch} items started at once run on both workers, every room created once`, async () => {
		const stack = queue.stack();
		const urls = queue.batchWorkflows.map((_, batch) => `${stack.webhookUrl}/webhook/${queue.batchPath(batch)}`);
		for (const url of urls) await stack.waitForWebhook(url);
		const answers = await Promise.all(urls.map((url) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })));
		expect(answers.map((answer) => answer.status)).toEqual(urls.map(() => 200));

		const runs = (await Promise.all(queue.batchWorkflows.map(({ id }) => queue.executions(id, 1)))).flat();
		const placement = runs.map((run) => `${run.workflowId ?? '?'}: execution ${run.id} on ${queue.workerOf(run.id) ?? 'no worker'} (${run.status})`);
		queue.log(`Room → Create, which worker ran which execution:\n[${queue.run.logLabel}]   ${placement.join(`\n[${queue.run.logLabel}]   `)}`);
		expect(runs).toHaveLength(batches);
		expect(runs.map((run) => run.status)).toEqual(runs.map(() => 'success'));
		expect(new Set(runs.map((run) => queue.workerOf(run.id))).size).toBe(2);

		for (const run of runs) {
			const created = outputOf(run, 'Create rooms') as Array<{ json: { error?: unknown } }>;
			expect(created).toHaveLength(roomsPerBatch);
			expect(created.filter((item) => item.json.error !== undefined)).toEqual([]);
		}
		const state = (await queue.sandbox().state()) as { rooms: Array<{ name: string }>; counts: { createdByBody: Record<string, number> } };
		const expected = queue.batchWorkflows.flatMap((_, batch) => queue.batchRows(batch).map(({ name }) => name)).sort();
		expect(state.rooms.map((room) => room.name).sort()).toEqual(expected);
		const createdByBody = Object.values(state.counts.createdByBody);
		expect(createdByBody).toHaveLength(batches * roomsPerBatch);
		expect(createdByBody.filter((n) => n !== 1)).toEqual([]);
	}, 8 * 60_000);
}

export type DeliveryBurst = {
	deliveries: number;
	concurrency: number;
	/** Executions of the trigger workflow that the tests before this one started. */
	executionsBefore: number;
};

/** The trigger on the webhook processor: a burst of deliveries, each one execution on a worker. */
export function itSpreadsDeliveriesOverTheWorkers(queue: QueueModeStack, { deliveries, concurrency, executionsBefore }: DeliveryBurst) {
	it(`${deliveries} deliveries at concurrency ${concurrency} give ${deliveries} executions on the workers, none lost, none doubled`, async () => {
		const stack = queue.stack();
		await stack.waitForWebhook(stack.triggerUrls(queue.triggerWorkflow)[0]);
		const markers = Array.from({ length: deliveries }, (_, i) => `burst-${i}`);
		const statuses: number[] = [];
		let next = 0;
		await Promise.all(
			Array.from({ length: concurrency }, async () => {
				while (next < markers.length) {
					const marker = markers[next++];
					statuses.push((await queue.post({ kind: 'wanted', marker })).status);
				}
			}),
		);
		expect(statuses.filter((status) => status === 200)).toHaveLength(deliveries);

		const all = await queue.executions(queue.triggerWorkflow.id, executionsBefore + deliveries);
		const burst = all.filter((execution) => String(markerOf(execution)).startsWith('burst-'));
		expect(burst).toHaveLength(deliveries);
		expect(new Set(burst.map(markerOf))).toEqual(new Set(markers));
		expect(all.filter((execution) => execution.status !== 'success')).toEqual([]);
		expect(all.filter((execution) => markerOf(execution) === undefined)).toEqual([]);

		const perWorker = Object.fromEntries(
			Object.entries(stack.executionsByWorker() as Record<string, string[]>).map(([name, ids]) => [name, burst.filter((e) => ids.includes(e.id)).length]),
		);
		queue.log(`${deliveries} deliveries, executions per worker: ${JSON.stringify(perWorker)}`);
		expect(Object.values(perWorker).reduce((sum, n) => sum + n, 0)).toBe(deliveries);
	}, 8 * 60_000);
}

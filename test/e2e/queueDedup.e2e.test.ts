import { ALL_DELIVERIES } from '../../nodes/VideoPlatform/trigger/choices';
import { listExecutions } from '../../tools/n8n/api';
import { defaultVersion } from '../../tools/install/versions';
import { dropRedelivered, node, outputOf, removeDuplicates, VIDEO_PLATFORM_TRIGGER, workflow } from '../../tools/n8n/workflows';
import type { Execution } from './scenarios/queueMode';
import { queueModeStack } from './scenarios/queueMode';
import { TRIGGER } from './scenarios/triggerDeliveries';
import { oneHeavyFileAtATime } from './oneHeavyFileAtATime';

// Drop Redelivered across the workers of queue mode: n8n's check reads a node's whole list of keys
// and writes it back without a lock, so a worker can write over the keys another worker's
// execution just recorded. The same distinct deliveries go to Drop Redelivered and, as the
// control, to n8n's own Remove Duplicates (the same check, the same key, the same history size);
// then every one of them again. The control's copies that pass show the race happened in this
// run; Drop Redelivered's must be none. While the first ones run, one worker is stalled now and
// then (SIGSTOP, then SIGCONT), as a loaded machine stalls a process: its writes then land after
// the other worker's runs have asked n8n again. Distinct deliveries, concurrency and rounds:
// VIDEOPLATFORM_DEDUP_DELIVERIES, VIDEOPLATFORM_DEDUP_CONCURRENCY, VIDEOPLATFORM_DEDUP_ROUNDS.

const DELIVERIES = Number(process.env.VIDEOPLATFORM_DEDUP_DELIVERIES || 300);
const CONCURRENCY = Number(process.env.VIDEOPLATFORM_DEDUP_CONCURRENCY || 20);
/** Rounds of fresh deliveries to try while the control has lost no key yet. */
const ROUNDS = Number(process.env.VIDEOPLATFORM_DEDUP_ROUNDS || 2);
/** Keys Remembered's default (docs/trigger.md: "default 10,000"), as users leave it. */
const HISTORY = 10_000;
/** How long the stalled worker stops, and how often, while the first deliveries run. */
const STALL_MS = 500;
const STALL_EVERY_MS = 1_500;
/** n8n's answer while its database ping fails (abstract-server.js in 2.41.1). */
const DATABASE_NOT_READY = 'Database is not ready';
const FILTER = 'Filter';
const PASSED = 'Passed';

const filtered = (id: string, webhookId: string, filter: ReturnType<typeof node>) =>
	workflow(id, [
		node(TRIGGER, VIDEO_PLATFORM_TRIGGER, { authentication: 'none', event: ALL_DELIVERIES, options: { deliveryIdField: 'id' } }, { webhookId }),
		filter,
		node(PASSED, 'n8n-nodes-base.noOp', {}),
	]);
const dropWorkflow = filtered('wfDedupDrop', '2d7e4a19-6b3c-4f80-9e25-8a1c0b7d3f64', dropRedelivered(FILTER, { keysRemembered: HISTORY }));
const controlWorkflow = filtered('wfDedupControl', '5a0c8e37-1f9d-4b62-a3e4-7d2b6c9f0e18', removeDuplicates(FILTER, HISTORY));
const SIDES = [
	{ name: 'Drop Redelivered', workflow: dropWorkflow },
	{ name: "control: n8n's Remove Duplicates", workflow: controlWorkflow },
];

const version = process.env.VIDEOPLATFORM_QUEUE_N8N ?? defaultVersion();

// Never beside another heavy file: five n8n processes, PostgreSQL, Redis and bursts of deliveries.
oneHeavyFileAtATime();

describe(`n8n ${version} in queue mode, two workers running 4 executions each: Drop Redelivered loses no key`, () => {
	const queue = queueModeStack({
		idPrefix: 'Dedup',
		logLabel: 'queue-dedup',
		scratchDir: 'e2e-queue-dedup',
		triggerWebhookId: '8e1b3d56-0a7f-4c29-b4d8-3f6e2a9c1b07',
		apiKey: 'sk_queue_dedup_e2e_3b8f',
		secret: 'whsec_queue_dedup_e2e_6c1d',
		batches: 0,
		roomsPerBatch: 0,
		sandboxLifetimeS: 900,
		executionTimeoutMs: 240_000,
		moreWorkflows: SIDES.map((side) => side.workflow),
		concurrency: 4,
		version,
	});

	let resent = 0;
	/**
	 * Posts one delivery to a workflow's trigger on webhook processor `via`. A webhook processor
	 * answers 503 "Database is not ready!" before it reads the request while its database ping has
	 * timed out behind the burst's queries (a pool of 2 connections, n8n's default): nothing ran, and
	 * a sender sends again, as this does, after a second, for up to a minute.
	 */
	const post = async (side: (typeof SIDES)[number], id: string, via: number) => {
		const stack = queue.stack();
		const [url] = stack.triggerUrls(side.workflow, stack.webhooks[via % stack.webhooks.length]);
		for (let attempt = 1; ; attempt++) {
			const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id, kind: 'dedup' }) });
			const text = await response.text();
			if (response.status === 200) return;
			if (response.status !== 503 || !text.includes(DATABASE_NOT_READY) || attempt === 60) {
				throw new Error(`A delivery to ${side.name} got ${response.status} (attempt ${attempt}): ${text.slice(0, 300)}`);
			}
			resent++;
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	};
	/** Every id posted to every side, `CONCURRENCY` at once per side; the i-th id through webhook processor i + shift. */
	const burst = async (ids: string[], shift: number) =>
		await Promise.all(
			SIDES.map(async (side) => {
				let next = 0;
				await Promise.all(
					Array.from({ length: CONCURRENCY }, async () => {
						while (next < ids.length) {
							const i = next++;
							await post(side, ids[i], i + shift);
						}
					}),
				);
			}),
		);
	/** Runs `work` while the last worker stops for STALL_MS every STALL_EVERY_MS; it runs on after each. */
	const withAWorkerStalling = async (work: () => Promise<unknown>) => {
		const worker = queue.stack().workers.at(-1) as { pid: number };
		let done = false;
		const stalls = (async () => {
			while (!done) {
				await new Promise((resolve) => setTimeout(resolve, STALL_EVERY_MS - STALL_MS));
				process.kill(-worker.pid, 'SIGSTOP');
				await new Promise((resolve) => setTimeout(resolve, STALL_MS));
				process.kill(-worker.pid, 'SIGCONT');
			}
		})();
		try {
			await work();
		} finally {
			done = true;
			await stalls;
		}
	};
	/** Waits until each side has `count` executions, none running. */
	const settle = async (count: number) => {
		const { baseUrl, api } = queue.stack();
		const deadline = Date.now() + queue.run.executionTimeoutMs;
		for (;;) {
			const lists = await Promise.all(SIDES.map(async (side) => (await listExecutions(baseUrl, api.key, side.workflow.id)) as Execution[]));
			const done = lists.every((all) => all.length >= count && all.every((e) => e.status !== 'running' && e.status !== 'new'));
			if (done) return;
			if (Date.now() > deadline) throw new Error(`Executions did not end in time: ${lists.map((all, i) => `${SIDES[i].name} ${all.length} of ${count}`).join(', ')}`);
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	};
	/** For one side: how often each id got past the filter, and the executions that did not succeed. */
	const passesOf = async (side: (typeof SIDES)[number]) => {
		const { baseUrl, api } = queue.stack();
		const all = (await listExecutions(baseUrl, api.key, side.workflow.id, { includeData: true })) as Execution[];
		const passes = new Map<string, number>();
		for (const execution of all) {
			if (execution.status !== 'success') continue;
			const id = String((outputOf(execution, TRIGGER)[0].json as { id?: unknown }).id);
			const runData = (execution as unknown as { data: { resultData: { runData: Record<string, unknown> } } }).data.resultData.runData;
			passes.set(id, (passes.get(id) ?? 0) + (PASSED in runData ? 1 : 0));
		}
		return { passes, failed: all.filter((e) => e.status !== 'success').map((e) => `${e.id} (${e.status})`) };
	};

	it(`${DELIVERIES} distinct deliveries at concurrency ${CONCURRENCY} over two webhook processors, then every one again: the control lets copies through, Drop Redelivered at most a fifth as many`, async () => {
		const stack = queue.stack();
		for (const side of SIDES) for (const webhook of stack.webhooks) await stack.waitForWebhook(stack.triggerUrls(side.workflow, webhook)[0]);
		// Each list exists before the bursts: two first checks at once fail the control's run on the table's key.
		for (const side of SIDES) await post(side, 'first', 0);
		let executions = 1;
		await settle(executions);

		const counted: string[] = [];
		const copiesPassed = SIDES.map(() => 0);
		for (let round = 1; round <= ROUNDS && copiesPassed[1] === 0; round++) {
			const ids = Array.from({ length: DELIVERIES }, (_, i) => `r${round}-d${i}`);
			executions += DELIVERIES;
			await withAWorkerStalling(async () => {
				await burst(ids, 0);
				await settle(executions);
			});
			// Every copy through the other webhook processor, once the first ones have ended.
			await burst(ids, 1);
			executions += DELIVERIES;
			await settle(executions);

			const results = await Promise.all(SIDES.map(passesOf));
			const passedTwice = results.map(({ passes }) => ids.filter((id) => (passes.get(id) ?? 0) > 1).length);
			counted.push(`round ${round}: ${SIDES.map((side, i) => `${side.name} let ${passedTwice[i]} of ${DELIVERIES} copies through`).join('; ')}`);
			queue.log(counted.at(-1) as string);
			results.forEach(({ passes, failed }, i) => {
				expect({ side: SIDES[i].name, failed, neverPassed: ids.filter((id) => !passes.get(id)) }).toEqual({ side: SIDES[i].name, failed: [], neverPassed: [] });
				copiesPassed[i] += passedTwice[i];
			});
		}
		queue.log(`deliveries sent again after a 503 "${DATABASE_NOT_READY}": ${resent}`);
		queue.log(`executions per worker: ${JSON.stringify(Object.fromEntries(Object.entries(stack.executionsByWorker() as Record<string, string[]>).map(([name, ids]) => [name, ids.length])))}`);
		if (copiesPassed[1] === 0) {
			throw new Error(`Could not prove anything: the control (n8n's Remove Duplicates) let no copy through (${counted.join('; ')}), so no write was lost in this run. Run it again, or with more deliveries (VIDEOPLATFORM_DEDUP_DELIVERIES).`);
		}
		// Usually none; a write landing after a process's last check of the list (docs/trigger.md "What
		// remains") still drops a key. Here on 2026-11-28: 0 of 300 against the control's 40 with the
		// stalls; 8 against 38 with later checks not asking again (5 against 21 in a CI run without stalls).
		expect({ dropRedelivered: copiesPassed[0], control: copiesPassed[1], atMostAFifth: copiesPassed[0] * 5 <= copiesPassed[1] }).toMatchObject({ atMostAFifth: true });
	}, 15 * 60_000);
});

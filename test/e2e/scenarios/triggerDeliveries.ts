import { ALL_DELIVERIES } from '../../../nodes/VideoPlatform/trigger/choices';
import { WEBHOOK_CREDENTIAL } from '../../../nodes/VideoPlatform/shared/credentials';
import { node, outputOf, VIDEO_PLATFORM_TRIGGER, workflow } from '../../../tools/n8n/workflows';
import type { N8n } from '../n8nWithPackage';
import { n8nWithPackage } from '../n8nWithPackage';

// The Video Platform Trigger with a secret header and a filter on `kind`, in a real n8n:
// test/e2e/trigger.e2e.test.ts sends it a burst of 20, test/load/trigger.load.test.ts 200.

export const TRIGGER = 'Video Platform Trigger';
export const SECRET_HEADER = 'X-Platform-Secret';

export type TriggerRun = {
	/** Names the n8n user folder (n8nWithPackage). */
	userFolder: string;
	/** In the workflow's and the credential's ids (`wf${idPrefix}Trigger`, `vp${idPrefix}Secret`): a run's own. */
	idPrefix: string;
	webhookId: string;
	secret: string;
	/** Further workflows n8n imports and activates, for tests of the run's own. */
	moreWorkflows?: Array<ReturnType<typeof workflow>>;
};

export type Execution = { id: string; status: string; data?: { resultData: { error?: { message: string } } } };
/** The delivery an execution started with, as the trigger put it out. */
export const deliveryOf = (execution: Execution) => outputOf(execution, TRIGGER)[0].json as Record<string, unknown>;

/**
 * Starts n8n with the trigger workflow active before the enclosing describe's tests and disposes
 * of it after; declare it first in a describe. Returns what the tests use.
 */
export function triggerInN8n(version: string, run: TriggerRun) {
	const credentialId = `vp${run.idPrefix}Secret`;
	const triggerWorkflow = workflow(`wf${run.idPrefix}Trigger`, [
		node(
			TRIGGER,
			VIDEO_PLATFORM_TRIGGER,
			{
				authentication: 'secretHeader',
				event: ALL_DELIVERIES,
				options: { filterField: 'kind', filterValues: 'wanted, also-wanted' },
			},
			{
				webhookId: run.webhookId,
				credentials: { [WEBHOOK_CREDENTIAL.type]: { id: credentialId, name: credentialId } },
			},
		),
		node('Done', 'n8n-nodes-base.noOp', {}),
	]);
	let n8n: N8n;
	let url: string;

	beforeAll(async () => {
		n8n = await n8nWithPackage(version, run.userFolder);
		await n8n.importCredentials([
			{ id: credentialId, name: credentialId, type: WEBHOOK_CREDENTIAL.type, data: { headerName: SECRET_HEADER, secret: run.secret } },
		]);
		const workflows = [triggerWorkflow, ...(run.moreWorkflows ?? [])];
		await n8n.importWorkflows(workflows);
		for (const wf of workflows) await n8n.activateWorkflow(wf.id);
		await n8n.start();
		url = n8n.triggerUrl(triggerWorkflow);
		await n8n.waitForWebhook(url);
	}, 15 * 60_000);

	afterAll(async () => {
		await n8n?.dispose();
	});

	return {
		triggerWorkflow,
		n8n: () => n8n,
		url: () => url,
		/** Posts a delivery to the trigger, with the secret unless told otherwise. */
		post: (body: unknown, secret: string | null = run.secret) =>
			fetch(url, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', ...(secret === null ? {} : { [SECRET_HEADER]: secret }) },
				body: JSON.stringify(body),
			}),
		/** The trigger workflow's executions, once there are at least `expected` (or the wait's time is up). */
		executions: async (expected: number, timeoutMs?: number) =>
			(await n8n.waitForExecutions(triggerWorkflow.id, { atLeast: expected, timeoutMs })) as Execution[],
	};
}

export type TriggerInN8n = ReturnType<typeof triggerInN8n>;

export type Burst = {
	deliveries: number;
	/** Deliveries under way at a time; as many as `deliveries` sends them all at once. */
	concurrency: number;
	/** Executions of the trigger workflow that the tests before this one started. */
	executionsBefore: number;
	/** How long to wait for the executions (waitForExecutions' own 30 s if not given), and for the test. */
	executionTimeoutMs?: number;
	testTimeoutMs?: number;
};

export function itTakesABurstOfDeliveries(trigger: TriggerInN8n, { deliveries, concurrency, executionsBefore, executionTimeoutMs, testTimeoutMs }: Burst) {
	const pace = deliveries <= concurrency ? 'at once' : `at concurrency ${concurrency}`;
	it(`${deliveries} deliveries ${pace} give ${deliveries} executions, none lost`, async () => {
		const ids = Array.from({ length: deliveries }, (_, i) => `burst-${i}`);
		const statuses: number[] = [];
		for (let start = 0; start < ids.length; start += concurrency) {
			const wave = ids.slice(start, start + concurrency).map(async (id) => (await trigger.post({ kind: 'also-wanted', id })).status);
			statuses.push(...(await Promise.all(wave)));
		}
		expect(statuses.filter((s) => s === 200)).toHaveLength(deliveries);

		const all = await trigger.executions(executionsBefore + deliveries, executionTimeoutMs);
		const seen = all.map((e) => deliveryOf(e).id).filter((id) => String(id).startsWith('burst-'));
		expect(new Set(seen)).toEqual(new Set(ids));
		expect(all.filter((e) => e.status !== 'success')).toEqual([]);
	}, testTimeoutMs);
}

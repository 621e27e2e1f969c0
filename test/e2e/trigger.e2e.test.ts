import { createHash } from 'node:crypto';

import { ALL_DELIVERIES } from '../../nodes/VideoPlatform/trigger/filter';
import { WEBHOOK_CREDENTIAL } from '../../nodes/VideoPlatform/shared/credentials';
import { createApiKey, ensureOwner, waitForExecutions } from '../../tools/n8n/api';
import { dropRedelivered, node, outputOf, VIDEO_PLATFORM_TRIGGER, workflow } from '../../tools/n8n/workflows';
import type { N8n } from './n8nWithPackage';
import { FULL_VERSIONS, n8nWithPackage } from './n8nWithPackage';

const SECRET = 'whsec_e2e_81c4f0a2d9';
/** Deliveries sent at once. */
const BURST = 20;
const HEADER = 'X-Platform-Secret';

const TRIGGER = 'Video Platform Trigger';
const triggerWorkflow = workflow('wfTrigger', [
	node(
		TRIGGER,
		VIDEO_PLATFORM_TRIGGER,
		{
			authentication: 'secretHeader',
			event: ALL_DELIVERIES,
			options: { filterField: 'kind', filterValues: 'wanted, also-wanted' },
		},
		{
			webhookId: '5f7c1d2e-0b6a-4c59-9e1f-3a8d7b2c4e60',
			credentials: { [WEBHOOK_CREDENTIAL.type]: { id: 'vpSecret', name: 'vpSecret' } },
		},
	),
	node('Done', 'n8n-nodes-base.noOp', {}),
]);

// Redeliveries are dropped by the Video Platform node's Webhook Delivery → Drop Redelivered, which
// has n8n keep the keys it let through in n8n's database, comparing the key the trigger puts out (its default Delivery Key).
// "Passed" runs only for kept items.
const FILTER = 'Drop Redeliveries';
const PASSED = 'Passed';
const filterWorkflow = (id: string, webhookId: string, triggerOptions: object, filterParameters: object = {}) =>
	workflow(id, [
		node(TRIGGER, VIDEO_PLATFORM_TRIGGER, { authentication: 'none', event: ALL_DELIVERIES, options: triggerOptions }, { webhookId }),
		dropRedelivered(FILTER, filterParameters),
		node(PASSED, 'n8n-nodes-base.noOp', {}),
	]);
const byIdWorkflow = filterWorkflow('wfDedupeById', '0b9e2c41-7d35-4f8a-a6c2-5e1d9f3b7a11', { deliveryIdField: 'id' });
const byBodyWorkflow = filterWorkflow('wfDedupeByBody', '6c2f8a17-94d0-4b3e-8e5a-2d7c1b9f0e22', {});
const twoKeysWorkflow = filterWorkflow('wfDedupeTwoKeys', '9a4d1e63-2b8f-4c7a-b1e9-7f3a5c0d2e33', {}, { keysRemembered: 2 });
// n8n's own Remove Duplicates v2 with the same small history, for the README's "why not".
const removeDuplicatesWorkflow = workflow('wfRemoveDupTiny', [
	node(TRIGGER, VIDEO_PLATFORM_TRIGGER, { authentication: 'none', event: ALL_DELIVERIES, options: {} }, { webhookId: '3e8b5d20-1c4f-4a97-8d6e-0f2a7b9c4d44' }),
	node(
		FILTER,
		'n8n-nodes-base.removeDuplicates',
		{
			operation: 'removeItemsSeenInPreviousExecutions',
			logic: 'removeItemsWithAlreadySeenKeyValues',
			dedupeValue: '={{ $json._webhook.deliveryKey }}',
			options: { historySize: 2 },
		},
		{ typeVersion: 2 },
	),
	node(PASSED, 'n8n-nodes-base.noOp', {}),
]);

type Execution = { id: string; status: string; data?: { resultData: { error?: { message: string } } } };
/** The delivery an execution started with, as the trigger put it out. */
const deliveryOf = (execution: Execution) => outputOf(execution, TRIGGER)[0].json as Record<string, unknown>;

describe.each(FULL_VERSIONS)('Video Platform Trigger in a real n8n %s', (version) => {
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
		n8n = await n8nWithPackage(version, 'trigger');
		await n8n.importCredentials([
			{ id: 'vpSecret', name: 'vpSecret', type: WEBHOOK_CREDENTIAL.type, data: { headerName: HEADER, secret: SECRET } },
		]);
		for (const wf of [triggerWorkflow, byIdWorkflow, byBodyWorkflow, twoKeysWorkflow, removeDuplicatesWorkflow]) {
			await n8n.importWorkflow(wf);
			await n8n.activateWorkflow(wf.id);
		}
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

	it('a delivery whose id nests thousands of levels deep gets a clear 400, and n8n keeps running', async () => {
		const depth = 5000;
		const body = `{"kind":"wanted","id":${'['.repeat(depth)}${']'.repeat(depth)}}`;
		const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', [HEADER]: SECRET }, body });
		expect(response.status).toBe(400);
		expect(JSON.stringify(await response.json())).toContain('nested more than');
		expect((await post({ kind: 'wanted', id: 'after-deep' })).status).toBe(200);
		expect(await executions(2)).toHaveLength(2);
	});

	// 200 at concurrency 20 is a load run: test/load/trigger.load.test.ts (`npm run bench:load`).
	it(`${BURST} deliveries at once give ${BURST} executions, none lost`, async () => {
		const ids = Array.from({ length: BURST }, (_, i) => `burst-${i}`);
		const statuses = await Promise.all(ids.map(async (id) => (await post({ kind: 'also-wanted', id })).status));
		expect(statuses.filter((s) => s === 200)).toHaveLength(BURST);

		// The tests before it started 2 executions. (It waited for 203 before, one more than could
		// come, so it always sat out waitForExecutions' 30 s timeout.)
		const all = await executions(BURST + 2);
		const seen = all.map((e) => deliveryOf(e).id).filter((id) => String(id).startsWith('burst-'));
		expect(new Set(seen)).toEqual(new Set(ids));
		expect(all.filter((e) => e.status !== 'success')).toEqual([]);
	});

	describe('redeliveries, dropped by Drop Redelivered after the trigger', () => {
		/**
		 * Posts these exact bytes to a workflow's trigger, waits for the execution it starts, and
		 * says whether the delivery passed the filter (and so reached "Passed").
		 */
		const deliver = async (wf: typeof byIdWorkflow, bytes: string) => {
			const before = (await waitForExecutions(n8n.baseUrl, apiKey, wf.id, { atLeast: 0 })).length;
			const response = await fetch(n8n.triggerUrl(wf), {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: bytes,
			});
			expect(await response.json()).toEqual({ received: true, started: true });
			const all = (await waitForExecutions(n8n.baseUrl, apiKey, wf.id, { atLeast: before + 1 })) as Execution[];
			expect(all).toHaveLength(before + 1);
			const [newest] = all.sort((a, b) => Number(b.id) - Number(a.id));
			const runData = (newest as unknown as { data: { resultData: { runData: Record<string, unknown> } } }).data
				.resultData.runData;
			const passed = PASSED in runData;
			if (newest.status === 'success') {
				// What the filter kept is exactly what reached "Passed".
				expect(outputOf(newest, FILTER)).toHaveLength(passed ? 1 : 0);
			}
			const webhook = deliveryOf(newest)._webhook as Record<string, unknown>;
			return { status: newest.status, passed, webhook, error: newest.data?.resultData.error?.message };
		};
		const passes = async (wf: typeof byIdWorkflow, body: unknown) => {
			const result = await deliver(wf, typeof body === 'string' ? body : JSON.stringify(body));
			expect(result.status).toBe('success');
			return result.passed;
		};
		const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

		it("digests the body's bytes as received and keys by the id's value", async () => {
			const bytes = '{"id":{"room":"r1","n":1},"kind":"x"}';
			const { webhook, passed } = await deliver(byIdWorkflow, bytes);
			expect(passed).toBe(true);
			expect(webhook.bodySha256).toBe(sha256(bytes));
			expect(webhook.deliveryKeySource).toBe('id');
			expect(webhook.deliveryKey).toMatch(/^id:[0-9a-f]{64}$/);
		});

		it('drops the same id again, also in other bytes, and passes a different id', async () => {
			expect(await passes(byIdWorkflow, '{"id":{"room":"r1","n":1},"kind":"x"}')).toBe(false);
			expect(await passes(byIdWorkflow, { kind: 'y', id: { n: 1, room: 'r1' } })).toBe(false);
			expect(await passes(byIdWorkflow, { id: { room: 'r1', n: 2 }, kind: 'x' })).toBe(true);
			expect(await passes(byIdWorkflow, { id: 'd-2' })).toBe(true);
			expect(await passes(byIdWorkflow, { id: 'd-2' })).toBe(false);
		});

		it('never drops a delivery without its id, however often the same bytes come', async () => {
			for (const body of [{ kind: 'no-id' }, { kind: 'no-id' }, { id: '' }, { id: '' }, { id: {} }]) {
				expect(await passes(byIdWorkflow, body)).toBe(true);
			}
		});

		it('without an id field, drops identical bytes and passes any other bytes', async () => {
			const bytes = '{"event":"same","n":1}';
			expect(await passes(byBodyWorkflow, bytes)).toBe(true);
			expect(await passes(byBodyWorkflow, bytes)).toBe(false);
			expect(await passes(byBodyWorkflow, '{"event":"same","n":2}')).toBe(true);
			expect(await passes(byBodyWorkflow, `${bytes}\n`)).toBe(true);
		});

		it('still drops them after n8n restarts', async () => {
			await n8n.stop();
			await n8n.start();
			await n8n.waitForWebhook(n8n.triggerUrl(byIdWorkflow));
			await n8n.waitForWebhook(n8n.triggerUrl(byBodyWorkflow));
			expect(await passes(byIdWorkflow, { id: 'd-2' })).toBe(false);
			expect(await passes(byIdWorkflow, { id: { n: 1, room: 'r1' } })).toBe(false);
			expect(await passes(byBodyWorkflow, '{"event":"same","n":1}')).toBe(false);
			expect(await passes(byIdWorkflow, { id: 'd-3' })).toBe(true);
			expect(await passes(byIdWorkflow, { kind: 'no-id' })).toBe(true);
		});

		it('with Keys Remembered 2, forgets the oldest key and keeps running: after 3 deliveries the first passes again', async () => {
			for (const n of [1, 2, 3]) expect(await passes(twoKeysWorkflow, `{"n":${n}}`)).toBe(true);
			expect(await passes(twoKeysWorkflow, '{"n":3}')).toBe(false);
			expect(await passes(twoKeysWorkflow, '{"n":1}')).toBe(true);
		});

		// The opposite, n8n's own limit, which the README states: once History Size keys are kept,
		// Remove Duplicates v2 fails every execution instead of forgetting the oldest key (n8n #38475).
		it('Remove Duplicates v2 with History Size 2 fails every execution after 2 deliveries instead', async () => {
			expect(await passes(removeDuplicatesWorkflow, '{"n":1}')).toBe(true);
			expect(await passes(removeDuplicatesWorkflow, '{"n":2}')).toBe(true);
			const third = await deliver(removeDuplicatesWorkflow, '{"n":3}');
			expect(third.status).toBe('error');
			expect(third.error).toMatch(/exceeds the maximum history size/);
			expect((await deliver(removeDuplicatesWorkflow, '{"n":1}')).status).toBe('error');
		});
	});
});

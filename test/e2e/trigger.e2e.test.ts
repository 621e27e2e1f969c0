import { createHash } from 'node:crypto';
import * as http from 'node:http';
import { deflateSync, gzipSync } from 'node:zlib';

import { ALL_DELIVERIES } from '../../nodes/VideoPlatform/trigger/choices';
import { dropRedelivered, node, outputOf, removeDuplicates, VIDEO_PLATFORM_TRIGGER, workflow } from '../../tools/n8n/workflows';
import { FULL_VERSIONS } from './n8nWithPackage';
import type { Execution } from './scenarios/triggerDeliveries';
import { deliveryOf, itTakesABurstOfDeliveries, SECRET_HEADER, TRIGGER, triggerInN8n } from './scenarios/triggerDeliveries';
import { MAX_BODY_BYTES } from '../../nodes/VideoPlatform/trigger/body';
import { versionSpec } from '../../tools/install/versions';

const SECRET = 'whsec_e2e_81c4f0a2d9';

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
// An Authentication value that is neither None nor Shared Secret Header, from an expression.
const badAuthWorkflow = workflow('wfBadAuth', [
	node(TRIGGER, VIDEO_PLATFORM_TRIGGER, { authentication: '={{ "SecretHeader" }}', event: ALL_DELIVERIES, options: {} }, { webhookId: '7d3a9e51-2c8b-4f60-a1d4-8b2e6f0c3a55' }),
	node(PASSED, 'n8n-nodes-base.noOp', {}),
]);
// n8n's own Remove Duplicates v2 with the same small history, for the README's "why not".
const removeDuplicatesWorkflow = workflow('wfRemoveDupTiny', [
	node(TRIGGER, VIDEO_PLATFORM_TRIGGER, { authentication: 'none', event: ALL_DELIVERIES, options: {} }, { webhookId: '3e8b5d20-1c4f-4a97-8d6e-0f2a7b9c4d44' }),
	removeDuplicates(FILTER, 2),
	node(PASSED, 'n8n-nodes-base.noOp', {}),
]);

// The same trigger at version 1 and 1.1 (from 1.1 on, n8n leaves the bodies it does not parse to the node).
const atVersion = (typeVersion: number, webhookId: string) =>
	workflow(`wfTriggerV${String(typeVersion).replace('.', '_')}`, [
		node(TRIGGER, VIDEO_PLATFORM_TRIGGER, { authentication: 'none', event: ALL_DELIVERIES, options: { deliveryIdField: 'id' } }, { webhookId, typeVersion }),
		node(PASSED, 'n8n-nodes-base.noOp', {}),
	]);
const version1Workflow = atVersion(1, '2b6e9d14-8c3f-4a71-b5e2-1d9c7f4a0b66');
// Two ids that JSON.parse reads as one number (18446744073709551616): they differ only past 2^53.
const BIG_IDS = ['18446744073709551614', '18446744073709551615'];
const onlyBigIdWorkflow = workflow('wfOnlyBigId', [
	node(TRIGGER, VIDEO_PLATFORM_TRIGGER, { authentication: 'none', event: ALL_DELIVERIES, options: { filterField: 'id', filterValues: BIG_IDS[1] } }, { webhookId: '8e1f3a57-6c2d-4b90-9a7e-3d5c1b8f2e88' }),
	node(PASSED, 'n8n-nodes-base.noOp', {}),
]);
const version1_1Workflow = atVersion(1.1, '4c8a2f60-3d1e-4b95-a7c3-6e0b9d2f1a77');

describe.each(FULL_VERSIONS)('Video Platform Trigger in a real n8n %s', (version) => {
	const trigger = triggerInN8n(version, {
		userFolder: 'trigger',
		idPrefix: '',
		webhookId: '5f7c1d2e-0b6a-4c59-9e1f-3a8d7b2c4e60',
		secret: SECRET,
		moreWorkflows: [byIdWorkflow, byBodyWorkflow, twoKeysWorkflow, removeDuplicatesWorkflow, badAuthWorkflow, version1Workflow, version1_1Workflow, onlyBigIdWorkflow],
	});
	const { post, executions } = trigger;

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
		const response = await fetch(trigger.url(), { method: 'POST', headers: { 'Content-Type': 'application/json', [SECRET_HEADER]: SECRET }, body });
		expect(response.status).toBe(400);
		expect(JSON.stringify(await response.json())).toContain('nested more than');
		expect((await post({ kind: 'wanted', id: 'after-deep' })).status).toBe(200);
		expect(await executions(2)).toHaveLength(2);
	});

	it('a trigger whose Authentication is neither None nor Shared Secret Header refuses every delivery, naming the option', async () => {
		const n8n = trigger.n8n();
		for (const headers of [{}, { [SECRET_HEADER]: SECRET }] as Array<Record<string, string>>) {
			const response = await fetch(n8n.triggerUrl(badAuthWorkflow), {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', ...headers },
				body: '{"id":"x"}',
			});
			expect(response.status).toBe(500);
			expect(await response.json()).toEqual({
				received: false,
				message: "The trigger's Authentication option is neither None nor Shared Secret Header, so no delivery is let in. Set it in the workflow. Nothing was started.",
			});
		}
		expect(await n8n.waitForExecutions(badAuthWorkflow.id, { atLeast: 0 })).toEqual([]);
	});

	// 200 at concurrency 20 is a load run: test/load/trigger.load.test.ts (`npm run bench:load`).
	// The tests before it started 2 executions. (It waited for 203 before, one more than could
	// come, so it always sat out waitForExecutions' 30 s timeout.)
	itTakesABurstOfDeliveries(trigger, { deliveries: 20, concurrency: 20, executionsBefore: 2 });

	describe('redeliveries, dropped by Drop Redelivered after the trigger', () => {
		/**
		 * Posts these exact bytes to a workflow's trigger, waits for the execution it starts, and
		 * says whether the delivery passed the filter (and so reached "Passed").
		 */
		const deliver = async (wf: typeof byIdWorkflow, bytes: string | Uint8Array, headers: Record<string, string> = { 'Content-Type': 'application/json' }) => {
			const n8n = trigger.n8n();
			const before = (await n8n.waitForExecutions(wf.id, { atLeast: 0 })).length;
			const response = await fetch(n8n.triggerUrl(wf), {
				method: 'POST',
				headers,
				body: bytes,
			});
			expect(await response.json()).toEqual({ received: true, started: true });
			const all = (await n8n.waitForExecutions(wf.id, { atLeast: before + 1 })) as Execution[];
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

		it('ids beyond 2^53 that JavaScript rounds to one number are two deliveries, with their exact text in _webhook.deliveryId', async () => {
			// Both are 12345678901234567000 once JSON.parse has read them.
			const first = await deliver(byIdWorkflow, '{"id":12345678901234567890}');
			expect(first.passed).toBe(true);
			expect(first.webhook.deliveryId).toBe('12345678901234567890');
			expect(await passes(byIdWorkflow, '{"id":12345678901234567891}')).toBe(true);
			expect(await passes(byIdWorkflow, '{ "id": 12345678901234567890 }')).toBe(false);
		});

		describe('in another charset, as n8n decodes it', () => {
			const UTF16 = { 'Content-Type': 'application/json; charset=utf-16le' };
			const dropsMark = versionSpec(version).capabilities.jsonByteOrderMark === 'dropped';
			/** A JSON body in UTF-16LE, with a byte-order mark where this n8n takes one. */
			const utf16 = (id: string, mark = dropsMark) => Buffer.from(`${mark ? '\ufeff' : ''}{"id":${id},"note":"Grüße aus Köln 🎥"}`, 'utf16le');

			it(`keys two ids that differ only past 2^53 apart, with each id's exact text (${dropsMark ? 'with' : 'without'} a byte-order mark)`, async () => {
				const first = await deliver(byIdWorkflow, utf16(BIG_IDS[0]), UTF16);
				expect(first).toMatchObject({ status: 'success', passed: true });
				expect(first.webhook).toMatchObject({ deliveryKeySource: 'id', deliveryId: BIG_IDS[0] });
				expect(first.webhook.inexactFields).toBeUndefined();
				const second = await deliver(byIdWorkflow, utf16(BIG_IDS[1]), UTF16);
				expect(second).toMatchObject({ status: 'success', passed: true });
				expect(second.webhook).toMatchObject({ deliveryId: BIG_IDS[1] });
				expect(second.webhook.deliveryKey).not.toBe(first.webhook.deliveryKey);
				expect(await passes(byIdWorkflow, `{"id":${BIG_IDS[0]}}`)).toBe(false);
			});

			it('Only When Field lets through the id typed as sent, and not the other one n8n reads as the same number', async () => {
				const post = async (id: string) => await fetch(trigger.n8n().triggerUrl(onlyBigIdWorkflow), { method: 'POST', headers: UTF16, body: utf16(id) });
				expect(await (await post(BIG_IDS[1])).json()).toEqual({ received: true, started: true });
				expect(await (await post(BIG_IDS[0])).json()).toEqual({ received: true, started: false, reason: 'filtered' });
			});

			if (!dropsMark) {
				it('this n8n answers 422 to a JSON body with a byte-order mark itself, and nothing starts', async () => {
					const n8n = trigger.n8n();
					const before = (await n8n.waitForExecutions(byIdWorkflow.id, { atLeast: 0 })).length;
					const response = await fetch(n8n.triggerUrl(byIdWorkflow), { method: 'POST', headers: UTF16, body: utf16('1', true) });
					expect(response.status).toBe(422);
					expect(await n8n.waitForExecutions(byIdWorkflow.id, { atLeast: 0 })).toHaveLength(before);
				});
			}
		});

		it('still drops them after n8n restarts', async () => {
			const n8n = trigger.n8n();
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

	describe('version 1.1, which n8n hands some bodies unread, makes the items version 1 makes', () => {
		/** Posts the same delivery to a workflow and returns the item its new execution started with. */
		const itemOf = async (wf: typeof version1Workflow, body: Uint8Array | string, headers: Record<string, string>) => {
			const n8n = trigger.n8n();
			const before = (await n8n.waitForExecutions(wf.id, { atLeast: 0 })).length;
			const response = await fetch(n8n.triggerUrl(wf), { method: 'POST', headers, body });
			expect(await response.json()).toEqual({ received: true, started: true });
			const all = (await n8n.waitForExecutions(wf.id, { atLeast: before + 1 })) as Execution[];
			expect(all).toHaveLength(before + 1);
			const [newest] = all.sort((a, b) => Number(b.id) - Number(a.id));
			const item = deliveryOf(newest);
			const webhook = item._webhook as Record<string, unknown>;
			// Without an id, the key is random by design (it matches nothing): compared by its kind.
			const deliveryKey = webhook.deliveryKeySource === 'none' ? String(webhook.deliveryKey).replace(/:.*/, ':random') : webhook.deliveryKey;
			return { ...item, _webhook: { ...webhook, receivedAt: 'compared apart', deliveryKey } };
		};
		const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
		const binary = new Uint8Array([0x7b, 0x22, 0x00, 0xff, 0xfe, 0xc3, 0x28, 0x0a, 0x80]);

		it.each<[string, Uint8Array | string, Record<string, string>]>([
			['JSON', '{"id":12345678901234567891,"kind":"x"}', { 'Content-Type': 'application/json' }],
			['text/plain', 'just text', { 'Content-Type': 'text/plain' }],
			['application/octet-stream (binary bytes)', binary, { 'Content-Type': 'application/octet-stream' }],
			['application/something+json', '{"id":"plus-json","n":1}', { 'Content-Type': 'application/something+json' }],
			['no Content-Type', new TextEncoder().encode('{"id":"untyped"}'), {}],
		])('%s', async (_label, body, headers) => {
			const atVersion1 = await itemOf(version1Workflow, body, headers);
			const atVersion1_1 = await itemOf(version1_1Workflow, body, headers);
			expect(atVersion1_1).toEqual(atVersion1);
			expect((atVersion1_1._webhook as Record<string, unknown>).bodySha256).toBe(sha256(body));
		});

		it('a +json body in UTF-16LE with a byte-order mark is read in its charset, its id exact, at 1 and 1.1 alike', async () => {
			const body = Buffer.from(`\ufeff{"id":${BIG_IDS[1]},"n":"ü"}`, 'utf16le');
			const headers = { 'Content-Type': 'application/something+json; charset=utf-16le' };
			const atVersion1 = await itemOf(version1Workflow, body, headers);
			const atVersion1_1 = await itemOf(version1_1Workflow, body, headers);
			expect(atVersion1_1).toEqual(atVersion1);
			expect(atVersion1_1).toMatchObject({ n: 'ü', _webhook: { deliveryId: BIG_IDS[1], bodySha256: sha256(body) } });
		});

		it(`refuses a body n8n left unread over ${MAX_BODY_BYTES / 1024 / 1024} MiB with a 413, and starts nothing`, async () => {
			const n8n = trigger.n8n();
			const before = (await n8n.waitForExecutions(version1_1Workflow.id, { atLeast: 0 })).length;
			const response = await fetch(n8n.triggerUrl(version1_1Workflow), {
				method: 'POST',
				headers: { 'Content-Type': 'application/octet-stream' },
				body: new Uint8Array(MAX_BODY_BYTES + 1),
			});
			expect(response.status).toBe(413);
			expect(await response.json()).toEqual({
				received: false,
				message: "The delivery's body is larger than 16 MiB, more than the trigger reads. Nothing was started.",
			});
			// The next delivery is the only one that starts an execution.
			await itemOf(version1_1Workflow, '{"id":"after-413"}', { 'Content-Type': 'application/json' });
			expect(await n8n.waitForExecutions(version1_1Workflow.id, { atLeast: 0 })).toHaveLength(before + 1);
		});

		// n8n undoes gzip and deflate itself where it reads the body (both versions, JSON at 1.1); the
		// trigger where n8n leaves the body unread (application/octet-stream at 1.1).
		const compressed = '{"id":"compressed","kind":"x","data":"' + 'abc'.repeat(200) + '"}';
		/** An item without the headers in which a compressed delivery differs from the same one sent plain. */
		const apartFromEncoding = (item: Record<string, unknown>) => {
			const webhook = item._webhook as Record<string, unknown>;
			const headers = Object.entries(webhook.headers as Record<string, unknown>).filter(([name]) => name !== 'content-encoding' && name !== 'content-length');
			return { ...item, _webhook: { ...webhook, headers: Object.fromEntries(headers) } };
		};
		it.each([
			['gzip', 'application/octet-stream', gzipSync],
			['deflate', 'application/octet-stream', deflateSync],
			['gzip', 'application/json', gzipSync],
			['deflate', 'application/json', deflateSync],
		])('a %s-compressed %s body makes the item of the same body sent plain', async (encoding, type, encode) => {
			const plain = await itemOf(version1_1Workflow, compressed, { 'Content-Type': type });
			const atVersion1_1 = await itemOf(version1_1Workflow, encode(compressed), { 'Content-Type': type, 'Content-Encoding': encoding });
			const atVersion1 = await itemOf(version1Workflow, encode(compressed), { 'Content-Type': type, 'Content-Encoding': encoding });
			expect(atVersion1_1).toEqual(atVersion1);
			expect(apartFromEncoding(atVersion1_1)).toEqual(apartFromEncoding(plain));
			expect((atVersion1_1._webhook as Record<string, unknown>).headers).toMatchObject({ 'content-encoding': encoding });
			expect((atVersion1_1._webhook as Record<string, unknown>).bodySha256).toBe(sha256(compressed));
		});

		/** The v1.1 workflow's executions once none is running. */
		const version1_1Executions = async () => await trigger.n8n().waitForExecutions(version1_1Workflow.id, { atLeast: 0 });

		it('a gzip body n8n left unread that is not gzip after its header gets a 400, and starts nothing', async () => {
			const before = (await version1_1Executions()).length;
			const corrupted = Buffer.concat([gzipSync(compressed).subarray(0, 10), Buffer.from('not deflate data at all, '.repeat(8))]);
			const response = await fetch(trigger.n8n().triggerUrl(version1_1Workflow), {
				method: 'POST',
				headers: { 'Content-Type': 'application/octet-stream', 'Content-Encoding': 'gzip' },
				body: corrupted,
			});
			expect(response.status).toBe(400);
			expect(await response.json()).toEqual({
				received: false,
				message: "The delivery's body could not be read: the connection closed before its end, or it is not the gzip or deflate its Content-Encoding says. Nothing was started.",
			});
			await itemOf(version1_1Workflow, '{"id":"after-corrupted"}', { 'Content-Type': 'application/octet-stream' });
			expect(await version1_1Executions()).toHaveLength(before + 1);
		});

		it('a sender that goes away mid-body starts nothing, and n8n takes the next delivery', async () => {
			const before = (await version1_1Executions()).length;
			const declared = 12 * 1024 * 1024;
			const request = http.request(trigger.n8n().triggerUrl(version1_1Workflow), {
				method: 'POST',
				headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(declared) },
			});
			// Destroyed before an answer, the request fails with "socket hang up": expected here.
			request.on('error', () => undefined);
			const closed = new Promise((resolve) => request.on('close', resolve));
			// A write this large completes only once n8n's side reads it (the kernel holds a few MiB
			// unread), which it does only in the trigger: the sender goes away while the trigger reads.
			await new Promise<void>((resolve, reject) => request.write(Buffer.alloc(declared * 2 / 3, 0x78), (error) => (error ? reject(error) : resolve())));
			request.destroy();
			await closed;
			await itemOf(version1_1Workflow, '{"id":"after-disconnect"}', { 'Content-Type': 'application/octet-stream' });
			expect(await version1_1Executions()).toHaveLength(before + 1);
		});
	});
});

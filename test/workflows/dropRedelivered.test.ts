import fc from 'fast-check';

import type { Sandbox } from '../helpers/sandbox';
import { SANDBOX_KEY, startSandbox } from '../helpers/sandbox';
import type { Delivery, WorkflowJson } from '../helpers/workflowRunner';
import { until } from '../helpers/waits';
import { deliverWebhook, deduplicationStore, loadWorkflow } from '../helpers/workflowRunner';

// Trigger → Drop Redelivered → Room → Create (webhook-drop-redelivered.json): each delivery goes
// through the trigger's webhook() in n8n-core's WebhookContext, then starts an execution of its
// own, as n8n's webhook server does. Between executions only n8n's deduplication store (here in
// memory, behind n8n-core's DataDeduplicationService) remembers what was let through.

const FILTER = 'Drop Redeliveries';
const CREATE = 'Create room';

describe('Drop Redelivered across executions, run as a workflow by n8n-core', () => {
	let sandbox: Sandbox;
	let workflow: WorkflowJson;
	let deliver: (delivery: Delivery) => ReturnType<typeof deliverWebhook>;

	beforeEach(async () => {
		sandbox = await startSandbox();
		workflow = loadWorkflow('webhook-drop-redelivered');
		// Each test its own workflow id, so that it starts with nothing remembered.
		workflow.id = `wfDeliveryRoom-${expect.getState().currentTestName?.replace(/\W+/g, '-')}`;
		const credentials = { vpSandbox: { type: 'videoPlatformApi', data: { baseUrl: sandbox.url, apiKey: SANDBOX_KEY } } };
		deliver = async (delivery) => await deliverWebhook(workflow, delivery, { credentials });
	});

	afterEach(async () => {
		await sandbox.stop();
	});

	const roomsCreated = () => sandbox.state.rooms.map((room: { name: string }) => room.name);

	it('a redelivery with the same id, in other bytes, starts an execution that stops at the filter; a new id gets its room', async () => {
		const first = await deliver({ bytes: '{"id":"evt-1","className":"Biology 7A"}' });
		expect(first.answer).toEqual({ status: 200, body: { received: true, started: true } });
		if (!first.execution!.output(CREATE)) console.log(JSON.stringify(first.execution!.run.data.resultData).slice(0, 3000));
		expect(first.execution!.run.status).toBe('success');
		expect(first.execution!.output(CREATE)).toHaveLength(1);

		const again = await deliver({ bytes: '{ "className": "Biology 7A", "id": "evt-1" }' });
		expect(again.answer.body).toEqual({ received: true, started: true });
		expect(again.execution!.run.status).toBe('success');
		expect(again.execution!.output(FILTER)).toEqual([]);
		expect(again.execution!.task(CREATE)).toBeUndefined();
		expect(again.execution!.task(FILTER)!.hints).toEqual([expect.objectContaining({ message: expect.stringContaining('1 item was dropped') })]);

		const other = await deliver({ bytes: '{"id":"evt-2","className":"Chemistry 8B"}' });
		expect(other.execution!.output(CREATE)).toHaveLength(1);
		expect(roomsCreated()).toEqual(['Biology 7A', 'Chemistry 8B']);
	});

	it('what is remembered lives in n8n\'s deduplication store, under this node, not in the workflow\'s static data', async () => {
		const first = await deliver({ bytes: '{"id":"evt-9","className":"Art"}' });
		expect(first.execution!.staticData).toEqual({});
		const store = await deduplicationStore();
		const filterNode = workflow.nodes.find((node) => node.name === FILTER)!;
		expect(store.rows.get(`${workflow.id}/n:${filterNode.id}`)?.data).toHaveLength(1);
		// Drop Redelivered confirms its key after its run (a second check), which would record it again after the delete.
		await until(() => store.checks.get(`${workflow.id}/n:${filterNode.id}`) === 2);

		// Forgetting it (as a new database would) lets the same delivery through again.
		store.rows.delete(`${workflow.id}/n:${filterNode.id}`);
		const again = await deliver({ bytes: '{"id":"evt-9","className":"Art"}' });
		expect(again.execution!.output(CREATE)).toHaveLength(1);
		expect(roomsCreated()).toEqual(['Art', 'Art']);
	});

	it('a trigger that keys by body: the same bytes are dropped, other bytes with the same content pass', async () => {
		workflow.nodes[0].parameters.options = {};
		const bytes = '{"className":"Music","note":"no id"}';
		expect((await deliver({ bytes })).execution!.output(CREATE)).toHaveLength(1);
		expect((await deliver({ bytes })).execution!.task(CREATE)).toBeUndefined();
		expect((await deliver({ bytes: '{"note":"no id","className":"Music"}' })).execution!.output(CREATE)).toHaveLength(1);
		expect(roomsCreated()).toEqual(['Music', 'Music']);
	});

	it('a custom Delivery Key, {{ $json.eventId }} read by n8n\'s expressions, wins over the trigger\'s own key: the same event in other content is dropped', async () => {
		workflow.nodes[0].parameters.options = {};
		workflow.nodes[1].parameters.deliveryKey = '={{ $json.eventId }}';
		// The trigger keys each of these by its body, which differs: only the custom key tells they are one event.
		const first = await deliver({ bytes: '{"eventId":"evt-7","className":"Physics","sentAt":"09:00"}' });
		expect(first.execution!.output(CREATE)).toHaveLength(1);
		const resent = await deliver({ bytes: '{"eventId":"evt-7","className":"Physics","sentAt":"09:05"}' });
		expect(resent.execution!.output(FILTER)).toEqual([]);
		expect(resent.execution!.task(CREATE)).toBeUndefined();
		const other = await deliver({ bytes: '{"eventId":"evt-8","className":"Physics","sentAt":"09:05"}' });
		expect(other.execution!.output(CREATE)).toHaveLength(1);
		expect(roomsCreated()).toEqual(['Physics', 'Physics']);
	});

	it('a trigger that keys by id: a delivery without its id can be matched by nothing, so it always passes and nothing is remembered', async () => {
		const bytes = '{"className":"Drama"}';
		expect((await deliver({ bytes })).execution!.output(CREATE)).toHaveLength(1);
		expect((await deliver({ bytes })).execution!.output(CREATE)).toHaveLength(1);
		expect(roomsCreated()).toEqual(['Drama', 'Drama']);
		const store = await deduplicationStore();
		expect([...store.rows.keys()].filter((key) => key.startsWith(`${workflow.id}/`))).toEqual([]);
	});

	it('ids beyond 2^53 that JSON.parse rounds to one number are two deliveries; each one’s redelivery is still dropped', async () => {
		let run = 0;
		await fc.assert(
			fc.asyncProperty(fc.bigInt({ min: 2n ** 53n, max: 2n ** 63n }), fc.bigInt({ min: 1n, max: 255n }), async (id, step) => {
				// Both ids in the same n8n-parsed number, as 64-bit snowflake ids often are.
				fc.pre(Number(id) === Number(id + step));
				// A workflow of its own each run (fast-check may try one id twice), so nothing is remembered yet.
				workflow.id = `wfBigIds-${++run}`;
				const first = await deliver({ bytes: `{"id":${id},"className":"A ${id}"}` });
				const second = await deliver({ bytes: `{"id":${id + step},"className":"B ${id}"}` });
				const again = await deliver({ bytes: `{"className":"A ${id}", "id": ${id}}` });
				// What passes the filter, not the rooms: the sandbox's rate limit is not under test here.
				expect(first.execution!.output(FILTER)).toHaveLength(1);
				expect(second.execution!.output(FILTER)).toHaveLength(1);
				expect(again.execution!.output(FILTER)).toEqual([]);
				expect(first.execution!.output(FILTER)![0].json._webhook).toMatchObject({ deliveryId: String(id) });
			}),
			{ numRuns: 15 },
		);
	});
});

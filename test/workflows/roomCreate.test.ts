import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';

import type { INodeExecutionData } from 'n8n-workflow';

import type { Sandbox } from '../helpers/sandbox';
import { SANDBOX_KEY, startLockedOutSandbox, startSandbox } from '../helpers/sandbox';
import type { WorkflowJson, WorkflowRun } from '../helpers/workflowRunner';
import { watchAnswers } from '../helpers/waits';
import { loadWorkflow, runWorkflow } from '../helpers/workflowRunner';

// Room → Create as a whole workflow (room-create.json: Manual Trigger with the classes pinned →
// Create rooms), run by n8n-core's engine against the sandbox.

const CREATE = 'Create rooms';
const TRIGGER = 'When clicking ‘Execute workflow’';

/** The fixture, with these classes pinned on the trigger and the Create node's settings changed. */
function roomWorkflow(
	classes: unknown[],
	{ continueOnFail = false, maxConcurrentRequests }: { continueOnFail?: boolean; maxConcurrentRequests?: number } = {},
): WorkflowJson {
	const json = loadWorkflow('room-create');
	json.pinData = { [TRIGGER]: classes.map((row) => ({ json: row as INodeExecutionData['json'] })) };
	const create = json.nodes.find((node) => node.name === CREATE)!;
	if (continueOnFail) create.onError = 'continueRegularOutput';
	if (maxConcurrentRequests !== undefined) create.parameters.options = { maxConcurrentRequests };
	return json;
}

const onSandbox = (sandbox: Sandbox, apiKey = SANDBOX_KEY) => ({
	credentials: { vpSandbox: { type: 'videoPlatformApi', data: { baseUrl: sandbox.url, apiKey } } },
});

/** Everything n8n keeps of a run, as text: saved run data, and errors with their stacks and causes. */
const everything = ({ run }: WorkflowRun) => JSON.stringify(run) + inspect(run, { depth: null, showHidden: true });

type ItemError = { message: string; description: string | null; httpCode: number | null };
const errorOf = (item: INodeExecutionData) => item.json.error as ItemError | undefined;

describe('Room → Create, run as a workflow by n8n-core', () => {
	let sandbox: Sandbox;

	beforeEach(async () => {
		// The platform answers the class named "Broken" with a web page: a failure after sending.
		sandbox = await startSandbox({ fault: 'html', faultMatch: '"Broken"' });
	});

	afterEach(async () => {
		await sandbox.stop();
	});

	const classes = [{ name: 'Math 7A' }, { name: 'Broken' }, { name: { not: 'text' } }, { name: 'Physics 9C' }];

	it('with Continue On Fail, the failed items carry their error in json, the others get their rooms, each paired with its input', async () => {
		const result = await runWorkflow(roomWorkflow(classes, { continueOnFail: true }), onSandbox(sandbox));

		expect(result.run.status).toBe('success');
		expect(result.order).toEqual([TRIGGER, CREATE]);
		const output = result.output(CREATE)!;
		expect(output.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(output[0].json).toMatchObject({ name: 'Math 7A', type: 'conference', id: expect.any(String) });
		expect(output[3].json).toMatchObject({ name: 'Physics 9C', type: 'conference', id: expect.any(String) });
		// After sending: the platform may have acted, and n8n's status is kept.
		expect(errorOf(output[1])).toEqual({
			message: expect.stringMatching(/web page.*\[item 1\]$/),
			description: expect.stringContaining('may have created the room'),
			httpCode: 200,
		});
		// Before sending: the node's own check.
		expect(errorOf(output[2])).toEqual({
			message: 'The Name field must be text, but it is an object [item 2]',
			description: expect.any(String),
			httpCode: null,
		});
		expect(sandbox.state.rooms.map((room: { name: string }) => room.name).sort()).toEqual(['Math 7A', 'Physics 9C']);
		expect(sandbox.state.requests).toHaveLength(3);
	});

	it('without Continue On Fail, the run fails on the first bad item, names it, and says which items already got a room', async () => {
		const result = await runWorkflow(roomWorkflow(classes, { maxConcurrentRequests: 1 }), onSandbox(sandbox));

		expect(result.run.status).toBe('error');
		const error = result.run.data.resultData.error as { message: string; description?: string; node?: { name: string } };
		expect(error.message).toMatch(/web page.*\[item 1\]$/);
		expect(error.description).toMatch(/already got a room in it \(item 0\b/);
		expect(result.run.data.resultData.lastNodeExecuted).toBe(CREATE);
		expect(result.output(CREATE)).toBeUndefined();
		// One at a time: item 1 failed, so items 2 and 3 were never sent.
		expect(sandbox.state.requests.map((request: { body: string }) => JSON.parse(request.body).name)).toEqual(['Math 7A', 'Broken']);
	});

	it('a rejected key fails every item (401), and the key appears nowhere in what n8n keeps of the run, even when the platform quotes it (403)', async () => {
		const wrongKey = 'sk_wrong_never_shown_93c1';
		const withItems = await runWorkflow(roomWorkflow([{ name: 'A' }, { name: 'B' }], { continueOnFail: true }), onSandbox(sandbox, wrongKey));
		expect(withItems.output(CREATE)!.map((item) => errorOf(item)?.httpCode)).toEqual([401, 401]);
		expect(errorOf(withItems.output(CREATE)![0])!.message).toBe('The platform rejected the API key (HTTP 401) [item 0]');
		expect(sandbox.state.requests.map((request: { authorization: string }) => request.authorization)).toEqual(['wrong', 'wrong']);

		// A platform that quotes the Authorization header it got in its 403 answer, which the node quotes.
		const echoing = createServer((request, response) => {
			response.writeHead(403, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify({ error: `Key not valid: ${request.headers.authorization}` }));
		});
		await new Promise<void>((resolve) => echoing.listen(0, '127.0.0.1', resolve));
		try {
			const { port } = echoing.address() as AddressInfo;
			const echoed = await runWorkflow(roomWorkflow([{ name: 'A' }]), {
				credentials: { vpSandbox: { type: 'videoPlatformApi', data: { baseUrl: `http://127.0.0.1:${port}`, apiKey: wrongKey } } },
			});
			expect(echoed.run.status).toBe('error');
			expect(echoed.run.data.resultData.error?.message).toMatch(/^The API key is not allowed to do this \(HTTP 403\): Key not valid: .+ \[item 0\]$/);
			for (const result of [withItems, echoed]) expect(everything(result)).not.toContain(wrongKey);
		} finally {
			echoing.close();
		}
	});

	it('many items under a rate limit: every room once, in input order, with a hint that says how much 429 slowed the run', async () => {
		const limited = await startSandbox({ latencyMs: 20, rateLimit: 15 });
		try {
			const rows = Array.from({ length: 30 }, (_, i) => ({ name: `Class ${i}` }));
			const result = await runWorkflow(roomWorkflow(rows, { maxConcurrentRequests: 8 }), onSandbox(limited));

			expect(result.run.status).toBe('success');
			const output = result.output(CREATE)!;
			expect(output.map((item) => item.json.name)).toEqual(rows.map((row) => row.name));
			expect(output.map((item) => item.pairedItem)).toEqual(rows.map((_, item) => ({ item })));
			const { counts } = limited.state;
			const refused = counts.total - rows.length;
			expect(refused).toBeGreaterThan(0);
			expect(Object.values(counts.createdByBody)).toEqual(rows.map(() => 1));
			expect(counts.peakUnderWay).toBeGreaterThan(1);
			expect(counts.peakUnderWay).toBeLessThanOrEqual(8);
			expect(result.task(CREATE)!.hints).toEqual([
				expect.objectContaining({ message: expect.stringContaining(`${refused} requests got HTTP 429 (Too Many Requests)`) }),
			]);
		} finally {
			await limited.stop();
		}
	});
});

describe('Stop (n8n cancels the execution) while the node waits on a 429', () => {
	it('ends the run at once; the node stops waiting and sends nothing more', async () => {
		// Every request is refused with Retry-After: 2, so without the stop the node sends again after 2 s.
		const locked = await startLockedOutSandbox('2');
		const answers = watchAnswers();
		try {
			const stop = new AbortController();
			const running = runWorkflow(roomWorkflow([{ name: 'Waits' }]), { ...onSandbox(locked), stopSignal: stop.signal });
			await answers.arrived(429);
			const stoppedAt = Date.now();
			stop.abort();
			const result = await running;

			expect(result.run.status).toBe('canceled');
			const task = await result.settledTask(CREATE, 3_000);
			expect(Date.now() - stoppedAt).toBeLessThan(1_500);
			expect(task?.executionStatus).toBe('error');
			expect(task?.error?.message).toMatch(/stopped.*429.*\[item 0\]/);
			// No watch past the 2 s: n8n-core sent nothing for the stopped execution even when the node tried
			// (checked by breaking it); that the node does not try, stop.test.ts and router.test.ts show.
			expect(locked.state.requests).toHaveLength(1);
		} finally {
			answers.stop();
			await locked.stop();
		}
	});
});

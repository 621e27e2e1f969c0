import fc from 'fast-check';
import type { IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { router } from '../../../../nodes/VideoPlatform/actions/router';
import { createDeduplicationStore, createFilterContext } from '../../../helpers/deduplicationContext';
import { createExecuteContext, realHttp } from '../../../helpers/executeContext';
import { ANGLE_BRACKETS, outsideTextWithMarkup } from '../../../helpers/outsideText';
import type { Sandbox } from '../../../helpers/sandbox';
import { SANDBOX_KEY, startLockedOutSandbox, startSandbox } from '../../../helpers/sandbox';
import { serverAnsweringByName } from '../../../helpers/scriptedServer';
import { until, watchAnswers, watchForNothing } from '../../../helpers/waits';

const credentials = { baseUrl: 'https://video.example.com', apiKey: 'sk_router_secret' };
const items = ['Math', 'FAIL', 'History'].map((name) => ({ json: { name } }));

/** Answers 201 for every room except the one named FAIL, which gets a 422. */
async function platform(options: IHttpRequestOptions) {
	const { name } = JSON.parse(String(options.body)) as { name: string };
	return name === 'FAIL'
		? { statusCode: 422, body: '{"message":"name is reserved"}' }
		: { statusCode: 201, body: JSON.stringify({ id: `id-${name}`, name }) };
}

function context(continueOnFail: boolean, overrides: Record<string, unknown> = {}) {
	return createExecuteContext({
		credentials,
		items,
		continueOnFail,
		http: jest.fn(platform),
		parameters: { name: (i: number) => items[i].json.name, type: 'conference', ...overrides },
	});
}

describe('router', () => {
	it('with Continue On Fail, runs every item and puts the failure inside json', async () => {
		const [output] = await router.call(context(true));
		expect(output).toEqual([
			{ json: { id: 'id-Math', name: 'Math' }, pairedItem: { item: 0 } },
			{
				json: {
					error: {
						message: 'The platform rejected the request (HTTP 422): name is reserved [item 1]',
						description: "Check this item's values against the platform's message above.",
						httpCode: 422,
					},
				},
				pairedItem: { item: 1 },
			},
			{ json: { id: 'id-History', name: 'History' }, pairedItem: { item: 2 } },
		]);
		expect(JSON.stringify(output)).not.toContain(credentials.apiKey);
	});

	it('without it, stops at the failing item with an error that names it', async () => {
		const ctx = context(false);
		const error = await router.call(ctx).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).context.itemIndex).toBe(1);
		expect((error as Error).message).toMatch(/\[item 1\]$/);
	});

	it('keeps input items untouched', async () => {
		const before = JSON.stringify(items);
		await router.call(context(true));
		expect(JSON.stringify(items)).toBe(before);
	});

	it('reports bad input per item with Continue On Fail', async () => {
		const [output] = await router.call(
			context(true, { name: (i: number) => (i === 2 ? { not: 'text' } : items[i].json.name) }),
		);
		expect(output[2]).toEqual({
			json: {
				error: expect.objectContaining({
					message: 'The Name field must be text, but it is an object [item 2]',
					httpCode: null,
				}),
			},
			pairedItem: { item: 2 },
		});
	});

	it('refuses an unknown operation clearly, and says how to fix it', async () => {
		const error = await router.call(context(false, { operation: 'delete' })).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe('The operation "delete" on the resource "room" is not supported');
		expect((error as NodeOperationError).description).toBe('Open the node and pick a resource and an operation from its lists.');
	});

	it('points the editor\'s Custom API Call entry to the HTTP Request node', async () => {
		const error = await router.call(context(false, { operation: '__CUSTOM_API_CALL__' })).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error).toMatchObject({
			message: 'Custom API Call runs in the HTTP Request node, not in this node',
			description: expect.stringContaining('Predefined Credential Type → Video Platform API'),
		});
	});
});

describe('router with a failing expression over an item value', () => {
	// n8n 2.x's expression engine passes such a TypeError on as it is, the item's value in its message.
	const failingExpression = (value: string) => () => {
		throw new TypeError(`Cannot read properties of undefined (reading '${value}')`);
	};

	it('shows the value without markup, in the run\'s error, under "Also failed", and with Continue On Fail', async () => {
		await fc.assert(
			fc.asyncProperty(outsideTextWithMarkup, outsideTextWithMarkup, async (first, second) => {
				const name = (i: number) => failingExpression(i === 0 ? first : second)();
				const stopped = (await router.call(context(false, { name })).catch((e: unknown) => e)) as NodeOperationError;
				expect(stopped).toBeInstanceOf(NodeOperationError);
				expect(stopped.description).toContain('Also failed in this run');
				const [output] = await router.call(context(true, { name }));
				const shown = [stopped.message, stopped.description ?? '', JSON.stringify(output)];
				expect(shown.filter((text) => ANGLE_BRACKETS.test(text))).toEqual([]);
				expect(output.map((item) => (item.json.error as { message: string }).message)).toEqual([
					expect.stringMatching(/^Cannot read properties of undefined .*\[item 0\]$/su),
					expect.stringMatching(/\[item 1\]$/u),
					expect.stringMatching(/\[item 2\]$/u),
				]);
			}),
			{ numRuns: 50 },
		);
	});

	it('throws the item\'s own error as it is, no description added, when the run has nothing more to say', async () => {
		const stopped = (await router.call(context(false, { name: failingExpression('title'), options: { maxConcurrentRequests: 1 } })).catch((e: unknown) => e)) as NodeOperationError;
		expect(stopped.message).toBe("Cannot read properties of undefined (reading 'title') [item 0]");
		expect(stopped.description).toBeUndefined();
	});

	it('quotes an error that has no description by its message alone', async () => {
		const stopped = (await router.call(context(false, { name: failingExpression('title') })).catch((e: unknown) => e)) as NodeOperationError;
		expect(stopped.description).toMatch(/^Also failed in this run: Cannot read properties of undefined \(reading 'title'\) \[item 1\] \| Cannot read properties of undefined \(reading 'title'\) \[item 2\]$/);
	});
});

describe('router with a batch operation (Webhook Delivery → Drop Redelivered)', () => {
	const keyed = (deliveryKey: unknown) => ({ json: { _webhook: { deliveryKey } } });

	it('hands it the whole input once, with no platform client and no credential', async () => {
		const store = createDeduplicationStore();
		const items = [keyed('id:a'), keyed('id:b'), keyed('id:a')];
		// The context has no getCredentials and no HTTP helper: using either would throw.
		const context = createFilterContext({ store, items });
		expect(await router.call(context)).toEqual([
			[
				{ ...items[0], pairedItem: { item: 0 } },
				{ ...items[1], pairedItem: { item: 1 } },
			],
		]);
		// One check for the whole input (Drop Redelivered asks again for the same keys after its run: keysKept.ts).
		expect(store.calls.map((call) => call.items)).toEqual([['id:a', 'id:b']]);
		expect((await router.call(createFilterContext({ store, items: [keyed('id:b')] })))[0]).toEqual([]);
	});

	it('leaves Continue On Fail to the operation: a bad key fails its own item, the others are filtered', async () => {
		const store = createDeduplicationStore();
		const items = [keyed(7), keyed('id:a')];
		const [output] = await router.call(createFilterContext({ store, items, continueOnFail: true }));
		expect(output).toEqual([
			{ json: { error: expect.objectContaining({ message: 'The Delivery Key of this item is not text (it is a number)' }) }, pairedItem: { item: 0 } },
			{ ...items[1], pairedItem: { item: 1 } },
		]);
	});

	it("without Continue On Fail, throws the operation's error as it is, with no part-way report", async () => {
		const error = await router.call(createFilterContext({ store: createDeduplicationStore(), items: [keyed('id:a'), keyed(null)] })).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error).toMatchObject({ message: 'The Delivery Key of this item is not text (it is null)', context: { itemIndex: 1 } });
		expect((error as NodeOperationError).description).not.toContain('This run stopped');
	});

	it('refuses an operation the resource does not have', async () => {
		const context = createFilterContext({ store: createDeduplicationStore(), items: [keyed('id:a')], parameters: { operation: 'create' } });
		await expect(router.call(context)).rejects.toThrow('The operation "create" on the resource "webhookDelivery" is not supported');
	});

	it('refuses to run in the AI tool variant, says where it works instead, and remembers nothing', async () => {
		const store = createDeduplicationStore();
		const context = createFilterContext({ store, items: [keyed('id:a')], nodeType: 'n8n-nodes-videoplatform.videoPlatformTool' });
		const error = (await router.call(context).catch((e: unknown) => e)) as NodeOperationError;
		expect(error.message).toBe('This operation does not run as an AI tool');
		expect(error.description).toMatch(/^It works on the items of a workflow run, .*Use it in a workflow, not attached to an agent; as a tool, pick Room → Create\.$/);
		expect(store.calls).toEqual([]);
	});
});

describe('router after waiting for the rate limit', () => {
	// Fake timers: the node's waits cost nothing, and last exactly as long as it asked.
	beforeEach(() => jest.useFakeTimers());
	afterEach(() => jest.useRealTimers());

	/** The run, with every wait it asks for passed at once. */
	async function run(ctx: ReturnType<typeof createExecuteContext>) {
		const running = router.call(ctx);
		await jest.runAllTimersAsync();
		return await running;
	}
	/** Refuses the run's first two requests with a 429 that asks for 0.1 s, then answers as usual. */
	function rateLimited() {
		let refusals = 2;
		return jest.fn(async (options: IHttpRequestOptions) =>
			refusals-- > 0 ? { statusCode: 429, headers: { 'retry-after': '0.1' }, body: '' } : await platform(options),
		);
	}

	function limitedContext(options: Record<string, unknown> = { maxConcurrentRequests: 1 }) {
		return createExecuteContext({
			credentials,
			items,
			continueOnFail: true,
			http: rateLimited(),
			parameters: { name: (i: number) => items[i].json.name, type: 'conference', options },
		});
	}

	it('says in the editor how many requests got 429 and how long the node waited in total', async () => {
		const ctx = limitedContext();
		await run(ctx);
		expect(ctx.hints).toEqual([
			{
				type: 'info',
				location: 'outputPane',
				// 0.1 s was asked for; the node waits at least 1 s, so as not to hammer the platform.
				message:
					"The platform's rate limit slowed this run: 2 requests got HTTP 429 (Too Many Requests), and the node waited 2 s in total.",
			},
		]);
	});

	it.each([
		[{}, 'now 10, the default'],
		[{ maxConcurrentRequests: 4 }, 'now 4'],
	])('with options %j, says which setting sends fewer requests at once', async (options, now) => {
		const ctx = limitedContext(options);
		await run(ctx);
		expect(ctx.hints.map((hint) => hint.message)).toEqual([
			expect.stringMatching(new RegExp(`got HTTP 429 .* To send fewer requests at once, lower Options → Max Concurrent Requests \\(${now}\\)\\.$`)),
		]);
	});

	it('names no wait when the one 429 asked for longer than the node waits', async () => {
		const http = jest.fn(async (options: IHttpRequestOptions) =>
			String(options.body).includes('FAIL') ? { statusCode: 429, headers: { 'retry-after': '3600' }, body: '' } : await platform(options),
		);
		const ctx = createExecuteContext({ credentials, items, continueOnFail: true, http, parameters: { name: (i: number) => items[i].json.name, type: 'conference', options: { maxConcurrentRequests: 1 } } });
		await run(ctx);
		expect(ctx.hints.map((hint) => hint.message)).toEqual(["The platform's rate limit slowed this run: 1 request got HTTP 429 (Too Many Requests)."]);
	});

	it('says nothing when no request got 429, and runs in an n8n without execution hints', async () => {
		const ctx = context(true);
		await run(ctx);
		expect(ctx.hints).toEqual([]);

		const older = limitedContext();
		(older as { addExecutionHints?: unknown }).addExecutionHints = undefined;
		const [output] = await run(older);
		expect(output.map((item) => item.json.id ?? 'failed')).toEqual(['id-Math', 'failed', 'id-History']);
	});
});

describe('router with concurrency, against a real local server', () => {
	const names = Array.from({ length: 40 }, (_, i) => ({ json: { name: `Room ${i}` } }));

	function live(
		url: string,
		continueOnFail: boolean,
		concurrency: number,
		nameOf = (i: number) => names[i].json.name as unknown,
		cancelSignal?: AbortSignal,
	) {
		return createExecuteContext({
			credentials: { baseUrl: url, apiKey: SANDBOX_KEY },
			items: names,
			continueOnFail,
			cancelSignal,
			parameters: { name: nameOf, type: 'conference', options: { maxConcurrentRequests: concurrency } },
		});
	}

	it('keeps output in input order with pairedItem, however answers interleave', async () => {
		const sandbox = await startSandbox({ latencyMs: 5 });
		try {
			const context = live(sandbox.url, false, 8);
			const [output] = await router.call(context);
			// Read once per run, even when the first requests start together.
			expect(context.credentialReads.count).toBe(1);
			expect(output.map((item) => item.json.name)).toEqual(names.map((n) => n.json.name));
			expect(output.map((item) => item.pairedItem)).toEqual(names.map((_, item) => ({ item })));
			expect(sandbox.state.rooms).toHaveLength(40);
		} finally {
			await sandbox.stop();
		}
	});

	it('without Continue On Fail, the error names the items that already got a room', async () => {
		const sandbox = await startSandbox({ latencyMs: 5, fault: 'html', faultMatch: '"Room 5"' });
		try {
			const error = (await router.call(live(sandbox.url, false, 4)).catch((e: unknown) => e)) as NodeApiError;
			expect(error.message).toMatch(/seems to be a web page.*\[item 5\]$/);
			const created = sandbox.state.rooms.map((room: { name: string }) => Number(room.name.split(' ')[1]));
			expect(created.length).toBeGreaterThan(0);
			const report = /This run stopped at this failure, and (\d+) items had already got a room in it \(items ([\d, -]+); n8n counts items from 0\)\. Running the whole workflow again would create those rooms again\. To run every item and get each failure as an output item instead, set Settings → On Error to "Continue" on this node\./.exec(
				error.description ?? '',
			);
			expect(Number(report?.[1])).toBe(created.length);
			// "0-3, 6" names 0, 1, 2, 3 and 6.
			const named = (report?.[2] ?? '').split(', ').flatMap((range) => {
				const [from, to = from] = range.split('-').map(Number);
				return Array.from({ length: to - from + 1 }, (_, i) => from + i);
			});
			expect(named).toEqual([...created].sort((a, b) => a - b));
		} finally {
			await sandbox.stop();
		}
	});

	it('without Continue On Fail, the first failure starts no new request and no later item', async () => {
		const sandbox = await startSandbox({ latencyMs: 20 });
		try {
			const read: number[] = [];
			const nameOf = (i: number) => (read.push(i), i === 5 ? { bad: true } : names[i].json.name);
			const error = await router.call(live(sandbox.url, false, 4, nameOf)).catch((e: unknown) => e);
			expect((error as Error).message).toBe('The Name field must be text, but it is an object [item 5]');
			// Items 0-3 start together; 4 and 5 follow as slots free up; item 5 fails before sending.
			expect(sandbox.state.counts.total).toBeLessThanOrEqual(8);
			// An item that starts reads its Name first: none of the 40 past the first few did.
			expect(Math.max(...read)).toBeLessThan(8);
		} finally {
			await sandbox.stop();
		}
	});

	it('without Continue On Fail, items waiting out a 429 are not sent again once an item fails', async () => {
		const sandbox = await startLockedOutSandbox('20');
		const answers = watchAnswers();
		try {
			const context = live(sandbox.url, false, 4);
			// Items 0-2 reach the locked-out sandbox; item 3's answer, a 422, comes once their 429s have.
			const real = realHttp({ baseUrl: sandbox.url, apiKey: SANDBOX_KEY });
			context.helpers.httpRequestWithAuthentication = async (_type: string, options: IHttpRequestOptions, extra?: { credentialsDecrypted?: { data?: object } }) => {
				if (!String(options.body).includes('"Room 3"')) return await real(options, extra?.credentialsDecrypted?.data);
				await answers.arrived(429, 3);
				return { statusCode: 422, body: '{"message":"name is reserved"}' };
			};
			const started = Date.now();
			const error = await router.call(context).catch((e: unknown) => e);
			expect((error as Error).message).toBe('The platform rejected the request (HTTP 422): name is reserved [item 3]');
			expect(Date.now() - started).toBeLessThan(3000);
			await watchForNothing(); // only time shows that they are not sent again later
			// Items 0-2 got a 429 each and were never sent again.
			expect(sandbox.state.counts.total).toBe(3);
			expect(sandbox.state.rooms).toHaveLength(0);
		} finally {
			answers.stop();
			await sandbox.stop();
		}
	});

	it('the user stopping the execution ends the run at once and starts no later item; with Continue On Fail every item says what became of it', async () => {
		const sandbox = await startLockedOutSandbox('20');
		const answers = watchAnswers();
		try {
			const cancel = new AbortController();
			const read = new Set<number>();
			const nameOf = (i: number) => (read.add(i), names[i].json.name);
			const run = router.call(live(sandbox.url, true, 4, nameOf, cancel.signal));
			await answers.arrived(429, 4);
			const stoppedAt = Date.now();
			cancel.abort();
			const [output] = await run;
			expect(Date.now() - stoppedAt).toBeLessThan(1000);
			const messages = output.map((item) => (item.json.error as { message: string }).message);
			expect(messages.slice(0, 4)).toEqual(
				[0, 1, 2, 3].map((i) => `The execution was stopped while this item waited to be sent again after HTTP 429 [item ${i}]`),
			);
			expect(messages.slice(4)).toEqual(names.slice(4).map((_, i) => `The execution was stopped before this item was sent [item ${i + 4}]`));
			expect(output.map((item) => item.pairedItem)).toEqual(names.map((_, item) => ({ item })));
			await watchForNothing(); // only time shows that nothing is sent after the stop
			expect(sandbox.state.counts.total).toBe(4);
			// An item that starts reads its Name first: only the four under way did.
			expect([...read].sort((a, b) => a - b)).toEqual([0, 1, 2, 3]);
		} finally {
			answers.stop();
			await sandbox.stop();
		}
	});
});

function runNamed(url: string, names: string[]) {
	const context = createExecuteContext({
		credentials: { baseUrl: url, apiKey: SANDBOX_KEY },
		items: names.map((name) => ({ json: { name } })),
		parameters: { name: (i: number) => names[i], type: 'conference', options: { maxConcurrentRequests: names.length } },
	});
	return router.call(context).then(
		() => {
			throw new Error('expected the run to fail');
		},
		(error: NodeApiError) => error,
	);
}

describe("a failed run's report, against a real local server", () => {
	it('a 303 for one of several items: the report names it among the items the platform may have created a room for', async () => {
		const server = await serverAnsweringByName((name) => {
			if (name === 'Rejected') return [400, { 'content-type': 'application/json' }, '{"message":"no"}'];
			if (name === 'See other') return [303, { location: '/v1/rooms/r-2' }, '', 150];
			return [201, { 'content-type': 'application/json' }, JSON.stringify({ id: name, name }), 150];
		});
		try {
			const error = await runNamed(server.url, ['Made', 'Rejected', 'See other', 'Made too']);
			expect(error.message).toBe('The platform rejected the request (HTTP 400): no [item 1]');
			expect(error.description).toContain(
				'Of the other items, the platform may have created a room for item 2 (n8n counts items from 0): check the platform before you run it again.',
			);
			expect(error.description).toContain('The platform answered HTTP 303 (See Other)');
		} finally {
			await server.stop();
		}
	});

	it('the platform echoing markup for several items: the error and the quoted other failures show it only as text', async () => {
		const echoing = await serverAnsweringByName((name) => [400, { 'content-type': 'application/json' }, JSON.stringify({ message: `Invalid calendar title: ${name}` })]);
		try {
			await fc.assert(
				fc.asyncProperty(fc.array(outsideTextWithMarkup, { minLength: 2, maxLength: 5 }), async (names) => {
					const error = await runNamed(echoing.url, names);
					expect(error.description).toMatch(/Also failed in this run( \(items [^)]*\))?: The platform rejected the request \(HTTP 400\): Invalid calendar title: /);
					expect(error.description).toContain('\u2039');
					expect([error.message, error.description ?? ''].filter((part) => ANGLE_BRACKETS.test(part))).toEqual([]);
				}),
				{ numRuns: 25 },
			);
		} finally {
			await echoing.stop();
		}
	});
});

describe('the error a run ends with never hides an item the platform may have acted on', () => {
	// Two real sandboxes behind one Base URL: "Room 0" goes to `first`, every other item to `rest`.
	// What matters is which item's fate the run's error tells, so each item needs its own answer.
	let first: Sandbox;
	let rest: Sandbox;
	afterEach(async () => {
		await first?.stop();
		await rest?.stop();
	});

	const names = ['Room 0', 'Room 1', 'Room 2'].map((name) => ({ json: { name } }));

	function runAgainstBoth(nameOf: (i: number) => unknown, cancelSignal?: AbortSignal) {
		const context = createExecuteContext({
			credentials: { baseUrl: rest.url, apiKey: SANDBOX_KEY },
			items: names,
			cancelSignal,
			parameters: { name: nameOf, type: 'conference', options: { maxConcurrentRequests: 3 } },
		});
		const real = realHttp({ baseUrl: rest.url, apiKey: SANDBOX_KEY });
		context.helpers.httpRequestWithAuthentication = async (_type: string, options: IHttpRequestOptions, extra?: { credentialsDecrypted?: { data?: object } }) => {
			const toFirst = String(options.body).includes('"Room 0"');
			const url = toFirst ? String(options.url).replace(rest.url, first.url) : options.url;
			return await real({ ...options, url }, extra?.credentialsDecrypted?.data);
		};
		// Real time: the stop must end real waits. Pacers of its own, not the process-wide ones.
		return router.call(context).then(
			() => {
				throw new Error('expected the run to fail');
			},
			(error: NodeApiError) => error,
		);
	}

	it('a stop: the item whose request was out is the error, and the items held back by a 429 are not quoted as failures', async () => {
		first = await startSandbox({ latencyMs: 5000 });
		rest = await startLockedOutSandbox('20');
		const answers = watchAnswers();
		const cancel = new AbortController();
		const run = runAgainstBoth((i) => names[i].json.name, cancel.signal);
		await until(() => first.state.counts.total === 1);
		await answers.arrived(429, 2);
		answers.stop();
		cancel.abort();

		const error = await run;
		expect(error.message).toBe("The execution was stopped while this item's request was waiting for its answer [item 0]");
		expect(error.description).toBe('The platform may have created the room; it was not sent again. Check the platform before you run this item again.');
	});

	it('a failure: an item under way that then fails with a server error is named too', async () => {
		first = await startSandbox({ latencyMs: 300, errorRate: 1, errorStatus: 503 });
		rest = await startSandbox({ latencyMs: 50, errorRate: 1, errorStatus: 422 });
		const error = await runAgainstBoth((i) => names[i].json.name);

		expect(error.message).toMatch(/^The platform rejected the request \(HTTP 422\).*\[item [12]\]$/);
		expect(error.description).toContain('Also failed in this run: ');
		expect(error.description).toContain(
			'The platform had a server error (HTTP 503): Simulated error (HTTP 503). [item 0]: The request was not repeated, because the platform may have processed it.',
		);
	});
});

const loopCredentials = { baseUrl: 'https://video.example.com', apiKey: 'sk_test_key' };

/** A platform that refuses the `failing` rooms at once and creates the others a little later, counting how many are under way. */
function countingPlatform(failing: string[] = []) {
	const seen = { active: 0, peak: 0, started: [] as string[] };
	const http = jest.fn(async (options: IHttpRequestOptions) => {
		const { name } = JSON.parse(String(options.body)) as { name: string };
		seen.started.push(name);
		if (failing.includes(name)) return { statusCode: 422, body: '{"message":"name is reserved"}' };
		seen.active++;
		seen.peak = Math.max(seen.peak, seen.active);
		await new Promise((resolve) => setTimeout(resolve, 5));
		seen.active--;
		return { statusCode: 201, body: JSON.stringify({ name }) };
	});
	return { seen, http };
}

function run(count: number, options: object | undefined, failing: string[] = [], continueOnFail = true) {
	const { seen, http } = countingPlatform(failing);
	const items = Array.from({ length: count }, (_, i) => ({ json: { name: `Room ${i}` } }));
	const context = createExecuteContext({
		credentials: loopCredentials,
		items,
		continueOnFail,
		http,
		parameters: { name: (i: number) => items[i].json.name, type: 'conference', ...(options === undefined ? {} : { options }) },
	});
	const result = router.call(context);
	return { seen, result };
}

const failureOf = async (result: Promise<unknown>) =>
	await result.then(
		() => {
			throw new Error('expected the run to fail');
		},
		(error: NodeApiError) => error,
	);

describe('the router runs items with Max Concurrent Requests', () => {
	it.each([
		[undefined, 10],
		[{ maxConcurrentRequests: 3 }, 3],
		[{ maxConcurrentRequests: 0 }, 1],
		[{ maxConcurrentRequests: 500 }, 50],
		[{ maxConcurrentRequests: 2.7 }, 2],
		[{ maxConcurrentRequests: 'x' }, 10],
	])('options %p allow %p requests under way, and every item runs once', async (options, expected) => {
		const { seen, result } = run(60, options);
		const [output] = await result;
		expect(seen.peak).toBe(expected);
		expect([...seen.started].sort()).toEqual(Array.from({ length: 60 }, (_, i) => `Room ${i}`).sort());
		expect(output).toHaveLength(60);
	});

	it('starts nothing new once an item fails without Continue On Fail, and lets running ones finish', async () => {
		const { seen, result } = run(20, { maxConcurrentRequests: 3 }, ['Room 2'], false);
		await failureOf(result);
		expect(seen.started).toEqual(['Room 0', 'Room 1', 'Room 2']);
		expect(seen.active).toBe(0);
	});
});

describe('the run that stops at a failure says what it had already done', () => {
	it('names the items that got a room as short ranges', async () => {
		const { result } = run(10, { maxConcurrentRequests: 10 }, ['Room 5', 'Room 7'], false);
		const error = await failureOf(result);
		expect(error.description).toContain(
			'This run stopped at this failure, and 8 items had already got a room in it (items 0-4, 6, 8-9; n8n counts items from 0). Running the whole workflow again would create those rooms again.',
		);
	});

	it('names one item in the singular', async () => {
		const { result } = run(5, { maxConcurrentRequests: 1 }, ['Room 1'], false);
		const error = await failureOf(result);
		expect(error.description).toMatch(
			/This run stopped at this failure, and 1 item had already got a room in it \(item 0; .*would create that room again\./,
		);
	});

	it('says nothing of the kind when nothing had succeeded', async () => {
		const { result } = run(3, { maxConcurrentRequests: 1 }, ['Room 0'], false);
		const error = await failureOf(result);
		expect(error.description).toBe("Check this item's values against the platform's message above.");
	});

	it('stopped by the user as an answer is read, keeps that room and says how many items got no result', async () => {
		const cancel = new AbortController();
		const http = jest.fn(async (options: IHttpRequestOptions) => {
			const answer = await platform(options);
			return {
				...answer,
				get body() {
					cancel.abort();
					return answer.body;
				},
			};
		});
		const context = createExecuteContext({ credentials, items, continueOnFail: false, http, cancelSignal: cancel.signal, parameters: { name: (i: number) => items[i].json.name, type: 'conference', options: { maxConcurrentRequests: 1 } } });
		const error = await failureOf(router.call(context));
		expect({ message: error.message, description: error.description }).toEqual({
			message: 'The execution was stopped before every item was sent',
			description:
				'2 of 3 items got no result. This run was stopped, and 1 item had already got a room in it (item 0; n8n counts items from 0). Running the whole workflow again would create that room again. To run every item and get each failure as an output item instead, set Settings → On Error to "Continue" on this node.',
		});
		expect(http).toHaveBeenCalledTimes(1);
	});

	it('names the items in index order, whatever order their rooms came in', async () => {
		const items = Array.from({ length: 6 }, (_, i) => ({ json: { name: `Room ${i}` } }));
		// Later items are answered sooner; Room 5 is refused last.
		const http = jest.fn(async (options: IHttpRequestOptions) => {
			const index = Number((JSON.parse(String(options.body)) as { name: string }).name.split(' ')[1]);
			await new Promise((resolve) => setTimeout(resolve, (6 - index) * 15));
			return index === 5 ? { statusCode: 422, body: '{"message":"name is reserved"}' } : { statusCode: 201, body: '{}' };
		});
		const context = createExecuteContext({ credentials: loopCredentials, items, continueOnFail: false, http, parameters: { name: (i: number) => items[i].json.name, type: 'conference', options: { maxConcurrentRequests: 6 } } });
		const error = await failureOf(router.call(context));
		expect(error.description).toContain('5 items had already got a room in it (items 0-4;');
	});
});

describe('the run that stops at a failure names every other item whose room may exist', () => {
	/** Room 0 is refused at once (the run's error); each of `maybe` gets `status` (503) a little later, the rest a room. */
	function runWithServerErrors(count: number, maybe: number[], status = 503) {
		const items = Array.from({ length: count }, (_, i) => ({ json: { name: `Room ${i}` } }));
		const http = jest.fn(async (options: IHttpRequestOptions) => {
			const { name } = JSON.parse(String(options.body)) as { name: string };
			const index = Number(name.split(' ')[1]);
			if (index === 0) return { statusCode: 422, body: '{"message":"name is reserved"}' };
			await new Promise((resolve) => setTimeout(resolve, 5));
			return maybe.includes(index) ? { statusCode: status, body: '{"message":"busy"}' } : { statusCode: 201, body: JSON.stringify({ name }) };
		});
		const context = createExecuteContext({
			credentials: loopCredentials,
			items,
			continueOnFail: false,
			http,
			parameters: { name: (i: number) => items[i].json.name, type: 'conference', options: { maxConcurrentRequests: 50 } },
		});
		return failureOf(router.call(context));
	}

	/** The item numbers a report names, e.g. "1-3, 7" as [1, 2, 3, 7]. */
	const expand = (ranges: string) =>
		ranges.split(', ').flatMap((range) => {
			const [from, to = from] = range.split('-').map(Number);
			return Array.from({ length: to - from + 1 }, (_, i) => from + i);
		});

	it('however many there are, by number, with no "and N more"', async () => {
		const error = await runWithServerErrors(12, [1, 2, 3, 4, 5, 6, 9, 11]);
		expect(error.message).toMatch(/^The platform rejected the request \(HTTP 422\).*\[item 0\]$/);
		expect(error.description).toContain(
			'Of the other items, the platform may have created a room for items 1-6, 9, 11 (n8n counts items from 0): check the platform before you run them again.',
		);
		expect(error.description).toContain('Also failed in this run (items 1-6, 9, 11; the first 3 in their own words): ');
		expect(error.description).not.toMatch(/and \d+ more/);
	});

	it('names an item that got exactly HTTP 500, and none that got HTTP 499', async () => {
		expect((await runWithServerErrors(4, [2], 500)).description).toContain('the platform may have created a room for item 2 (n8n counts items from 0)');
		expect((await runWithServerErrors(4, [2], 499)).description).not.toContain('Of the other items');
	});

	it('tells what it had done, which rooms may exist and what else failed, one sentence after another', async () => {
		expect((await runWithServerErrors(3, [1])).description).toBe(
			"Check this item's values against the platform's message above. " +
				'This run stopped at this failure, and 1 item had already got a room in it (item 2; n8n counts items from 0). Running the whole workflow again would create that room again. To run every item and get each failure as an output item instead, set Settings → On Error to "Continue" on this node. ' +
				'Of the other items, the platform may have created a room for item 1 (n8n counts items from 0): check the platform before you run it again. ' +
				'Also failed in this run: The platform had a server error (HTTP 503): busy [item 1]: The request was not repeated, because the platform may have processed it. Check the platform before you run this item again.',
		);
	});

	it('quotes up to 3 other failures in their own words; past 3, names them all by number and quotes the first 3', async () => {
		const quoted = (index: number) => `The platform had a server error (HTTP 503): busy [item ${index}]: The request was not repeated, because the platform may have processed it. Check the platform before you run this item again.`;
		const also = async (maybe: number[]) => /Also failed in this run.*$/.exec((await runWithServerErrors(maybe.length + 1, maybe)).description ?? '')?.[0];
		expect(await also([1, 2, 3])).toBe(`Also failed in this run: ${[1, 2, 3].map(quoted).join(' | ')}`);
		const four = await also([1, 2, 3, 4]);
		expect(four).toMatch(/^Also failed in this run \(items 1-4; the first 3 in their own words\): /);
		expect(four?.split(' | ')).toHaveLength(3);
	});

	it('names one in the singular, and none when no other room may exist', async () => {
		expect((await runWithServerErrors(4, [2])).description).toContain(
			'Of the other items, the platform may have created a room for item 2 (n8n counts items from 0): check the platform before you run it again.',
		);
		expect((await runWithServerErrors(4, [])).description).not.toContain('Of the other items');
	});

	it('for any set of items, names exactly those', async () => {
		await fc.assert(
			fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: 29 }), { maxLength: 29 }), async (maybe) => {
				const error = await runWithServerErrors(30, maybe);
				const named = /may have created a room for items? ([\d, -]+) \(n8n/.exec(error.description ?? '')?.[1];
				expect(named === undefined ? [] : expand(named)).toEqual([...maybe].sort((a, b) => a - b));
			}),
			{ numRuns: 25 },
		);
	});
});

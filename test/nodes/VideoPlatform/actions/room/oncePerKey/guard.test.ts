import fc from 'fast-check';
import type { IDataObject, IHttpRequestOptions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { router } from '../../../../../../nodes/VideoPlatform/actions/router';
import type { DeduplicationStore } from '../../../../../helpers/deduplicationContext';
import { createDeduplicationStore } from '../../../../../helpers/deduplicationContext';
import { createExecuteContext } from '../../../../../helpers/executeContext';

/** Create Once Per Key as a run shows it: guard.ts around the router's requests (a cross-module suite). */

const SANDBOX = { baseUrl: 'https://sandbox.example.com/v1', apiKey: 'sk_once_secret' };
const REAL = { baseUrl: 'https://video.example.com', apiKey: 'sk_once_secret' };

type Answer = { statusCode: number; body: string } | 'hang' | 'reset';

/** The platform: 201 with the room, unless `answers` says otherwise for a name. */
function fakePlatform(answers: Record<string, Answer> = {}) {
	const sent: string[] = [];
	const http = jest.fn(async (options: IHttpRequestOptions) => {
		const { name } = JSON.parse(String(options.body)) as { name: string };
		sent.push(name);
		const answer = answers[name] ?? { statusCode: 201, body: JSON.stringify({ id: `id-${name}`, name }) };
		if (answer === 'hang') return await new Promise(() => undefined);
		if (answer === 'reset') throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
		return answer;
	});
	return { http, sent };
}

const itemsOf = (...names: string[]): INodeExecutionData[] => names.map((name) => ({ json: { name } }));

interface RunOptions {
	items: INodeExecutionData[];
	store: DeduplicationStore;
	platform?: ReturnType<typeof fakePlatform>;
	mode?: 'create' | 'forgetKeys' | 'forgetAll';
	continueOnFail?: boolean;
	credentials?: typeof SANDBOX;
	/** The option left out: the node as before. */
	off?: boolean;
	key?: (i: number) => unknown;
	extraOptions?: IDataObject;
	keysRemembered?: number;
	keysToForget?: string;
}

/** The editor hints of the latest run. */
let hints: Array<{ message: string }> = [];

function run({ items, store, platform = fakePlatform(), mode = 'create', continueOnFail = false, credentials = SANDBOX, off, key, extraOptions, keysRemembered = 100, keysToForget }: RunOptions) {
	const settings = { key: key ?? ((i: number) => `${String(items[i].json.name)}-2026-11-26`), mode, scope: 'node', keysRemembered, keysToForget };
	const context = createExecuteContext({
		credentials,
		items,
		continueOnFail,
		http: platform.http,
		store,
		parameters: {
			name: (i: number) => items[i].json.name,
			type: 'conference',
			options: off ? { ...extraOptions } : { createOncePerKey: { settings }, ...extraOptions },
		},
	});
	hints = context.hints;
	return router.call(context);
}

const outputOf = async (result: ReturnType<typeof run>) => (await result)[0];
const failureOf = async (result: ReturnType<typeof run>) => (await result.then(() => undefined, (e: unknown) => e)) as NodeOperationError;
const kept = (store: DeduplicationStore) => store.kept('node', { id: 'node-1' } as never).length;

describe('Create Once Per Key, through the router (guard.ts with router.ts)', () => {
	it('a new key: the room is created, and n8n keeps one entry for it once the platform confirmed it', async () => {
		const store = createDeduplicationStore();
		const platform = fakePlatform();
		const output = await outputOf(run({ items: itemsOf('Math', 'History'), store, platform }));
		expect(platform.sent).toEqual(['Math', 'History']);
		expect(output).toEqual([
			{ json: { id: 'id-Math', name: 'Math' }, pairedItem: { item: 0 } },
			{ json: { id: 'id-History', name: 'History' }, pairedItem: { item: 1 } },
		]);
		// "created" stays, "pending" is gone.
		expect(kept(store)).toBe(2);
	});

	it('a key an earlier run created: not sent, and the item says it was skipped, with its key and why', async () => {
		const store = createDeduplicationStore();
		await run({ items: itemsOf('Math'), store });
		const platform = fakePlatform();
		const output = await outputOf(run({ items: itemsOf('Physics', 'Math'), store, platform }));
		expect(platform.sent).toEqual(['Physics']);
		expect(output[1]).toEqual({
			json: { skipped: true, reason: 'created-before', key: 'Math-2026-11-26', message: expect.stringContaining('https://sandbox.example.com') },
			pairedItem: { item: 1 },
		});
		expect(output[1].json.message).toMatch(/keeps only a digest of each key, so that room's details are not available here/);
		// Skipping leaves the key as it was: a third run skips it again, rather than calling it "may exist".
		const third = fakePlatform();
		const [again] = await run({ items: itemsOf('Math'), store, platform: third });
		expect(third.sent).toEqual([]);
		expect(again[0].json.reason).toBe('created-before');
	});

	it('the same key twice in one run: one room, and the second item names the item it repeats', async () => {
		const store = createDeduplicationStore();
		const platform = fakePlatform();
		const items = itemsOf('Math', 'Math', 'History');
		const output = await outputOf(run({ items, store, platform, key: (i) => `${String(items[i].json.name)}` }));
		expect(platform.sent).toEqual(['Math', 'History']);
		expect(hints.map(({ message }) => message)).toEqual([
			'1 item was not sent (Create Once Per Key): a room for the same key was created before, or another item of this run has it. Their output says which.',
		]);
		expect(output[1]).toEqual({
			json: { skipped: true, reason: 'same-key-in-this-run', key: 'Math', repeatsItem: 0, message: expect.stringMatching(/^Not sent: item 0 of this run has the same key/) },
			pairedItem: { item: 1 },
		});
		// n8n's check would call a key new twice in one call: each key is asked once.
		const [first] = store.calls;
		expect(new Set(first.items).size).toBe(first.items.length);
	});

	it.each([
		['answers 503 after reading it', { statusCode: 503, body: 'busy' } as Answer],
		['got, with the connection cut before an answer', 'reset' as Answer],
	])('a request the platform %s: the next run sends nothing for it and fails, naming its key', async (_case, answer) => {
		const store = createDeduplicationStore();
		await run({ items: itemsOf('Math', 'Lost'), store, platform: fakePlatform({ Lost: answer }), continueOnFail: true });
		const platform = fakePlatform();
		const error = await failureOf(run({ items: itemsOf('Math', 'Lost', 'New'), store, platform }));
		expect(platform.sent).toEqual([]);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.context.itemIndex).toBe(1);
		expect(error.message).toBe(
			'The room for key "Lost-2026-11-26" may already exist: an earlier run sent its request and never learned whether the platform created it [item 1]',
		);
		expect(error.description).toMatch(
			/^Nothing was sent for any item of this run\. If another execution of this workflow may still be running \(see Executions\), wait for it to end first\. Look on the platform \(https:\/\/sandbox\.example\.com\)/,
		);
		expect(error.description).toContain(`Mode to Forget These Items' Keys, put "Lost-2026-11-26" (without the quotes) in Keys to Forget, run this node, then set Mode back`);
		// Nothing this failed run recorded stays: "New" is sent by the next run, once "Lost" is dealt with.
		const after = fakePlatform();
		await outputOf(run({ items: itemsOf('New'), store, platform: after }));
		expect(after.sent).toEqual(['New']);
	});

	it('n8n stopped between sending and recording: the next run fails on that item, naming its key', async () => {
		const store = createDeduplicationStore();
		// The first run never ends, as if n8n stopped while the request was under way.
		// Its deadline ends it a minute later, in whatever test runs then: that ending is not this test's.
		run({ items: itemsOf('Math'), store, platform: fakePlatform({ Math: 'hang' }) }).catch(() => undefined);
		await new Promise((resolve) => setImmediate(resolve));
		const platform = fakePlatform();
		const [output] = await run({ items: itemsOf('Math', 'Art'), store, platform, continueOnFail: true });
		expect(platform.sent).toEqual(['Art']);
		expect(output[0]).toEqual({
			json: {
				error: expect.objectContaining({
					message: expect.stringContaining('The room for key "Math-2026-11-26" may already exist'),
					description: expect.stringMatching(/^Nothing was sent for this item in this run\. If another execution of this workflow may still be running/),
				}),
			},
			pairedItem: { item: 0 },
		});
	});

	it('a definite refusal (4xx) clears the item: the next run sends it again', async () => {
		const store = createDeduplicationStore();
		const [first] = await run({ items: itemsOf('Math'), store, platform: fakePlatform({ Math: { statusCode: 422, body: '{"message":"bad name"}' } }), continueOnFail: true });
		expect(first[0].json.error).toEqual(expect.objectContaining({ httpCode: 422 }));
		expect(kept(store)).toBe(0);
		const platform = fakePlatform();
		await run({ items: itemsOf('Math'), store, platform });
		expect(platform.sent).toEqual(['Math']);
	});

	it('a run that stops part-way says the rooms already created are skipped, and running it again creates only the others', async () => {
		const store = createDeduplicationStore();
		const items = itemsOf('A', 'B', 'FAIL', 'C');
		const error = await failureOf(
			run({ items, store, platform: fakePlatform({ FAIL: { statusCode: 422, body: '' } }), extraOptions: { maxConcurrentRequests: 1 } }),
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.description).toContain('2 items had already got a room in it (items 0-1; n8n counts items from 0). Run the workflow again: the rooms already created are skipped');
		expect(error.description).not.toContain('would create those rooms again');
		const platform = fakePlatform();
		const output = await outputOf(run({ items, store, platform }));
		expect(platform.sent).toEqual(['FAIL', 'C']);
		expect(output.map(({ json }) => json.skipped ?? json.id)).toEqual([true, true, 'id-FAIL', 'id-C']);
	});

	it("a part-way report names the rooms that may exist and says the next run will not send them", async () => {
		const store = createDeduplicationStore();
		const items = itemsOf('A', 'FAIL', 'Lost');
		const platform = fakePlatform({ Lost: { statusCode: 502, body: '' }, FAIL: { statusCode: 422, body: '' } });
		const error = await failureOf(run({ items, store, platform, extraOptions: { maxConcurrentRequests: 3 } }));
		expect(error.description).toMatch(/may have created a room for item 2 \(n8n counts items from 0\): Create Once Per Key does not send them again/);
	});

	it("the key includes the Base URL: keys kept against the sandbox do not skip rooms on the real platform", async () => {
		const store = createDeduplicationStore();
		await run({ items: itemsOf('Math'), store });
		const platform = fakePlatform();
		await run({ items: itemsOf('Math'), store, platform, credentials: REAL });
		expect(platform.sent).toEqual(['Math']);
	});

	it('the key includes the Base URL\'s path: a room created for one tenant on a host does not skip the same key for another', async () => {
		const store = createDeduplicationStore();
		await run({ items: itemsOf('Math'), store, credentials: { ...REAL, baseUrl: 'https://video.example.com/sandbox' } });
		const platform = fakePlatform();
		await run({ items: itemsOf('Math'), store, platform, credentials: { ...REAL, baseUrl: 'https://video.example.com/school-b' } });
		expect(platform.sent).toEqual(['Math']);
		const again = fakePlatform();
		const [output] = await run({ items: itemsOf('Math'), store, platform: again, credentials: { ...REAL, baseUrl: 'https://video.example.com/school-b/v1/' } });
		expect(again.sent).toEqual([]);
		expect(output[0].json.message).toContain('created on https://video.example.com/school-b by an earlier run');
	});

	it("Forget These Items' Keys: sends nothing, and the next run creates those items' rooms again, not the others", async () => {
		const store = createDeduplicationStore();
		await run({ items: itemsOf('Math', 'Art'), store });
		const forgetting = fakePlatform();
		const [forgot] = await run({ items: itemsOf('Math'), store, platform: forgetting, mode: 'forgetKeys' });
		expect(forgetting.sent).toEqual([]);
		expect(forgot).toEqual([{ json: expect.objectContaining({ forgotten: true, key: 'Math-2026-11-26' }), pairedItem: { item: 0 } }]);
		const platform = fakePlatform();
		await run({ items: itemsOf('Math', 'Art'), store, platform });
		expect(platform.sent).toEqual(['Math']);
	});

	it('Forget These Items\' Keys also forgets a key that "may exist"', async () => {
		const store = createDeduplicationStore();
		await run({ items: itemsOf('Math'), store, platform: fakePlatform({ Math: { statusCode: 504, body: '' } }), continueOnFail: true });
		await run({ items: itemsOf('Math'), store, mode: 'forgetKeys' });
		const platform = fakePlatform();
		await run({ items: itemsOf('Math'), store, platform });
		expect(platform.sent).toEqual(['Math']);
	});

	it("following the \"may exist\" advice with the whole input (as Execute step gives it): Keys to Forget forgets only the key pasted, and the next run creates only that room", async () => {
		const store = createDeduplicationStore();
		const day = itemsOf('Biology', 'Chemistry', 'History', 'Maths');
		await run({ items: day, store, platform: fakePlatform({ Maths: 'reset' }), continueOnFail: true });
		const [forgot] = await run({ items: day, store, mode: 'forgetKeys', keysToForget: 'Maths-2026-11-26' });
		expect(forgot).toEqual([
			{ json: expect.objectContaining({ forgotten: true, key: 'Maths-2026-11-26' }), pairedItem: [{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }] },
		]);
		const platform = fakePlatform();
		await run({ items: day, store, platform });
		expect(platform.sent).toEqual(['Maths']);
	});

	it('Keys to Forget takes one key per line, spaces around a line and empty lines ignored, each key once', async () => {
		const store = createDeduplicationStore();
		await run({ items: itemsOf('Math', 'Art', 'Music'), store });
		const [forgot] = await run({ items: itemsOf('x'), store, mode: 'forgetKeys', keysToForget: '  Math-2026-11-26 \r\n\n\tArt-2026-11-26\nMath-2026-11-26\n' });
		expect(forgot.map(({ json }) => json.key)).toEqual(['Math-2026-11-26', 'Art-2026-11-26']);
		const platform = fakePlatform();
		await run({ items: itemsOf('Math', 'Art', 'Music'), store, platform });
		expect(platform.sent).toEqual(['Math', 'Art']);
	});

	it('Forget All Keys: sends nothing, outputs one item, and the next run creates every room again', async () => {
		const store = createDeduplicationStore();
		await run({ items: itemsOf('Math', 'Art'), store });
		const [forgot] = await run({ items: itemsOf('x', 'y'), store, mode: 'forgetAll' });
		expect(forgot).toEqual([{ json: expect.objectContaining({ forgotten: true, keys: 'all' }), pairedItem: [{ item: 0 }, { item: 1 }] }]);
		const platform = fakePlatform();
		await run({ items: itemsOf('Math', 'Art'), store, platform });
		expect(platform.sent).toEqual(['Math', 'Art']);
	});

	it('an empty key fails its item before anything is sent or remembered', async () => {
		const store = createDeduplicationStore();
		const platform = fakePlatform();
		const error = await failureOf(run({ items: itemsOf('Math', 'Art'), store, platform, key: (i) => (i === 1 ? ' ' : 'k') }));
		expect(error.message).toBe('The Create Once Per Key key of this item is empty [item 1]');
		expect(platform.sent).toEqual([]);
		expect(store.calls).toEqual([]);
	});

	it('refuses a run with more keys than Keys Remembered, before anything is sent', async () => {
		const store = createDeduplicationStore();
		const names = Array.from({ length: 101 }, (_, i) => `room ${i}`);
		const error = await failureOf(run({ items: itemsOf(...names), store }));
		expect(error.message).toBe('This run has 101 keys, and Create Once Per Key keeps only 100');
		expect(error.description).toContain('Keys Remembered to at least 101');
		expect(store.calls).toEqual([]);
	});

	it('a run with as many keys as Keys Remembered creates each room once, and running it again creates none', async () => {
		const store = createDeduplicationStore();
		const items = itemsOf(...Array.from({ length: 100 }, (_, i) => `room ${i}`));
		await run({ items, store });
		const platform = fakePlatform();
		const output = await outputOf(run({ items, store, platform }));
		expect(platform.sent).toEqual([]);
		expect(output.every(({ json }) => json.reason === 'created-before')).toBe(true);
	});

	it("a run's own entries never make n8n forget an earlier key: 6 keys ever with Keys Remembered 10, every one is still skipped", async () => {
		const store = createDeduplicationStore();
		await run({ items: itemsOf('A', 'B', 'C', 'D', 'E'), store, keysRemembered: 10 });
		// A to D are skipped, F is new: the check records 10 entries besides the 5 kept.
		const second = fakePlatform();
		await run({ items: itemsOf('A', 'B', 'C', 'D', 'F'), store, platform: second, keysRemembered: 10 });
		expect(second.sent).toEqual(['F']);
		const third = fakePlatform();
		const output = await outputOf(run({ items: itemsOf('A', 'B', 'C', 'D', 'E', 'F'), store, platform: third, keysRemembered: 10 }));
		expect(third.sent).toEqual([]);
		expect(output.map(({ json }) => json.reason)).toEqual(Array(6).fill('created-before'));
	});

	it('a run that skips old keys and creates new ones keeps every earlier key while fewer than Keys Remembered were created', async () => {
		const store = createDeduplicationStore();
		const old = Array.from({ length: 40 }, (_, i) => `old ${i}`);
		await run({ items: itemsOf(...old), store });
		const fresh = Array.from({ length: 20 }, (_, i) => `new ${i}`);
		await run({ items: itemsOf(...old.slice(10), ...fresh), store });
		const platform = fakePlatform();
		await run({ items: itemsOf(...old, ...fresh), store, platform });
		expect(platform.sent).toEqual([]);
	});

	it('past Keys Remembered rooms created, the oldest keys are forgotten, never one of the newest Keys Remembered', async () => {
		const store = createDeduplicationStore();
		await run({ items: itemsOf('A', 'B', 'C'), store, keysRemembered: 3 });
		await run({ items: itemsOf('D'), store, keysRemembered: 3 });
		await run({ items: itemsOf('E'), store, keysRemembered: 3 });
		const platform = fakePlatform();
		await run({ items: itemsOf('A', 'B', 'C', 'D', 'E'), store, platform, keysRemembered: 10 });
		expect(platform.sent).toContain('A');
		expect(platform.sent.filter((name) => ['C', 'D', 'E'].includes(name))).toEqual([]);
	});

	it('the option off: nothing is asked of n8n, and a run again creates the rooms again, as before', async () => {
		const store = createDeduplicationStore();
		const platform = fakePlatform();
		await run({ items: itemsOf('Math'), store, platform, off: true });
		await run({ items: itemsOf('Math'), store, platform, off: true });
		expect(platform.sent).toEqual(['Math', 'Math']);
		expect(store.calls).toEqual([]);
	});

	it('any key, in any script, creates its room once', async () => {
		await fc.assert(
			fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1 }).filter((key) => key.trim() !== ''), async (key) => {
				const store = createDeduplicationStore();
				const platform = fakePlatform();
				await run({ items: itemsOf('Math'), store, platform, key: () => key });
				const [again] = await run({ items: itemsOf('Math'), store, platform, key: () => key });
				expect(platform.sent).toEqual(['Math']);
				expect(again[0].json).toEqual(expect.objectContaining({ skipped: true, key }));
			}),
			{ numRuns: 30 },
		);
	});
});

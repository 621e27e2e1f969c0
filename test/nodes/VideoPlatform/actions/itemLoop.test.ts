import type { IHttpRequestOptions, NodeApiError } from 'n8n-workflow';
import fc from 'fast-check';

import { router } from '../../../../nodes/VideoPlatform/actions/router';
import { createExecuteContext } from '../../../helpers/executeContext';

const credentials = { baseUrl: 'https://video.example.com', apiKey: 'sk_test_key' };

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
		credentials,
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
		expect(error.description).not.toContain('This run stopped at this failure');
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
			credentials,
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

import type { IHttpRequestOptions, NodeApiError } from 'n8n-workflow';

import { router } from '../../../../nodes/VideoPlatform/actions/router';
import { createExecuteContext } from '../../../helpers/executeContext';
import { testClients } from '../../../helpers/platformClient';

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
	const result = router.call(context, testClients());
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

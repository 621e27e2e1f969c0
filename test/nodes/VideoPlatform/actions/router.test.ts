import type { IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { router } from '../../../../nodes/VideoPlatform/actions/router';
import { createExecuteContext } from '../../../helpers/executeContext';

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

	it('refuses an unknown operation clearly', async () => {
		const error = await router.call(context(false, { operation: 'delete' })).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe('The operation "delete" on the resource "room" is not supported');
	});
});

import type { IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { execute } from '../../../../../nodes/VideoPlatform/actions/room/create.operation';
import { PlatformClient } from '../../../../../nodes/VideoPlatform/transport/client';
import { createExecuteContext, testNode } from '../../../../helpers/executeContext';

const credentials = { baseUrl: 'https://video.example.com/v1/', apiKey: 'Bearer sk_test_key' };

function run(parameters: Record<string, unknown>, answer: unknown = { statusCode: 201, body: '{"id":"r1"}' }) {
	const http = jest.fn<Promise<unknown>, [IHttpRequestOptions]>(async () => answer);
	const context = createExecuteContext({ credentials, parameters, http });
	return { http, result: execute.call(context, 0, new PlatformClient(context, 'room').forItem(0)) };
}

describe('Room → Create', () => {
	it('posts exactly {name, type} as JSON to {base}/v1/rooms', async () => {
		const { http, result } = run({ name: 'Biology 101', type: 'conference' });
		await expect(result).resolves.toEqual({ id: 'r1' });
		const [options] = http.mock.calls[0];
		expect(options).toMatchObject({
			method: 'POST',
			url: 'https://video.example.com/v1/rooms',
			headers: { 'Content-Type': 'application/json' },
			body: '{"name":"Biology 101","type":"conference"}',
		});
	});

	it('sends a type given by expression as it is: the full set is not published', async () => {
		const { http, result } = run({ name: 'Webinar', type: 'webinar' });
		await result;
		expect(http.mock.calls[0][0].body).toBe('{"name":"Webinar","type":"webinar"}');
	});

	it('does not require a name: the platform decides', async () => {
		const { http, result } = run({ name: '', type: 'conference' });
		await result;
		expect(http.mock.calls[0][0].body).toBe('{"name":"","type":"conference"}');
	});

	// How values become text, and the refusal's words: parameters.test.ts.
	it('refuses a Name that is not text, and sends nothing', async () => {
		const { http, result } = run({ name: { first: 'a' }, type: 'conference' });
		await expect(result).rejects.toThrow(new NodeOperationError(testNode, 'The Name field must be text, but it is an object [item 0]'));
		expect(http).not.toHaveBeenCalled();
	});

	describe('passes the answer through, or wraps what is not a JSON object', () => {
		it.each([
			['{"id":"r1","extra":{"a":1}}', { id: 'r1', extra: { a: 1 } }],
			['', { statusCode: 201, response: '' }],
			['Created', { statusCode: 201, response: 'Created' }],
			['[1,2]', { statusCode: 201, response: [1, 2] }],
			['"ok"', { statusCode: 201, response: 'ok' }],
			['{broken', { statusCode: 201, response: '{broken' }],
		])('%p', async (body, expected) => {
			const { result } = run({ name: 'a', type: 'conference' }, { statusCode: 201, body });
			await expect(result).resolves.toEqual(expected);
		});
	});
});

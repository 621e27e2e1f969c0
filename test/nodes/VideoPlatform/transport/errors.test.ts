import { NodeApiError } from 'n8n-workflow';

import type { FailedRequest } from '../../../../nodes/VideoPlatform/transport/errors';
import {
	httpStatusError,
	platformMessage,
	redact,
	unreachableError,
} from '../../../../nodes/VideoPlatform/transport/errors';
import { testNode } from '../../../helpers/executeContext';

const failed: FailedRequest = {
	node: testNode,
	itemIndex: 2,
	url: 'https://video.example.com/v1/rooms',
	baseUrl: 'https://video.example.com',
	secret: 'sk_live_secret',
};

describe('platformMessage', () => {
	it.each([
		[{ message: 'name is too long' }, 'name is too long'],
		[{ error: 'bad type' }, 'bad type'],
		[{ error: { message: 'nested' } }, 'nested'],
		[{ detail: 'problem+json detail' }, 'problem+json detail'],
		['{"message":"from text"}', 'from text'],
		['plain text error', 'plain text error'],
		[{ code: 7 }, '{"code":7}'],
		['', ''],
		[undefined, ''],
	])('finds the words in %p', (body, expected) => {
		expect(platformMessage(body)).toBe(expected);
	});
});

describe('error mapping', () => {
	it.each([
		[400, /rejected the request \(HTTP 400\): name is too long/, /Check this item/],
		[422, /rejected the request \(HTTP 422\): name is too long/, /Check this item/],
		[401, /rejected the API key \(HTTP 401\)/, /check the API key/],
		[403, /not allowed to do this \(HTTP 403\)/, /lacks permission/],
		[404, /Nothing was found at https:\/\/video.example.com\/v1\/rooms \(HTTP 404\)/, /Base URL/],
		[500, /server error \(HTTP 500\)/, /not repeated/],
		[503, /server error \(HTTP 503\)/, /may have processed it/],
		[409, /answered HTTP 409/, /not repeated/],
	])('maps HTTP %p to a message that says what happened and what to do', (status, message, hint) => {
		const error = httpStatusError(failed, status, { message: 'name is too long' });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toMatch(message);
		expect(error.message).toMatch(/\[item 2\]$/);
		expect(error.description).toMatch(hint);
		expect(error.httpCode).toBe(String(status));
		expect(error.context.itemIndex).toBe(2);
	});

	it('removes the key when the platform echoes it', () => {
		const error = httpStatusError(failed, 400, { message: 'bad header Bearer sk_live_secret' });
		expect(error.message).toContain('Bearer [redacted]');
		expect(JSON.stringify(error)).not.toContain('sk_live_secret');
		expect(redact('a sk_live_secret b', '')).toBe('a sk_live_secret b');
	});

	it.each([
		['ECONNREFUSED', /connection was refused/],
		['ENOTFOUND', /not found \(DNS\)/],
		['ECONNABORTED', /timeout/],
		['EWHATEVER', /network error EWHATEVER/],
	])('explains the network error %p', (code, reason) => {
		const cause = Object.assign(new Error('boom'), {
			code,
			config: { headers: { Authorization: 'Bearer sk_live_secret' } },
		});
		const error = unreachableError(failed, new NodeApiError(testNode, cause as never));
		expect(error.message).toMatch(/^Cannot reach the base URL https:\/\/video.example.com: /);
		expect(error.message).toMatch(reason);
		expect(error.httpCode).toBeNull();
		expect(JSON.stringify(error)).not.toContain('sk_live_secret');
		expect(JSON.stringify(error.cause ?? {})).not.toContain('sk_live_secret');
	});
});

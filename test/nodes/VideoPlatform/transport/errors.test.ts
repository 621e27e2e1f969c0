import { NodeApiError } from 'n8n-workflow';

import { httpStatusError } from '../../../../nodes/VideoPlatform/transport/errors';
import { failedCreateRoom as failed } from '../../../helpers/platformClient';

describe('error mapping', () => {
	it.each([
		[400, /rejected the request \(HTTP 400\): name is too long/, /Check this item/],
		[422, /rejected the request \(HTTP 422\): name is too long/, /Check this item/],
		[401, /rejected the API key \(HTTP 401\)/, /check the API key/],
		[403, /not allowed to do this \(HTTP 403\)/, /lacks permission/],
		[404, /Nothing was found at https:\/\/video.example.com\/v1\/rooms \(HTTP 404\)/, /Base URL/],
		[431, /refused the request headers as too large \(HTTP 431\)/, /API key may be too long/],
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
	});
});

import { NodeApiError } from 'n8n-workflow';

import { noAnswerError } from '../../../../nodes/VideoPlatform/transport/unanswered';
import { testNode } from '../../../helpers/executeContext';
import { failedCreateRoom as failed, MAY_HAVE_CREATED_ROOM as MAY_HAVE } from '../../../helpers/platformClient';

/** An error as n8n-core wraps what the HTTP layer threw, with the key in its request config. */
function wrapped(code: string) {
	const cause = Object.assign(new Error('boom'), {
		code,
		config: { headers: { Authorization: 'Bearer sk_live_secret' } },
	});
	return new NodeApiError(testNode, cause as never);
}

describe('a request without an HTTP answer', () => {
	it.each([
		['ECONNREFUSED', 'Cannot reach the base URL https://video.example.com: the connection was refused'],
		['ENOTFOUND', 'Cannot reach the base URL https://video.example.com: the host name was not found (DNS)'],
		['EAI_AGAIN', 'Cannot reach the base URL https://video.example.com: the host name could not be looked up (DNS)'],
	])('%p: nothing was sent, so check the Base URL', (code, message) => {
		const error = noAnswerError(failed, wrapped(code), 60_000);
		expect(error.message).toBe(`${message} [item 2]`);
		expect(error.description).toMatch(/^Nothing was sent\. Check the Base URL/);
		expect(error.httpCode).toBeNull();
		expect(JSON.stringify(error)).not.toContain('sk_live_secret');
	});

	it.each([
		['ECONNRESET', 'The connection to https://video.example.com broke before an answer came: the connection was reset'],
		['EPIPE', 'The connection to https://video.example.com broke before an answer came: the connection was closed'],
		['EWHATEVER', 'The connection to https://video.example.com broke before an answer came: network error EWHATEVER'],
		['ECONNABORTED', 'No complete answer from https://video.example.com within 60 s (timeout)'],
		['ETIMEDOUT', 'No complete answer from https://video.example.com within 60 s (timeout)'],
	])('%p: the request may have been processed', (code, message) => {
		const error = noAnswerError(failed, wrapped(code), 60_000);
		expect(error.message).toBe(`${message} [item 2]`);
		expect(error.description).toBe(MAY_HAVE);
		expect(JSON.stringify(error)).not.toContain('sk_live_secret');
	});
});

import { Readable } from 'node:stream';

import { CompliantLimit } from '../../../tools/bench/compliant-limit/CompliantLimit.node';

/** One item through the compliant limit with its answer read as a bounded stream, Continue On Fail on. */
async function runWithAnswer(body: Readable) {
	const requests: Array<Record<string, unknown>> = [];
	const context = {
		getInputData: () => [{ json: {} }],
		getCredentials: async () => ({ baseUrl: 'http://platform.test', apiKey: 'bench-key' }),
		getNode: () => ({ credentials: { videoPlatformApi: { id: '1', name: 'bench' } } }),
		getNodeParameter: (name: string) => ({ answer: 'boundedStream', name: 'Math', type: 'conference' })[name],
		continueOnFail: () => true,
		helpers: {
			httpRequestWithAuthentication: async (_type: string, request: Record<string, unknown>) => {
				requests.push(request);
				return { body };
			},
		},
	};
	const [output] = await new CompliantLimit().execute.call(context as never);
	return { json: output[0].json, requests };
}

/** A stream the test feeds after the node has started reading it. */
function fedLater(feed: (body: Readable) => void) {
	const body = new Readable({ read() {} });
	setImmediate(() => feed(body));
	return body;
}

describe("the bench's compliant limit with the bounded answer", () => {
	it('asks for the answer as a stream and parses it whole, however it is split', async () => {
		const { json, requests } = await runWithAnswer(Readable.from([Buffer.from('{"id":'), Buffer.from('"r1"}')]));
		expect(json).toEqual({ id: 'r1' });
		expect(requests).toEqual([expect.objectContaining({ encoding: 'stream', returnFullResponse: true, body: { name: 'Math', type: 'conference' } })]);
	});

	it('fails the item on an answer that is not JSON', async () => {
		expect((await runWithAnswer(Readable.from([Buffer.from('')]))).json).toEqual({ error: expect.stringMatching(/JSON/) });
	});

	it('fails the item on a stream destroyed before its end', async () => {
		const body = fedLater((stream) => {
			stream.push(Buffer.from('{"id":'));
			stream.destroy();
		});
		expect((await runWithAnswer(body)).json).toEqual({ error: 'The answer was cut off' });
	});

	it('stops reading past 10 MiB', async () => {
		const body = fedLater((stream) => stream.push(Buffer.alloc(10 * 1024 * 1024 + 1, 32)));
		expect((await runWithAnswer(body)).json).toEqual({ error: 'The answer is larger than 10485760 bytes' });
		expect(body.destroyed).toBe(true);
	});
});

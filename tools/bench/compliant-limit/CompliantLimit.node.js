'use strict';
// The benchmark's "compliant limit": for each item, the same Name and Type parameters as the
// Video Platform node and the same request through httpRequestWithAuthentication, at the same
// concurrency; nothing else (no pacing, no error mapping, no deadline or redaction). Like the node,
// it hands n8n the credential it read once, so that n8n does not decrypt it again for every item.
// Answer "Bounded Stream" reads the answer as the node must (docs/security.md, "Answer size"):
// a stream from n8n's client, read up to the node's 10 MiB cap, then parsed. That is the only
// client option n8n offers that lets a node stop reading, so the two limits differ by its cost.
const CONCURRENCY = 10;
const MAX_ANSWER_BYTES = 10 * 1024 * 1024;

/**
 * The answer's bytes up to the cap, as JSON; fails on a larger or broken answer, and on a stream
 * that closes before its end.
 * @param {import('node:stream').Readable} body
 * @returns {Promise<Record<string, any>>}
 */
function readBounded(body) {
	return new Promise((resolve, reject) => {
		/** @type {Buffer[]} */
		const chunks = [];
		let size = 0;
		body.on('data', (/** @type {Buffer} */ chunk) => {
			size += chunk.length;
			if (size <= MAX_ANSWER_BYTES) {
				chunks.push(chunk);
				return;
			}
			body.destroy();
			reject(new Error(`The answer is larger than ${MAX_ANSWER_BYTES} bytes`));
		});
		body.on('end', () => {
			try {
				resolve(JSON.parse((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8')));
			} catch (error) {
				reject(error);
			}
		});
		body.on('error', reject);
		// After 'end' this settles nothing: the promise is resolved already.
		body.on('close', () => reject(new Error('The answer was cut off')));
	});
}

class CompliantLimit {
	description = {
		displayName: 'Bench Compliant Limit',
		name: 'compliantLimit',
		group: ['transform'],
		version: 1,
		description: 'Benchmark only',
		defaults: { name: 'Bench Compliant Limit' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'videoPlatformApi', required: true }],
		properties: [
			{ displayName: 'Name', name: 'name', type: 'string', default: '' },
			{ displayName: 'Type', name: 'type', type: 'string', default: 'conference' },
			{
				displayName: 'Answer',
				name: 'answer',
				type: 'options',
				options: [
					{ name: 'Parsed by n8n', value: 'json' },
					{ name: 'Bounded Stream', value: 'boundedStream' },
				],
				default: 'json',
			},
		],
	};

	/**
	 * @this {import('n8n-workflow').IExecuteFunctions}
	 * @returns {Promise<import('n8n-workflow').INodeExecutionData[][]>}
	 */
	async execute() {
		const items = this.getInputData();
		const data = await this.getCredentials('videoPlatformApi');
		const reference = this.getNode().credentials?.videoPlatformApi;
		const credentialsDecrypted = { id: reference?.id ?? '', name: reference?.name ?? '', type: 'videoPlatformApi', data };
		const bounded = this.getNodeParameter('answer', 0) === 'boundedStream';
		/** @type {import('n8n-workflow').INodeExecutionData[]} */
		const output = new Array(items.length);
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const i = next++;
				const body = { name: String(this.getNodeParameter('name', i)), type: String(this.getNodeParameter('type', i)) };
				try {
					/** @type {import('n8n-workflow').IHttpRequestOptions} */
					const request = { method: 'POST', url: `${data.baseUrl}/v1/rooms`, body, json: true };
					if (bounded) Object.assign(request, { encoding: 'stream', returnFullResponse: true });
					const answer = await this.helpers.httpRequestWithAuthentication.call(this, 'videoPlatformApi', request, { credentialsDecrypted });
					const json = bounded ? await readBounded(answer.body) : answer;
					output[i] = { json, pairedItem: { item: i } };
				} catch (error) {
					// Continue On Fail, as every scenario runs, so that a 429 fails its item, not the run.
					if (!this.continueOnFail()) throw error;
					output[i] = { json: { error: /** @type {Error} */ (error).message }, pairedItem: { item: i } };
				}
			}
		};
		await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
		return [output];
	}
}

module.exports = { CompliantLimit };

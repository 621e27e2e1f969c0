'use strict';
// The benchmark's "compliant limit": for each item, the same Name and Type parameters as the
// Video Platform node and the same request through httpRequestWithAuthentication, at the same
// concurrency; nothing else (no pacing, no error mapping, no size or deadline rules). Like the node,
// it hands n8n the credential it read once, so that n8n does not decrypt it again for every item.
const CONCURRENCY = 10;

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
		/** @type {import('n8n-workflow').INodeExecutionData[]} */
		const output = new Array(items.length);
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const i = next++;
				const body = { name: String(this.getNodeParameter('name', i)), type: String(this.getNodeParameter('type', i)) };
				try {
					const json = await this.helpers.httpRequestWithAuthentication.call(this, 'videoPlatformApi', {
						method: 'POST',
						url: `${data.baseUrl}/v1/rooms`,
						body,
						json: true,
					}, { credentialsDecrypted });
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

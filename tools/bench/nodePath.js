'use strict';
// The Video Platform node's own code path (router, transport, pacer, from `dist`) outside n8n,
// with n8n's context reduced to what the node reads, and the plain item loop the benches set
// against it: for the bench that measures the node's part alone (memory.js).
const path = require('node:path');

const { repoRoot } = require('../common/paths');
const { router } = require(path.join(repoRoot, 'dist/nodes/VideoPlatform/actions/router.js'));

/**
 * @typedef {{ json: Record<string, any>, pairedItem?: { item: number } }} Item
 * @typedef {(options: import('n8n-workflow').IHttpRequestOptions) => Promise<any>} Send  what httpRequestWithAuthentication does once n8n has set the header
 */

/**
 * Room → Create on every item (Name from the item's `name`, Type Conference), Continue On Fail on.
 * @param {Item[]} items
 * @param {{ baseUrl: string, apiKey: string, concurrency: number, send: Send }} setup
 * @returns {Promise<Item[]>}
 */
async function runNodePath(items, { baseUrl, apiKey, concurrency, send }) {
	/** @type {Record<string, unknown>} */
	const parameters = { resource: 'room', operation: 'create', type: 'conference', 'options.maxConcurrentRequests': concurrency };
	const context = {
		getNode: () => ({ name: 'Video Platform', type: 'videoPlatform', typeVersion: 1, parameters: {}, credentials: {} }),
		getInputData: () => items,
		continueOnFail: () => true,
		getCredentials: async () => ({ baseUrl, apiKey }),
		getNodeParameter: (/** @type {string} */ name, /** @type {number} */ itemIndex, /** @type {unknown} */ fallback) =>
			name === 'name' ? items[itemIndex].json.name : parameters[name] ?? fallback,
		helpers: {
			httpRequestWithAuthentication: async (/** @type {string} */ _type, /** @type {import('n8n-workflow').IHttpRequestOptions} */ options) => await send(options),
		},
	};
	const [output] = await router.call(context);
	return output;
}

/**
 * What a loop without the node does: `send` on every item, at most `concurrency` under way, its
 * answer as the item's json.
 * @param {Item[]} items
 * @param {number} concurrency
 * @param {(item: Item) => Promise<Record<string, any>>} send
 * @returns {Promise<Item[]>}
 */
async function eachItem(items, concurrency, send) {
	/** @type {Item[]} */
	const output = new Array(items.length);
	let next = 0;
	const worker = async () => {
		while (next < items.length) {
			const i = next++;
			output[i] = { json: await send(items[i]), pairedItem: { item: i } };
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	return output;
}

module.exports = { runNodePath, eachItem };

'use strict';
// The trigger bench's yardstick: a community trigger with nothing but what n8n requires. One
// webhook answered on receipt, the parsed body as one item. With Authentication on, it checks one
// header against the Video Platform webhook credential as the package's trigger does (both sides
// trimmed, SHA-256 of each, compared in constant time), since n8n's Webhook node is no yardstick
// for a community trigger: n8n 2.x spares only that node the expression isolate on the webhook path.
const { createHash, timingSafeEqual } = require('node:crypto');

const digest = (/** @type {string} */ value) => createHash('sha256').update(value.trim(), 'utf8').digest();

/**
 * Whether the header's value is the secret, as the package's trigger compares them.
 * @param {unknown} provided
 * @param {unknown} secret
 */
function headerMatches(provided, secret) {
	if (typeof provided !== 'string' || typeof secret !== 'string' || secret.trim() === '') return false;
	return timingSafeEqual(digest(provided), digest(secret));
}

class MinimalTrigger {
	description = {
		displayName: 'Bench Minimal Trigger',
		name: 'minimalTrigger',
		group: ['trigger'],
		// Above 1, as the package's trigger is: at version 1 n8n evaluates an expression per delivery for any start node.
		version: 2,
		description: 'Benchmark only',
		defaults: { name: 'Bench Minimal Trigger' },
		inputs: [],
		outputs: ['main'],
		credentials: [{ name: 'videoPlatformWebhookApi', required: true, displayOptions: { show: { authentication: ['secretHeader'] } } }],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', responseData: '', path: 'webhook' }],
		properties: [
			{
				displayName: 'Authentication',
				name: 'authentication',
				type: 'options',
				options: [
					{ name: 'None', value: 'none' },
					{ name: 'Shared Secret Header', value: 'secretHeader' },
				],
				default: 'none',
			},
		],
	};

	/**
	 * @this {import('n8n-workflow').IWebhookFunctions}
	 * @returns {Promise<import('n8n-workflow').IWebhookResponseData>}
	 */
	async webhook() {
		if (this.getNodeParameter('authentication', 'none') !== 'none') {
			const { headerName, secret } = await this.getCredentials('videoPlatformWebhookApi');
			if (!headerMatches(this.getHeaderData()[String(headerName).trim().toLowerCase()], secret)) {
				this.getResponseObject().status(401).json({ received: false });
				return { noWebhookResponse: true };
			}
		}
		return { webhookResponse: { received: true }, workflowData: [[{ json: this.getBodyData() }]] };
	}
}

module.exports = { MinimalTrigger, headerMatches };

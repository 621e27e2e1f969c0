import './shared/supportedN8n';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { actionGuidance, asTool } from './actions/guidance';
import { properties } from './actions/properties';
import { router } from './actions/router';
import { API_CREDENTIAL } from './shared/credentials';

export class VideoPlatform implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Video Platform',
		name: 'videoPlatform',
		icon: { light: 'file:videoPlatform.svg', dark: 'file:videoPlatform.dark.svg' },
		group: ['output'],
		version: 1,
		// n8n's own value for Custom API Call would otherwise show as "__CUSTOM_API_CALL__: room".
		subtitle:
			'={{[$parameter["resource"], $parameter["operation"]].includes("__CUSTOM_API_CALL__") ? "Custom API Call" : $parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Create rooms on your video platform, and drop its redelivered webhooks',
		defaults: { name: 'Video Platform' },
		usableAsTool: asTool,
		// Editor hints and the AI builder's hint (actions/guidance.ts); n8n versions without one ignore it.
		...actionGuidance,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: API_CREDENTIAL.type,
				required: true,
				// Webhook Delivery sends nothing to the platform. Hidden there rather than shown for Room:
				// n8n's publish check reads saved parameters, which leave out a default resource, so
				// "show" would let a Room node without a credential through.
				displayOptions: { hide: { resource: ['webhookDelivery'] } },
			},
		],
		// Every field, in the editor's order.
		properties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}

import type { INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, updateDisplayOptions } from 'n8n-workflow';

import { EDITOR_NAMES } from '../shared/deliveryKey';
import { API_CREDENTIAL } from '../shared/credentials';
import { concurrencyOption } from './concurrency';
import { actionGuidance, asTool } from './guidance';
import * as create from './room/create.operation';
import { createOncePerKeyOption } from './room/oncePerKey/option';
import * as dropRedelivered from './webhookDelivery/dropRedelivered.operation';

/**
 * Everything the editor shows of the Video Platform node, in the order it shows it: the Resource
 * list, then per resource its Operation list and each operation's fields (from its operation
 * file), then its Options. The router runs an operation by these values (resources.ts).
 */
export const versionDescription: INodeTypeDescription = {
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
	// Editor hints and the AI builder's hint (guidance.ts); n8n versions without one ignore it.
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
	properties: [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Room', value: 'room' },
				// Not offered to AI agents: it works on a run's items, and an agent's call is one item.
				// n8n 2.x's editor honours this; n8n 1.x's lists it anyway, and the router refuses it there.
				{ name: 'Webhook Delivery', value: 'webhookDelivery', displayOptions: { show: { '@tool': [false] } } },
			],
			default: 'room',
		},

		// Room
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: ['room'] } },
			options: [{ name: 'Create', value: 'create', description: 'Create a room', action: 'Create a room' }],
			default: 'create',
		},
		...updateDisplayOptions({ show: { resource: ['room'], operation: ['create'] } }, [
			...create.properties,
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				// In alphabetical order, as n8n lists the options once added.
				options: [createOncePerKeyOption, concurrencyOption],
			},
		]),

		// Webhook Delivery
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: ['webhookDelivery'] } },
			options: [
				{
					name: 'Drop Redelivered',
					value: 'dropRedelivered',
					description: "Let each of the trigger's deliveries through once, by its delivery key",
					action: EDITOR_NAMES.dropRedeliveredAction,
				},
			],
			default: 'dropRedelivered',
		},
		...updateDisplayOptions({ show: { resource: ['webhookDelivery'], operation: ['dropRedelivered'] } }, dropRedelivered.properties),
	],
};

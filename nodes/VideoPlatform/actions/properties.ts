import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { EDITOR_NAMES } from '../shared/deliveryKey';
import { concurrencyOption } from './concurrency';
import * as create from './room/create.operation';
import { createOncePerKeyOption } from './room/oncePerKey/option';
import * as dropRedelivered from './webhookDelivery/dropRedelivered.operation';

/**
 * Every field the editor shows in the Video Platform node, in its order: the Resource list, then
 * per resource its Operation list and each operation's fields (from its operation file) and
 * Options. The router runs an operation by these values (resources.ts).
 */
export const properties: INodeProperties[] = [
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
];

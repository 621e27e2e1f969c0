import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import * as dropRedelivered from './dropRedelivered.operation';

export const resource: INodePropertyOptions = { name: 'Webhook Delivery', value: 'webhookDelivery' };

export const operations = { dropRedelivered };

export const description: INodeProperties[] = [
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
				action: 'Drop redelivered webhook deliveries',
			},
		],
		default: 'dropRedelivered',
	},
	...dropRedelivered.description,
];

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import * as create from './create.operation';

export const resource: INodePropertyOptions = { name: 'Room', value: 'room' };

export const operations = { create };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['room'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a room',
				action: 'Create a room',
			},
		],
		default: 'create',
	},
	...create.description,
];

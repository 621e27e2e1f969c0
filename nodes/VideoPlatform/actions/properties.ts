import type { INodeProperties } from 'n8n-workflow';

import { resources } from './resources';

const resourceList = Object.values(resources);

/** The Resource selector, then each resource's Operation selector and fields. */
export const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: resourceList.map((entry) => entry.resource),
		default: 'room',
	},
	...resourceList.flatMap((entry) => entry.description),
];

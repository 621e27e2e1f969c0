import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { resources, resourcesWithoutRequests } from './resources';

const resourceList = Object.values(resources);

/**
 * A resource that calls no platform endpoint is left out of the AI tool variant. n8n 2.x's
 * editor honours this; n8n 1.x's lists it anyway, and the router refuses it there.
 */
function resourceOption({ resource }: { resource: INodePropertyOptions }): INodePropertyOptions {
	if (!resourcesWithoutRequests.includes(String(resource.value))) return resource;
	return { ...resource, displayOptions: { show: { '@tool': [false] } } };
}

/** The Resource selector, then each resource's Operation selector and fields. */
export const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: resourceList.map(resourceOption),
		default: 'room',
	},
	...resourceList.flatMap((entry) => entry.description),
];

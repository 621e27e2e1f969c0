import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Resource } from './resources';
import { resources, resourcesWithoutRequests } from './resources';
import { runOptions } from './router';

const resourceList = Object.values(resources);

/**
 * A resource that calls no platform endpoint is left out of the AI tool variant. n8n 2.x's
 * editor honours this; n8n 1.x's lists it anyway, and the router refuses it there.
 */
function resourceOption({ resource }: { resource: INodePropertyOptions }): INodePropertyOptions {
	if (!resourcesWithoutRequests.includes(String(resource.value))) return resource;
	return { ...resource, displayOptions: { show: { '@tool': [false] } } };
}

/** A resource's fields, each operation that sends requests followed by the router's Options for it. */
function fieldsOf(resource: string, entry: Resource): INodeProperties[] {
	const options = Object.entries(entry.operations)
		.filter(([, operation]) => operation.kind === 'item')
		.flatMap(([operation]) => updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, [runOptions]));
	return [...entry.description, ...options];
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
	...Object.entries(resources).flatMap(([resource, entry]) => fieldsOf(resource, entry)),
];

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { resources, resourcesWithoutRequests } from './resources';
import type { Resource } from './types';
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

/** A resource's Operation selector, built from its `operations`: the first is the default. */
function operationSelector(resource: string, entry: Resource): INodeProperties {
	const operations = Object.entries(entry.operations);
	const [[first]] = operations;
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: operations.map(([value, { option }]) => ({ name: option.name, value, description: option.description, action: option.action })),
		default: first,
	};
}

/** The router's Options with an operation's own, in alphabetical order as n8n lists options. */
function withOwnOptions(own: INodeProperties[] = []): INodeProperties {
	if (own.length === 0) return runOptions;
	const all = [...(runOptions.options as INodeProperties[]), ...own].sort((a, b) => a.displayName.localeCompare(b.displayName));
	return { ...runOptions, options: all };
}

/** A resource's selector and fields: each operation's, then the router's Options for those that send requests. */
function fieldsOf(resource: string, entry: Resource): INodeProperties[] {
	const operations = Object.entries(entry.operations);
	const shownFor = (operation: string) => ({ show: { resource: [resource], operation: [operation] } });
	const fields = operations.flatMap(([operation, { properties }]) => updateDisplayOptions(shownFor(operation), properties));
	const options = operations.flatMap(([name, operation]) =>
		operation.kind === 'item' ? updateDisplayOptions(shownFor(name), [withOwnOptions(operation.options)]) : [],
	);
	return [operationSelector(resource, entry), ...fields, ...options];
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

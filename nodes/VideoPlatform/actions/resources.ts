import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { PlatformRequester } from '../transport';
import * as room from './room';

/** One operation file: its fields, and what it does for one item. */
export interface Operation {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, itemIndex: number, platform: PlatformRequester): Promise<IDataObject>;
	/** What a successful item creates on the platform, e.g. "room"; named when a run stops part-way. */
	creates?: string;
}

/** One resource folder: its entry in the Resource list, its operations and all their fields. */
export interface Resource {
	resource: INodePropertyOptions;
	operations: Record<string, Operation>;
	description: INodeProperties[];
}

/** Every resource the node offers. A new resource is one folder and one line here. */
export const resources = { room } satisfies Record<string, Resource>;

function hasOwn(object: object, key: string): boolean {
	return Object.prototype.hasOwnProperty.call(object, key);
}

/** The operation chosen in the node, or undefined when the names are unknown. */
export function findOperation(resource: string, operation: string): Operation | undefined {
	const registry: Record<string, Resource> = resources;
	const entry = hasOwn(registry, resource) ? registry[resource] : undefined;
	return entry && hasOwn(entry.operations, operation) ? entry.operations[operation] : undefined;
}

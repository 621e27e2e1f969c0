import * as create from './room/create.operation';
import type { Operation } from './types';
import * as dropRedelivered from './webhookDelivery/dropRedelivered.operation';

/**
 * The operations the router runs, by the values of the Resource and Operation lists, and the
 * node's description shows (VideoPlatform.node.ts). A new operation is one file and its import
 * and entry here. A resource's first operation is its default in the editor, which saved
 * workflows leave out: the order is part of them.
 */
export const resources = {
	room: { create },
	webhookDelivery: { dropRedelivered },
} satisfies Record<string, Record<string, Operation>>;

const registry: Record<string, Record<string, Operation>> = resources;

function hasOwn(object: object, key: string): boolean {
	return Object.prototype.hasOwnProperty.call(object, key);
}

/** The operation chosen in the node, or undefined when the names are unknown. */
export function findOperation(resource: string, operation: string): Operation | undefined {
	const operations = hasOwn(registry, resource) ? registry[resource] : undefined;
	return operations && hasOwn(operations, operation) ? operations[operation] : undefined;
}

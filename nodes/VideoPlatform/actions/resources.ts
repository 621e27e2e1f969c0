import * as room from './room';
import type { Operation, Resource } from './types';
import * as webhookDelivery from './webhookDelivery';

/** Every resource the node offers. A new resource is one folder and one line here. */
export const resources = { room, webhookDelivery } satisfies Record<string, Resource>;

const registry: Record<string, Resource> = resources;

function hasOwn(object: object, key: string): boolean {
	return Object.prototype.hasOwnProperty.call(object, key);
}

/** The operation chosen in the node, or undefined when the names are unknown. */
export function findOperation(resource: string, operation: string): Operation | undefined {
	const entry = hasOwn(registry, resource) ? registry[resource] : undefined;
	return entry && hasOwn(entry.operations, operation) ? entry.operations[operation] : undefined;
}

/**
 * Resources whose operations send no request: they need no API credential, and they are not
 * offered to AI agents, since a batch operation works on a run's items and an agent's call is one.
 */
export const resourcesWithoutRequests: string[] = Object.entries(registry)
	.filter(([, entry]) => Object.values(entry.operations).every((operation) => operation.kind === 'batch'))
	.map(([name]) => name);

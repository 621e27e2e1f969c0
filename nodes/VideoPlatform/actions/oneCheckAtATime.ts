import type { DeduplicationScope, IExecuteFunctions } from 'n8n-workflow';

/**
 * The list of keys n8n's check reads and writes, named as n8n names it: the workflow, and the node
 * ("n:" and its id) for scope node. Nodes naming the same list share one queue.
 */
export function listOf(context: IExecuteFunctions, scope: DeduplicationScope): string {
	const workflowId = String(context.getWorkflow().id ?? '');
	return scope === 'node' ? `${workflowId}\u0000n:${context.getNode().id}` : `${workflowId}\u0000`;
}

/** The last check queued on each list in this n8n process; a list leaves when its queue is empty. */
const lastQueued = new Map<string, Promise<void>>();

/**
 * Runs `check` once every check queued before it on the same list has ended. n8n reads the whole
 * list, adds the new keys and writes it back without a lock, so two checks at once would each
 * write over the other's keys. A check that fails does not hold up or fail the next one.
 */
export async function oneCheckAtATime<T>(list: string, check: () => Promise<T>): Promise<T> {
	const result = (lastQueued.get(list) ?? Promise.resolve()).then(check);
	const ended = result.then(
		() => undefined,
		() => undefined,
	);
	lastQueued.set(list, ended);
	try {
		return await result;
	} finally {
		if (lastQueued.get(list) === ended) lastQueued.delete(list);
	}
}

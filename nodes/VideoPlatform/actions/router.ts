import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { RateLimitReport } from '../transport';
import { PlatformClient } from '../transport';
import { readConcurrency, runBounded } from './concurrency';
import { errorToJson } from './errorToJson';
import { partWayReport } from './partWay';
import type { ItemOperation, Operation } from './resources';
import { findOperation } from './resources';

/** The operation value n8n's editor gives its own "Custom API Call" entry. */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

function chosenOperation(this: IExecuteFunctions): Operation {
	const resource = String(this.getNodeParameter('resource', 0));
	const operation = String(this.getNodeParameter('operation', 0));
	const found = findOperation(resource, operation);
	if (operation === CUSTOM_API_CALL) {
		throw new NodeOperationError(this.getNode(), 'Custom API Call runs in the HTTP Request node, not in this node', {
			description:
				'Add an HTTP Request node and set Authentication → Predefined Credential Type → Video Platform API; it sends your API key the same way. In this node, pick Room → Create.',
		});
	}
	if (!found) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" on the resource "${resource}" is not supported`,
			{ description: 'Open the node and pick a resource and an operation from its lists.' },
		);
	}
	return found;
}

function asNodeError(this: IExecuteFunctions, error: unknown, itemIndex: number) {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(this.getNode(), error as Error, { itemIndex });
}

/** A slow run explains itself in the editor. Older n8n 1.x has no execution hints: say nothing. */
function reportRateLimits(this: IExecuteFunctions, { refused, pausedMs }: RateLimitReport): void {
	if (refused === 0 || typeof this.addExecutionHints !== 'function') return;
	const requests = refused === 1 ? '1 request' : `${refused} requests`;
	const waited = Number((pausedMs / 1000).toFixed(1));
	const wait = pausedMs > 0 ? `, and the node waited ${waited} s in total before sending again` : '';
	this.addExecutionHints({
		type: 'info',
		location: 'outputPane',
		message: `The platform's rate limit slowed this run: ${requests} got HTTP 429 (Too Many Requests)${wait}.`,
	});
}

/** A stop left items never started: the run has no output, only this error. */
function stoppedRunError(this: IExecuteFunctions, succeeded: number[], total: number) {
	return new NodeOperationError(this.getNode(), 'The execution was stopped before every item was sent', {
		description: `${total - succeeded.length} of ${total} items got no result.`,
	});
}

/** n8n names the AI tool variant of a node by adding "Tool" to its type, and tests that suffix itself. */
function isAiTool(this: IExecuteFunctions): boolean {
	return this.getNode().type.endsWith('Tool');
}

/** Per-item operations run with the platform client; a batch operation gets the whole input. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const operation = chosenOperation.call(this);
	if (operation.kind === 'item') return await runPerItem.call(this, operation);
	// The editor of n8n 1.x still lists batch operations in the tool variant.
	if (isAiTool.call(this)) {
		throw new NodeOperationError(this.getNode(), 'This operation does not run as an AI tool', {
			description:
				'It works on the items of a workflow run, such as the webhook deliveries after the Video Platform Trigger. Use it in a workflow, not attached to an agent; as a tool, pick Room → Create.',
		});
	}
	return [await operation.execute.call(this)];
}

/**
 * Runs the operation for every item with bounded concurrency. Output order and pairedItem
 * follow the input. Without Continue On Fail the first failure stops new requests and waits
 * (a 429's included); those under way finish, then the failure is thrown, saying which items
 * had already succeeded. The user stopping the execution ends waits and requests at once.
 */
async function runPerItem(this: IExecuteFunctions, operation: ItemOperation): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const platform = new PlatformClient(this, operation.creates);
	const continueOnFail = this.continueOnFail();

	const returnData: INodeExecutionData[] = new Array(items.length);
	const succeeded: number[] = [];
	let failure: NodeApiError | NodeOperationError | undefined;
	await runBounded(
		items.length,
		readConcurrency.call(this),
		async (itemIndex) => {
			try {
				const json = await operation.execute.call(this, itemIndex, platform.forItem(itemIndex));
				returnData[itemIndex] = { json, pairedItem: { item: itemIndex } };
				succeeded.push(itemIndex);
			} catch (caught) {
				const error = asNodeError.call(this, caught, itemIndex);
				if (!continueOnFail) {
					failure ??= error;
					platform.stop.stopAfterFailure();
					return;
				}
				returnData[itemIndex] = { json: errorToJson(error), pairedItem: { item: itemIndex } };
			}
		},
		() => platform.stop.reason !== undefined,
	);
	reportRateLimits.call(this, platform.rateLimits);
	failure ??= platform.stop.reason ? stoppedRunError.call(this, succeeded, items.length) : undefined;
	if (failure) {
		const report = partWayReport(succeeded, operation.creates);
		if (report) failure.description = [failure.description, report].filter(Boolean).join(' ');
		throw failure;
	}
	return [returnData];
}

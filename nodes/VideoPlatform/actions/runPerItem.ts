import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { PlatformClientFactory, RateLimitReport } from '../transport';
import { hintInOutputPane } from '../shared/executionHints';
import { errorToJson } from '../shared/itemError';
import { neverStarted, wasNeverSent } from '../transport/stopped';
import { concurrencyOption, DEFAULT_CONCURRENCY, readConcurrency, runBounded } from './concurrency';
import { partWayReport } from './partWay';
import type { ItemOperation } from './resources';

type ItemError = NodeApiError | NodeOperationError;

/** Of the other failures, this many are quoted in the run's error; the rest are counted. */
const MAX_QUOTED_FAILURES = 3;

function asNodeError(this: IExecuteFunctions, error: unknown, itemIndex: number): ItemError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(this.getNode(), error as Error, { itemIndex });
}

/** A slow run explains itself in the editor. */
function reportRateLimits(this: IExecuteFunctions, { refused, pausedMs }: RateLimitReport): void {
	if (refused === 0) return;
	const requests = refused === 1 ? '1 request' : `${refused} requests`;
	const waited = pausedMs > 0 ? `, and the node waited ${Number((pausedMs / 1000).toFixed(1))} s in total` : '';
	hintInOutputPane(this, `The platform's rate limit slowed this run: ${requests} got HTTP 429 (Too Many Requests)${waited}.${fewerAtOnce.call(this)}`);
}

/** With many items at the default concurrency, the likeliest fix for the 429s. */
function fewerAtOnce(this: IExecuteFunctions): string {
	const concurrency = readConcurrency.call(this);
	if (concurrency === 1) return '';
	const current = concurrency === DEFAULT_CONCURRENCY ? `${concurrency}, the default` : String(concurrency);
	return ` To send fewer requests at once, lower Options → ${concurrencyOption.displayName} (now ${current}).`;
}

/** Other items that failed while the run stopped, in their own words, so that none is hidden. */
function alsoFailed(others: ItemError[]): string {
	if (others.length === 0) return '';
	const quoted = others.slice(0, MAX_QUOTED_FAILURES).map((error) => `${error.message}: ${error.description ?? ''}`.trim());
	const more = others.length > MAX_QUOTED_FAILURES ? ` (and ${others.length - MAX_QUOTED_FAILURES} more)` : '';
	return `Also failed in this run${more}: ${quoted.join(' | ')}`;
}

/**
 * The error the run ends with: the first failure that reached the platform or the node's checks,
 * rather than an item that was only held back by the stop; the others that may matter are named.
 */
function runFailure(this: IExecuteFunctions, failures: ItemError[], succeeded: number[], total: number, creates?: string) {
	const primary =
		failures.find((error) => !wasNeverSent(error)) ??
		failures[0] ??
		new NodeOperationError(this.getNode(), 'The execution was stopped before every item was sent', {
			description: `${total - succeeded.length} of ${total} items got no result.`,
		});
	const others = failures.filter((error) => error !== primary && !wasNeverSent(error));
	const report = [partWayReport(succeeded, creates), alsoFailed(others)].filter(Boolean).join(' ');
	if (report) primary.description = [primary.description, report].filter(Boolean).join(' ');
	return primary;
}

/**
 * Runs the operation for every item with bounded concurrency. Output order and pairedItem
 * follow the input. Without Continue On Fail the first failure stops new requests and waits
 * (a 429's included); those under way finish, then the failure is thrown, saying which items
 * had already succeeded. The user stopping the execution ends waits and requests at once.
 */
export async function runPerItem(
	this: IExecuteFunctions,
	operation: ItemOperation,
	createClient: PlatformClientFactory,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const platform = createClient(this, operation.creates);
	const continueOnFail = this.continueOnFail();

	const returnData: INodeExecutionData[] = new Array(items.length);
	const succeeded: number[] = [];
	const failures: ItemError[] = [];
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
				if (continueOnFail) {
					returnData[itemIndex] = { json: errorToJson(error), pairedItem: { item: itemIndex } };
					return;
				}
				failures.push(error);
				platform.stop.stopAfterFailure();
			}
		},
		() => platform.stop.reason !== undefined,
	);
	reportRateLimits.call(this, platform.rateLimits);
	const stopped = platform.stop.reason;
	if (continueOnFail) {
		// After a stop every item still says what became of it, the ones never started included.
		for (let i = 0; i < items.length; i++) {
			returnData[i] ??= {
				json: errorToJson(neverStarted(this.getNode(), i, stopped ?? 'execution-stopped', operation.creates)),
				pairedItem: { item: i },
			};
		}
		return [returnData];
	}
	if (failures.length === 0 && !stopped) return [returnData];
	throw runFailure.call(this, failures, succeeded, items.length, operation.creates);
}

import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { API_CREDENTIAL } from '../shared/credentials';
import { hintInOutputPane } from '../shared/executionHints';
import type { ItemError } from './itemError';
import { asItemError, errorToJson } from './itemError';
import { notStartedError, PlatformClient, seconds } from '../transport/client';
import type { RateLimitReport } from '../transport/pacer';
import { concurrencyOption, DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from './concurrency';
import { findOperation } from './resources';
import type { GuardedRun, ItemOperation, Operation, SentItems } from './types';

function readConcurrency(this: IExecuteFunctions): number {
	const value = Number(this.getNodeParameter(`options.${concurrencyOption.name}`, 0, DEFAULT_CONCURRENCY));
	if (!Number.isFinite(value)) return DEFAULT_CONCURRENCY;
	return Math.min(MAX_CONCURRENCY, Math.max(1, Math.floor(value)));
}

/**
 * Runs `task` for indexes 0..count-1 with at most `limit` under way. Once `stop()` is true no
 * new task starts; the ones under way finish. Only `limit` promises exist at a time, so memory
 * does not grow with `count`.
 */
async function runBounded(
	count: number,
	limit: number,
	task: (index: number) => Promise<void>,
	stop: () => boolean,
): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (!stop() && next < count) await task(next++);
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

/** Indexes as short ranges, e.g. "0-4, 6, 8-9". */
function indexRanges(indexes: number[]): string {
	const sorted = [...indexes].sort((a, b) => a - b);
	const ranges: string[] = [];
	for (let start = 0; start < sorted.length; ) {
		let end = start;
		while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end++;
		ranges.push(start === end ? `${sorted[start]}` : `${sorted[start]}-${sorted[end]}`);
		start = end + 1;
	}
	return ranges.join(', ');
}

/**
 * What a run that stopped at a failure, or that the user stopped, had already done, so that nobody
 * runs the whole workflow again blind to it. Empty when nothing had succeeded.
 */
function partWayReport(succeeded: number[], creates: string, runAgain: string | undefined, byTheUser: boolean): string {
	if (succeeded.length === 0) return '';
	const one = succeeded.length === 1;
	const items = one ? `1 item` : `${succeeded.length} items`;
	const which = `${one ? 'item' : 'items'} ${indexRanges(succeeded)}`;
	const again = `create ${one ? `that ${creates}` : `those ${creates}s`} again`;
	return (
		`${byTheUser ? 'This run was stopped' : 'This run stopped at this failure'}, and ${items} had already got a ${creates} in it (${which}; n8n counts items from 0). ` +
		`${runAgain ?? `Running the whole workflow again would ${again}.`} ` +
		'To run every item and get each failure as an output item instead, set Settings → On Error to "Continue" on this node.'
	);
}

type GuardAdvice = Extract<GuardedRun, { kind: 'send' }>['advice'];

/** Of the items sent, which got their room and which have none (the others may have one). */
function sentItems(sent: number[], succeeded: number[], platform: PlatformClient): SentItems {
	const created = new Set(succeeded);
	return { created: succeeded, notCreated: sent.filter((itemIndex) => !created.has(itemIndex) && !platform.mayHaveActedFor(itemIndex)) };
}

/** Of the other failures, this many are quoted in the run's error; all are named by number. */
const MAX_QUOTED_FAILURES = 3;

/** A slow run explains itself in the editor. */
function reportRateLimits(this: IExecuteFunctions, { refused, pausedMs }: RateLimitReport): void {
	if (refused === 0) return;
	const requests = refused === 1 ? '1 request' : `${refused} requests`;
	const waited = pausedMs > 0 ? `, and the node waited ${seconds(pausedMs)} in total` : '';
	hintInOutputPane(this, `The platform's rate limit slowed this run: ${requests} got HTTP 429 (Too Many Requests)${waited}.${fewerAtOnce.call(this)}`);
}

/** With many items at the default concurrency, the likeliest fix for the 429s. */
function fewerAtOnce(this: IExecuteFunctions): string {
	const concurrency = readConcurrency.call(this);
	if (concurrency === 1) return '';
	const current = concurrency === DEFAULT_CONCURRENCY ? `${concurrency}, the default` : String(concurrency);
	return ` To send fewer requests at once, lower Options → ${concurrencyOption.displayName} (now ${current}).`;
}

/** Every other item whose request the platform may have acted on, by number: none may be run again blind. */
function mayExistReport(items: number[], creates: string, advice?: string): string {
	if (items.length === 0) return '';
	const one = items.length === 1;
	const which = `${one ? 'item' : 'items'} ${indexRanges(items)}`;
	return `Of the other items, the platform may have created a ${creates} for ${which} (n8n counts items from 0): ${advice ?? `check the platform before you run ${one ? 'it' : 'them'} again.`}`;
}

/** Other items that failed while the run stopped, in their own words; past a few, named by number. */
function alsoFailed(others: Array<{ itemIndex: number; error: ItemError }>): string {
	if (others.length === 0) return '';
	const quoted = others.slice(0, MAX_QUOTED_FAILURES).map(({ error }) => [error.message, error.description].filter(Boolean).join(': '));
	const every =
		others.length > MAX_QUOTED_FAILURES
			? ` (items ${indexRanges(others.map(({ itemIndex }) => itemIndex))}; the first ${MAX_QUOTED_FAILURES} in their own words)`
			: '';
	return `Also failed in this run${every}: ${quoted.join(' | ')}`;
}

/**
 * The error the run ends with: the first failure that reached the platform or the node's checks,
 * rather than an item that was only held back by the stop; the others that may matter are named.
 */
function runFailure(
	this: IExecuteFunctions,
	failures: Array<{ itemIndex: number; error: ItemError }>,
	succeeded: number[],
	total: number,
	platform: PlatformClient,
	creates: string,
	advice?: GuardAdvice,
) {
	const mayMatter = failures.filter(({ itemIndex }) => !platform.wasHeldBack(itemIndex));
	const primary =
		mayMatter[0]?.error ??
		failures[0]?.error ??
		new NodeOperationError(this.getNode(), 'The execution was stopped before every item was sent', {
			description: `${total - succeeded.length} of ${total} items got no result.`,
		});
	const others = mayMatter.filter(({ error }) => error !== primary);
	const mayExist = others.filter(({ itemIndex }) => platform.mayHaveActedFor(itemIndex)).map(({ itemIndex }) => itemIndex);
	const report = [partWayReport(succeeded, creates, advice?.runAgain, failures.length === 0), mayExistReport(mayExist, creates, advice?.mayExist), alsoFailed(others)].filter(Boolean).join(' ');
	if (report) primary.description = [primary.description, report].filter(Boolean).join(' ');
	return primary;
}

/**
 * Runs the operation for every item with bounded concurrency. Output order and pairedItem
 * follow the input. Without Continue On Fail the first failure stops new requests and waits
 * (a 429's included); those under way finish, then the failure is thrown, saying which items
 * had already succeeded. The user stopping the execution ends waits and requests at once.
 */
async function runPerItem(
	this: IExecuteFunctions,
	operation: ItemOperation,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const guarded = await operation.guardRun?.call(this);
	if (guarded?.kind === 'answered') return [guarded.output];
	const platform = new PlatformClient(this, operation.creates);
	const continueOnFail = this.continueOnFail();

	const returnData: INodeExecutionData[] = new Array(items.length);
	// Without a guard every item is sent, by its own index.
	const toSend = guarded && items.map((_, itemIndex) => itemIndex).filter((itemIndex) => !guarded.answered.has(itemIndex));
	guarded?.answered.forEach((json, itemIndex) => (returnData[itemIndex] = { json, pairedItem: { item: itemIndex } }));
	const succeeded: number[] = [];
	const failures: Array<{ itemIndex: number; error: ItemError }> = [];
	await runBounded(
		toSend ? toSend.length : items.length,
		readConcurrency.call(this),
		async (next) => {
			const itemIndex = toSend ? toSend[next] : next;
			try {
				const json = await operation.execute.call(this, itemIndex, platform.forItem(itemIndex));
				returnData[itemIndex] = { json, pairedItem: { item: itemIndex } };
				succeeded.push(itemIndex);
			} catch (caught) {
				const error = asItemError(this.getNode(), caught, itemIndex);
				if (continueOnFail) {
					returnData[itemIndex] = { json: errorToJson(error), pairedItem: { item: itemIndex } };
					return;
				}
				failures.push({ itemIndex, error });
				platform.stop.stopAfterFailure();
			}
		},
		() => platform.stop.reason !== undefined,
	);
	if (guarded && toSend) await guarded.finish(sentItems(toSend, succeeded, platform));
	reportRateLimits.call(this, platform.rateLimits);
	const stopped = platform.stop.reason;
	if (continueOnFail) {
		// After a stop every item still says what became of it, the ones never started included.
		for (let i = 0; i < items.length; i++) {
			returnData[i] ??= {
				json: errorToJson(notStartedError(this.getNode(), i, stopped ?? 'execution-stopped', operation.creates)),
				pairedItem: { item: i },
			};
		}
		return [returnData];
	}
	if (failures.length === 0 && !stopped) return [returnData];
	throw runFailure.call(this, failures, succeeded, items.length, platform, operation.creates, guarded?.advice);
}

/** The operation value n8n's editor gives its own "Custom API Call" entry. */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

function chosenOperation(this: IExecuteFunctions): Operation {
	const resource = String(this.getNodeParameter('resource', 0));
	const operation = String(this.getNodeParameter('operation', 0));
	const found = findOperation(resource, operation);
	if (operation === CUSTOM_API_CALL) {
		throw new NodeOperationError(this.getNode(), 'Custom API Call runs in the HTTP Request node, not in this node', {
			description:
				`Add an HTTP Request node and set Authentication → Predefined Credential Type → ${API_CREDENTIAL.displayName}; it sends your API key the same way. In this node, pick Room → Create.`,
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

/** n8n names the AI tool variant of a node by adding "Tool" to its type, and tests that suffix itself. */
function isAiTool(this: IExecuteFunctions): boolean {
	return this.getNode().type.endsWith('Tool');
}

/** Per-item operations run with one platform client per run; a batch operation gets the whole input. */
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

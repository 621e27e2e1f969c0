import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { quotable } from '../shared/secretTraces';
import { systemClock } from '../transport/stop';
import type { TimedCheck } from './keysKept';
import { forgetLetThrough } from './keysKept';
import { listOf, oneCheckAtATime } from './oneCheckAtATime';

/**
 * The keys n8n remembers for a node in its database (its deduplication helpers), as Drop
 * Redelivered and Room → Create's Create Once Per Key use them: the same settings, the same lists.
 */

/** Whose keys n8n keeps apart: this node's own, or one list for the whole workflow. */
export type KeyScope = 'node' | 'workflow';

const DEFAULT_KEYS_REMEMBERED = 10_000;
/** n8n reads and writes all remembered keys on every run: about 2.7 MB at this bound. */
const MAX_KEYS_REMEMBERED = 100_000;

/** The Keys Remembered field, described for its operation. */
export function keysRememberedField(description: string): INodeProperties {
	return {
		displayName: 'Keys Remembered',
		name: 'keysRemembered',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_KEYS_REMEMBERED, numberPrecision: 0 },
		default: DEFAULT_KEYS_REMEMBERED,
		description,
	};
}

export function readKeysRemembered(this: IExecuteFunctions, parameter: string): number {
	const value: unknown = this.getNodeParameter(parameter, 0, DEFAULT_KEYS_REMEMBERED);
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_KEYS_REMEMBERED) {
		throw new NodeOperationError(this.getNode(), `Keys Remembered must be a whole number from 1 to ${MAX_KEYS_REMEMBERED}, not ${quotable(typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value)), '')}`, {
			description: `n8n keeps this many of the newest keys. ${DEFAULT_KEYS_REMEMBERED} (the default) is about 270 KB in its database.`,
		});
	}
	return value;
}

export function readScope(this: IExecuteFunctions, parameter: string): KeyScope {
	const scope: unknown = this.getNodeParameter(parameter, 0, 'node');
	if (scope !== 'node' && scope !== 'workflow') {
		throw new NodeOperationError(this.getNode(), `Remember Keys For must be This Node or Whole Workflow, not ${quotable(JSON.stringify(scope) ?? String(scope), '')}`);
	}
	return scope;
}

/**
 * n8n creates a workflow's list of keys on its first check; two first checks at once both try, and
 * one fails on the database's unique constraint (seen on SQLite: SQLITE_CONSTRAINT; PostgreSQL says
 * "duplicate key"). That failed check wrote nothing, and the list now exists.
 */
const LIST_CREATED_CONCURRENTLY = /SQLITE_CONSTRAINT|UNIQUE constraint|duplicate key/i;

type Asked = { keys: string[]; answer: (result: Awaited<ReturnType<TimedCheck>>) => void; fail: (reason: unknown) => void };
type Batch = { maxEntries: number; checks: Asked[] };
/**
 * Per list, the checks asked for that wait for their turn, to be made as one, while nothing else
 * is queued on the list after them: a later check joins them only then, and with the same bound,
 * so that no check runs before one asked for earlier (a removal, a check with another bound).
 */
const openBatches = new Map<string, Batch>();

/**
 * n8n's check of `keys` on this node's list, one at a time within this n8n process, timed. Checks
 * asked for while the list's turn is taken wait and are then made as one: n8n reads and writes the
 * whole list per check, so ten runs at once would otherwise wait for ten such writes in turn.
 */
export function timedCheck(this: IExecuteFunctions, scope: KeyScope, maxEntries: number): TimedCheck {
	const list = listOf(this, scope);
	return async (keys) =>
		await new Promise((answer, fail) => {
			const open = openBatches.get(list);
			if (open?.maxEntries === maxEntries) return void open.checks.push({ keys, answer, fail });
			const batch = { maxEntries, checks: [{ keys, answer, fail }] };
			openBatches.set(list, batch);
			void oneCheckAtATime(list, async () => {
				if (openBatches.get(list) === batch) openBatches.delete(list);
				await checkTogether.call(this, scope, maxEntries, batch.checks);
			});
		});
}

/**
 * One check of every key of `checks`, each once, in the order asked, with the first asker's n8n
 * helpers (the list is the same: n8n keeps it per workflow, and per node for scope node). Each
 * check gets the keys n8n found missing among those it asked for first: a key two of them asked
 * for is missing for the first only (once the first's keys are recorded, n8n has it).
 */
async function checkTogether(this: IExecuteFunctions, scope: KeyScope, maxEntries: number, checks: Asked[]): Promise<void> {
	try {
		const firstAsker = new Map<string, Asked>();
		for (const check of checks) for (const key of check.keys) if (!firstAsker.has(key)) firstAsker.set(key, check);
		const started = systemClock.now();
		const checked = await this.helpers.checkProcessedAndRecord([...firstAsker.keys()], scope, { mode: 'entries', maxEntries });
		const ms = systemClock.now() - started;
		const missing = checked.new.map(String);
		for (const check of checks) check.answer({ missing: missing.filter((key) => firstAsker.get(key) === check), ms });
	} catch (caught) {
		for (const check of checks) check.fail(caught);
	}
}

/**
 * A check that asks once more if the list was being created at the same moment (by another n8n
 * process). Any other failure reaches the caller as it is, which words it for its operation.
 */
export async function checkTwiceIfListNew(check: TimedCheck, keys: string[]): ReturnType<TimedCheck> {
	return await check(keys).catch(async (caught: unknown) =>
		LIST_CREATED_CONCURRENTLY.test(caught instanceof Error ? caught.message : String(caught)) ? await check(keys) : await Promise.reject(caught),
	);
}

/** What to do when n8n's list is of another kind: Remove Duplicates keeps a date or a number for the whole workflow. */
export function storeFailureAdvice(message: string, otherwise: string): string {
	return /incompatible/i.test(message)
		? 'Another node of this workflow keeps a different kind of list for the whole workflow (Remove Duplicates comparing an incremental key or a date). Set Remember Keys For to This Node.'
		: otherwise;
}

/**
 * Removing keys from, and clearing, the list `timedCheck` checks: one at a time with its checks,
 * and no longer asked for again by this process's later checks (keysKept.ts).
 */
export function keyRemoval(this: IExecuteFunctions, scope: KeyScope, maxEntries: number) {
	const list = listOf(this, scope);
	const options = { mode: 'entries' as const, maxEntries };
	return {
		remove: async (keys: string[]) => {
			if (keys.length === 0) return;
			forgetLetThrough(list, keys);
			openBatches.delete(list);
			await oneCheckAtATime(list, async () => await this.helpers.removeProcessed(keys, scope, options));
		},
		clearAll: async () => {
			forgetLetThrough(list);
			openBatches.delete(list);
			await oneCheckAtATime(list, async () => await this.helpers.clearAllProcessedItems(scope, options));
		},
	};
}

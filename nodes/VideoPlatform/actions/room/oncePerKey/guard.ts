import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { asItemError, errorToJson } from '../../itemError';
import type { ItemError } from '../../itemError';
import { hintInOutputPane } from '../../../shared/executionHints';
import { RunStop, systemClock } from '../../../transport/stop';
import { checkTwiceIfListNew, keyRemoval, timedCheck } from '../../rememberedKeys';
import type { GuardedRun } from '../../types';
import { confirmKeysKept } from '../../keysKept';
import { listOf } from '../../oneCheckAtATime';
import type { StoredKeys } from './itemKeys';
import { platformBaseUrl, readItemKey, storedKeys } from './itemKeys';
import type { OncePerKeySettings } from './option';
import { readKeysToForget, readOncePerKey } from './option';
import { ADVICE, createdBefore, forgotten, forgottenAll, mayExistError, repeatOf, storeFailed, tooManyKeys } from './outcomes';

/**
 * Create Once Per Key, around Room → Create's requests. Per key, n8n keeps a "created" and a
 * "pending" entry; the key's state is:
 *   neither                  never sent, or definitely not created: sent
 *   created, pending absent  the platform confirmed the room (2xx): skipped
 *   pending (with created)   sent, outcome unknown: the item fails until the user forgets the key
 * n8n's helper has no check that records nothing, so one check records both entries for every new
 * key, before anything is sent: the state reads "pending" until the 2xx clears it. One write holds
 * both, so a write lost to another n8n process loses both, and "created" is written before
 * "pending", so that n8n trimming its oldest entries forgets "created" first.
 */

/** Each item's key; an item without one fails, as an error item under Continue On Fail. */
function readKeys(this: IExecuteFunctions): { keys: Array<string | undefined>; failed: Map<number, IDataObject> } {
	const continueOnFail = this.continueOnFail();
	const failed = new Map<number, IDataObject>();
	const keys = this.getInputData().map((_, itemIndex) => {
		try {
			return readItemKey.call(this, itemIndex);
		} catch (caught) {
			const error: ItemError = asItemError(this.getNode(), caught, itemIndex);
			if (!continueOnFail) throw error;
			failed.set(itemIndex, errorToJson(error));
			return undefined;
		}
	});
	return { keys, failed };
}

const errorMessage = (caught: unknown) => (caught instanceof Error ? caught.message : String(caught));

async function createOnce(this: IExecuteFunctions, { scope, maxEntries }: OncePerKeySettings, platform: string): Promise<GuardedRun> {
	const { keys: itemKeys, failed: answered } = readKeys.call(this);
	// n8n's check calls a key new twice when it comes twice in one call: the first item stands for it.
	const firstWith = new Map<string, number>();
	itemKeys.forEach((key, itemIndex) => {
		if (key === undefined) return;
		const first = firstWith.get(key);
		if (first === undefined) firstWith.set(key, itemIndex);
		else answered.set(itemIndex, repeatOf(key, first));
	});
	if (firstWith.size > maxEntries) throw tooManyKeys(this.getNode(), firstWith.size, maxEntries);
	// The check records two entries per key, even for a key created before ("pending", removed
	// below), and n8n then trims its list to the limit: room for them keeps the earlier keys.
	const check = timedCheck.call(this, scope, maxEntries + 2 * firstWith.size);
	const removal = keyRemoval.call(this, scope, maxEntries);
	const keys = [...firstWith].map(([key, itemIndex]) => ({ key, itemIndex, stored: storedKeys(platform, key) }));
	let checked: Awaited<ReturnType<typeof check>> = { missing: [], ms: 0 };
	try {
		if (keys.length > 0) checked = await checkTwiceIfListNew(check, keys.flatMap(({ stored }) => [stored.created, stored.pending]));
	} catch (caught) {
		const error = storeFailed(this.getNode(), errorMessage(caught), true);
		if (!this.continueOnFail()) throw error;
		keys.forEach(({ itemIndex }) => answered.set(itemIndex, errorToJson(error)));
		return { kind: 'send', answered, advice: ADVICE, finish: async () => {} };
	}
	const missing = new Set(checked.missing);
	// Entries the check recorded that must not stay: "pending" of a key created before.
	const recordedNeedlessly: string[] = [];
	const sending = new Map<number, StoredKeys>();
	const mayExist: typeof keys = [];
	for (const entry of keys) {
		const { key, itemIndex, stored } = entry;
		if (!missing.has(stored.pending)) mayExist.push(entry);
		else if (!missing.has(stored.created)) {
			recordedNeedlessly.push(stored.pending);
			answered.set(itemIndex, createdBefore(key, platform));
		} else sending.set(itemIndex, stored);
	}
	const mayExistErrorOf = ({ key, itemIndex }: (typeof keys)[number], others: number[], runStopped: boolean) =>
		mayExistError(this.getNode(), itemIndex, key, platform, others, runStopped);
	if (mayExist.length > 0 && !this.continueOnFail()) {
		// Nothing is sent: what this check recorded goes. Should that fail, those items read as
		// "may exist" next run, which asks the user to check rather than skip or create blind.
		await removal.remove([...recordedNeedlessly, ...[...sending.values()].flatMap(({ created, pending }) => [created, pending])]).catch(() => undefined);
		throw mayExistErrorOf(mayExist[0], mayExist.slice(1).map(({ itemIndex }) => itemIndex), true);
	}
	mayExist.forEach((entry) => answered.set(entry.itemIndex, errorToJson(mayExistErrorOf(entry, [], false))));
	reportSkipped.call(this, answered);

	const stop = new RunStop(this.getExecutionCancelSignal?.());
	const finish = async ({ created, notCreated }: { created: number[]; notCreated: number[] }) => {
		// The router sends exactly the items not answered here.
		const storedFor = (itemIndex: number) => sending.get(itemIndex) as StoredKeys;
		const forget = [
			...recordedNeedlessly,
			...created.map((itemIndex) => storedFor(itemIndex).pending),
			...notCreated.flatMap((itemIndex) => [storedFor(itemIndex).created, storedFor(itemIndex).pending]),
		];
		try {
			await removal.remove(forget);
		} catch (caught) {
			hintInOutputPane(this, `${storeFailed(this.getNode(), errorMessage(caught), false).message}. The next run may report some of this run's items as "may exist"; check those on the platform.`);
		}
		// Another n8n process may have written over this run's entries since the check: see keysKept.ts.
		const createdKeys = created.map((itemIndex) => storedFor(itemIndex).created);
		if (createdKeys.length > 0) await confirmKeysKept(check, listOf(this, scope), createdKeys, checked.ms, { clock: systemClock, stop });
	};
	return { kind: 'send', answered, advice: ADVICE, finish };
}

/** Says in the editor how many items were skipped, since their output is not a room. */
function reportSkipped(this: IExecuteFunctions, answered: Map<number, IDataObject>): void {
	const skipped = [...answered.values()].filter((json) => json.skipped === true).length;
	if (skipped === 0) return;
	const items = skipped === 1 ? '1 item was' : `${skipped} items were`;
	hintInOutputPane(this, `${items} not sent (Create Once Per Key): a room for the same key was created before, or another item of this run has it. Their output says which.`);
}

async function removeKeys(this: IExecuteFunctions, { scope, maxEntries }: OncePerKeySettings, platform: string, keys: Array<string | undefined>): Promise<void> {
	const stored = [...new Set(keys)].flatMap((key) => {
		if (key === undefined) return [];
		const { created, pending } = storedKeys(platform, key);
		return [created, pending];
	});
	try {
		await keyRemoval.call(this, scope, maxEntries).remove(stored);
	} catch (caught) {
		throw storeFailed(this.getNode(), errorMessage(caught), true);
	}
}

async function forgetKeys(this: IExecuteFunctions, settings: OncePerKeySettings, platform: string): Promise<GuardedRun> {
	// Keys named in the field: only those, whatever the input (Execute step gives it all items).
	const named = readKeysToForget.call(this);
	if (named.length > 0) {
		await removeKeys.call(this, settings, platform, named);
		const pairedItem = this.getInputData().map((_, item) => ({ item }));
		return { kind: 'answered', output: named.map((key) => ({ json: forgotten(key, platform), pairedItem })) };
	}
	const { keys, failed } = readKeys.call(this);
	await removeKeys.call(this, settings, platform, keys);
	const output = keys.map((key, itemIndex) => ({
		json: key === undefined ? (failed.get(itemIndex) as IDataObject) : forgotten(key, platform),
		pairedItem: { item: itemIndex },
	}));
	return { kind: 'answered', output };
}

async function forgetAll(this: IExecuteFunctions, { scope, maxEntries }: OncePerKeySettings): Promise<GuardedRun> {
	try {
		await keyRemoval.call(this, scope, maxEntries).clearAll();
	} catch (caught) {
		throw storeFailed(this.getNode(), errorMessage(caught), true);
	}
	const pairedItem = this.getInputData().map((_, item) => ({ item }));
	return { kind: 'answered', output: [{ json: forgottenAll(scope), pairedItem }] };
}

/** Room → Create's guard: nothing when the option is off, so the run is exactly as without it. */
export async function guardRun(this: IExecuteFunctions): Promise<GuardedRun | undefined> {
	const settings = readOncePerKey.call(this);
	if (!settings) return undefined;
	if (settings.mode === 'forgetAll') return await forgetAll.call(this, settings);
	const platform = await platformBaseUrl.call(this);
	return settings.mode === 'forgetKeys' ? await forgetKeys.call(this, settings, platform) : await createOnce.call(this, settings, platform);
}

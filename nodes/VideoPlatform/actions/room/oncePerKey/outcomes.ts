import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { itemError } from '../../../transport/client';
import { quotable } from '../../../shared/secretTraces';
import { storeFailureAdvice } from '../../rememberedKeys';
import { MODE_NAMES } from './option';

/** What Create Once Per Key outputs and says, in one place. */

const shown = (key: string) => `"${quotable(key, '')}"`;

/** Whether the key as a message shows it, pasted into Keys to Forget (one trimmed key per line), is the key itself. */
const pastesAsItself = (key: string) => quotable(key, '') === key && key.trim() === key;

/** Forgetting one key from the editor: named in the field, since running the mode on the whole input forgets every key. */
const howToForget = (key: string) =>
	pastesAsItself(key)
		? `set Options → Create Once Per Key → Mode to ${MODE_NAMES.forgetKeys}, put ${shown(key)} (without the quotes) in Keys to Forget, run this node, then set Mode back`
		: `set Options → Create Once Per Key → Mode to ${MODE_NAMES.forgetKeys}, leave Keys to Forget empty and run this node with only this item as its input ` +
			'(its key cannot be pasted from this message: it is too long, or has characters shown differently here), then set Mode back';

/** An item whose key an earlier run created a room for: not sent. */
export function createdBefore(key: string, platform: string): IDataObject {
	return {
		skipped: true,
		reason: 'created-before',
		key,
		message:
			`Not sent: a room for this key was created on ${platform} by an earlier run, and n8n remembers the key. ` +
			"n8n keeps only a digest of each key, so that room's details are not available here. " +
			`If that room was deleted on the platform, ${howToForget(key)}.`,
	};
}

/** An item with the same key as an earlier item of the run: one room per key. */
export function repeatOf(key: string, firstItem: number): IDataObject {
	return {
		skipped: true,
		reason: 'same-key-in-this-run',
		key,
		repeatsItem: firstItem,
		message: `Not sent: item ${firstItem} of this run has the same key, and one room is created per key. Item ${firstItem}'s output says whether its room was created.`,
	};
}

/** An item whose key an earlier run sent without learning the outcome: it is neither sent nor skipped. */
/** `runStopped`: without Continue On Fail the item stops the run before any item is sent. */
export function mayExistError(node: INode, itemIndex: number, key: string, platform: string, othersAlike: number[], runStopped: boolean): NodeOperationError {
	const alike = othersAlike.length > 0 ? ` Items ${othersAlike.join(', ')} of this run are in the same state.` : '';
	return itemError(
		node,
		itemIndex,
		`The room for key ${shown(key)} may already exist: an earlier run sent its request and never learned whether the platform created it`,
		`${runStopped ? 'Nothing was sent for any item of this run.' : 'Nothing was sent for this item in this run.'} ` +
			'If another execution of this workflow may still be running (see Executions), wait for it to end first. ' +
			`Look on the platform (${platform}) for that room: the node cannot, since the platform offers no way to find a room. ` +
			`If it is not there, ${howToForget(key)}, and run again to create it. ` +
			`If it is there, leave this item out of the input: its key stays marked as "may exist".${alike}`,
	);
}

/** More keys in a run than n8n keeps: a later run would make it forget some of them. */
export function tooManyKeys(node: INode, keys: number, maxEntries: number): NodeOperationError {
	return new NodeOperationError(node, `This run has ${keys} keys, and Create Once Per Key keeps only ${maxEntries}`, {
		description: `n8n would forget some of this run's keys, and a later run would create their rooms again. Raise Options → Create Once Per Key → Keys Remembered to at least ${keys}, or send fewer items per run. Nothing was sent.`,
	});
}

export function storeFailed(node: INode, message: string, nothingSent: boolean): NodeOperationError {
	return new NodeOperationError(node, `n8n could not read or change the keys Create Once Per Key remembers: ${quotable(message, '')}`, {
		description: storeFailureAdvice(message, `${nothingSent ? 'Nothing was sent. ' : ''}Run the workflow again; if it fails again, check n8n's database connection.`),
	});
}

export function forgotten(key: string, platform: string): IDataObject {
	return { forgotten: true, key, message: `This node no longer remembers this key for ${platform}: the next run with Mode ${MODE_NAMES.create} creates its room.` };
}

export function forgottenAll(scope: string): IDataObject {
	const whose = scope === 'workflow' ? 'this workflow' : 'this node';
	return { forgotten: true, keys: 'all', message: `Every key ${whose} remembered is forgotten: the next run with Mode ${MODE_NAMES.create} creates every item's room.` };
}

/** What a part-way report tells the user to do next when the option is on. */
export const ADVICE = {
	runAgain: 'Run the workflow again: the rooms already created are skipped (Create Once Per Key).',
	mayExist:
		'Create Once Per Key does not send them again: the next run fails on each, naming its key, until you check the platform and make this node forget the key.',
};

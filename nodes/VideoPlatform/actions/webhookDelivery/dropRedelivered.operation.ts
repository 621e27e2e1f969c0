import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { comparedKey, DELIVERY_KEY_EXPRESSION, DELIVERY_KEY_PATH, EDITOR_NAMES, textDeliveryKeyIn } from '../../shared/deliveryKey';
import { hintInOutputPane } from '../../shared/executionHints';
import type { ItemError } from '../itemError';
import { asItemError, errorToJson } from '../itemError';
import { quotable } from '../../shared/secretTraces';
import { RunStop, systemClock } from '../../transport/stop';
import type { KeyScope } from '../rememberedKeys';
import { checkTwiceIfListNew, keysRememberedField, readKeysRemembered, readScope, storeFailureAdvice, timedCheck } from '../rememberedKeys';
import { confirmKeysKept, keysToAskAgain, noteLetThrough } from '../keysKept';
import { listOf } from '../oneCheckAtATime';

/** Delivery Key's default as n8n stores it: the expression for the trigger's key. */
const DEFAULT_DELIVERY_KEY = `=${DELIVERY_KEY_EXPRESSION}`;

export const listing = {
	name: 'Drop Redelivered',
	description: "Let each of the trigger's deliveries through once, by its delivery key",
	action: EDITOR_NAMES.dropRedeliveredAction,
};

// The field names are those of the former Video Platform Redelivery Filter node, so that its
// settings carry over as they are.
export const properties: INodeProperties[] = [
	{
		displayName:
			'An item whose key this node has already let through stops here; the rest of the workflow does not run for it. Right after the Video Platform Trigger the key is set for you; after another trigger, set Delivery Key to an expression for the field that identifies an item, such as the ID of an event.',
		name: 'placementNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Delivery Key',
		name: 'deliveryKey',
		type: 'string',
		default: DEFAULT_DELIVERY_KEY,
		required: true,
		description:
			`What tells one item from another. Right after the Video Platform Trigger, keep the default: it reads the key the trigger gives each delivery (${DELIVERY_KEY_PATH}). After another trigger, drag in the field that identifies an item, such as a calendar event's ID. An item whose key this node has let through before stops here. An empty key always goes through and is not remembered, and so does a delivery without the trigger's ${EDITOR_NAMES.deliveryIdField}.`,
	},
	keysRememberedField(
		'How many of the newest keys n8n remembers, in its database. When a new key comes, the oldest is forgotten, so a copy that comes after more than this many other deliveries goes through again. A long key takes no more room than a short one: 10,000 keys take about 270 KB, and the most, 100,000, about 2.7 MB.',
	),
	{
		displayName: 'Remember Keys For',
		name: 'scope',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'This Node',
				value: 'node',
				description: 'Keys this node has let through; a copied or re-created node starts with none',
			},
			{
				name: 'Whole Workflow',
				value: 'workflow',
				description:
					'One list shared with the other nodes of this workflow that remember keys for the whole workflow: a Video Platform node with Remember Keys For set to Whole Workflow, or a Remove Duplicates node with Scope set to Workflow',
			},
		],
		default: 'node',
	},
];

export const kind = 'batch';

function kindOf(value: unknown): string {
	if (value === undefined) return 'empty: the expression found nothing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * The item's Delivery Key: `fromItem` when given, else n8n's value of the parameter. With the
 * default expression, the trigger's text key in the item is what n8n's expression engine would
 * give, so execute() passes it and skips the engine: in n8n 2.x it took about 4 ms per run for
 * this expression (CPU profile of 200 deliveries).
 */
function readKey(this: IExecuteFunctions, itemIndex: number, fromItem: string | undefined): string | null {
	const key: unknown = fromItem ?? this.getNodeParameter('deliveryKey', itemIndex);
	if (typeof key !== 'string') {
		throw new NodeOperationError(this.getNode(), `The Delivery Key of this item is not text (it is ${kindOf(key)})`, {
			itemIndex,
			description: `Set Delivery Key to ${DELIVERY_KEY_EXPRESSION}: the Video Platform Trigger gives every item that key. If this node is not right after the trigger, use {{ $('Video Platform Trigger').item.json.${DELIVERY_KEY_PATH} }}. An empty text lets the item through unchecked.`,
		});
	}
	return comparedKey(key);
}

/**
 * Asks n8n which keys are new, once for the whole run, and has it remember them; once more if the
 * list was being created at the same moment (by another n8n process: in this one, checks of a list
 * wait for each other). Then starts making sure that a check in another process did not write the
 * new keys over (confirmKeysKept), without waiting for it: the items are let through either way, so
 * the node hands them on after its check, and the confirmation goes on in this n8n process beside
 * the nodes after it and after the execution (a process that stops first cuts it short; a key that
 * a later node forgets meanwhile is not recorded again). The check also asks again for the keys
 * this process let through lately (keysToAskAgain), so n8n records again those such a write
 * dropped after their confirmation. A failure is returned, not thrown, so that Continue On Fail
 * can turn it into error items.
 */
async function newKeys(
	this: IExecuteFunctions,
	keys: string[],
	scope: KeyScope,
	maxEntries: number,
): Promise<Set<string> | NodeOperationError> {
	if (keys.length === 0) return new Set();
	const check = timedCheck.call(this, scope, maxEntries);
	const list = listOf(this, scope);
	try {
		const again = keysToAskAgain(list, keys, maxEntries, systemClock.now());
		const { missing, ms } = await checkTwiceIfListNew(check, [...again, ...keys]);
		const own = new Set(keys);
		const fresh = missing.filter((key) => own.has(key));
		if (fresh.length > 0) {
			noteLetThrough(list, fresh, systemClock.now());
			// Left running: it never rejects, and no Stop ends it (its RunStop has no signal): the keys are let through.
			void confirmKeysKept(check, list, fresh, ms, { clock: systemClock, stop: new RunStop() });
		}
		return new Set(fresh);
	} catch (caught) {
		const message = caught instanceof Error ? caught.message : String(caught);
		return new NodeOperationError(this.getNode(), `n8n could not compare the delivery keys with those it remembers: ${quotable(message, '')}`, {
			description: storeFailureAdvice(message, "Nothing was let through. Run the workflow again; if it fails again, check n8n's database connection."),
		});
	}
}

/**
 * Lets each delivery through once. Keys are read and checked for every item before n8n is asked,
 * so a bad key remembers nothing. A key repeated within the run passes once. Output order and
 * pairedItem follow the input.
 */
export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const scope = readScope.call(this, 'scope');
	const maxEntries = readKeysRemembered.call(this, 'keysRemembered');
	const isDefault = this.getNodeParameter('deliveryKey', 0, '', { rawExpressions: true }) === DEFAULT_DELIVERY_KEY;

	const keys: Array<string | null> = [];
	const failures = new Map<number, ItemError>();
	items.forEach((item, itemIndex) => {
		try {
			keys[itemIndex] = readKey.call(this, itemIndex, isDefault ? textDeliveryKeyIn(item.json) : undefined);
		} catch (caught) {
			const error = asItemError(this.getNode(), caught, itemIndex);
			if (!continueOnFail) throw error;
			failures.set(itemIndex, error);
		}
	});

	const compared = [...new Set(keys.filter((key): key is string => typeof key === 'string'))];
	const checked = await newKeys.call(this, compared, scope, maxEntries);
	if (checked instanceof NodeOperationError) {
		if (!continueOnFail) throw checked;
		keys.forEach((key, itemIndex) => {
			if (typeof key === 'string') failures.set(itemIndex, checked);
		});
	}
	const fresh = checked instanceof NodeOperationError ? new Set<string>() : checked;

	const output: INodeExecutionData[] = [];
	let dropped = 0;
	items.forEach((item, itemIndex) => {
		const pairedItem = { item: itemIndex };
		const failure = failures.get(itemIndex);
		if (failure) {
			output.push({ json: errorToJson(failure), pairedItem });
			return;
		}
		const key = keys[itemIndex];
		// A set entry is deleted on first use, so a key repeated in this run passes once.
		if (key === null || fresh.delete(key)) output.push({ ...item, pairedItem });
		else dropped++;
	});
	reportDropped.call(this, dropped);
	return output;
}

function reportDropped(this: IExecuteFunctions, dropped: number): void {
	if (dropped === 0) return;
	const items = dropped === 1 ? '1 item was' : `${dropped} items were`;
	hintInOutputPane(this, `${items} dropped: a delivery with the same key was let through before.`);
}

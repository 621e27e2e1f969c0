import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { PlatformRequester } from '../transport/client';

/** How the items a guard let through ended, by index, so that it records what it must. */
export interface SentItems {
	created: number[];
	/** Not sent, or definitely refused (an item the platform may have acted on is in neither list). */
	notCreated: number[];
}

/**
 * A guard's decision. `answered`: the whole output, nothing to send. `send`: the items it answered
 * itself (skipped, or failed under Continue On Fail) are not sent; the router sends the others and
 * then calls `finish`; `advice` replaces what a part-way report tells the user to do next.
 */
export type GuardedRun =
	| { kind: 'answered'; output: INodeExecutionData[] }
	| {
			kind: 'send';
			answered: Map<number, IDataObject>;
			finish(sent: SentItems): Promise<void>;
			advice: { runAgain: string; mayExist: string };
	  };

/**
 * What every operation file exports for the node's description (VideoPlatform.node.ts): its entry
 * in its resource's Operation list (the value is its name in actions/resources.ts) and its fields,
 * shown for it alone.
 */
interface OperationParts {
	listing: Omit<INodePropertyOptions, 'value'>;
	properties: INodeProperties[];
}

/**
 * Sends requests to the platform, one item at a time: the router gives each item its client and
 * handles concurrency, Continue On Fail and the part-way report.
 */
export interface ItemOperation extends OperationParts {
	kind: 'item';
	execute(this: IExecuteFunctions, itemIndex: number, platform: PlatformRequester): Promise<IDataObject>;
	/** What a successful item creates on the platform, e.g. "room"; named in its errors and when a run stops part-way. */
	creates: string;
	/** Decides before any request which items are sent (Room → Create's Create Once Per Key). */
	guardRun?(this: IExecuteFunctions): Promise<GuardedRun | undefined>;
}

/**
 * Works on all of a run's items at once and sends nothing to the platform, so it needs no
 * credential. It returns the output items with their pairing and handles Continue On Fail itself.
 */
interface BatchOperation extends OperationParts {
	kind: 'batch';
	execute(this: IExecuteFunctions): Promise<INodeExecutionData[]>;
}

export type Operation = ItemOperation | BatchOperation;

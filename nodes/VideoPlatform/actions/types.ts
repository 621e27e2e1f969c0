import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { PlatformRequester } from '../transport';
import type { GuardedRun } from './guardedRun';

/** An operation's entry in its resource's Operation list; its value is its key in `operations`. */
export interface OperationOption {
	name: string;
	description: string;
	action: string;
}

/** What every operation file exports: its entry in the Operation list and its fields (shown for it alone). */
interface OperationParts {
	option: OperationOption;
	properties: INodeProperties[];
}

/**
 * Sends requests to the platform, one item at a time: the router gives each item its client and
 * handles concurrency, Continue On Fail and the part-way report.
 */
export interface ItemOperation extends OperationParts {
	kind: 'item';
	execute(this: IExecuteFunctions, itemIndex: number, platform: PlatformRequester): Promise<IDataObject>;
	/** What a successful item creates on the platform, e.g. "room"; named when a run stops part-way. */
	creates?: string;
	/** This operation's own entries in the Options, beside the router's. */
	options?: INodeProperties[];
	/** Decides before any request which items are sent (Room → Create's Create Once Per Key). */
	guardRun?(this: IExecuteFunctions): Promise<GuardedRun | undefined>;
}

/**
 * Works on all of a run's items at once and sends nothing to the platform, so it needs no
 * credential. It returns the output items with their pairing and handles Continue On Fail itself.
 */
export interface BatchOperation extends OperationParts {
	kind: 'batch';
	execute(this: IExecuteFunctions): Promise<INodeExecutionData[]>;
}

export type Operation = ItemOperation | BatchOperation;

/**
 * One resource folder: its entry in the Resource list and its operations. A new operation is one
 * file and one line in `operations`; its Operation option and fields follow (properties.ts).
 */
export interface Resource {
	resource: INodePropertyOptions;
	operations: Record<string, Operation>;
}

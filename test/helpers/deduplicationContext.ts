import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedOptions,
	IDataObject,
	IDeduplicationOutput,
	IExecuteFunctions,
	IGetNodeParameterOptions,
	INode,
	INodeExecutionData,
	NodeExecutionHint,
	Workflow,
} from 'n8n-workflow';

import { DELIVERY_KEY_EXPRESSION } from '../../nodes/VideoPlatform/shared/deliveryKey';
import { MemoryDeduplicator } from './memoryDeduplicator';

/**
 * n8n's database of remembered keys (the in-memory one the workflow runner uses too), as the
 * operation reaches it through `helpers.checkProcessedAndRecord`; `calls` records each call.
 * `betweenReadAndWrite` lets other checks in between a check's read and its write.
 */
let stores = 0;

export function createDeduplicationStore(betweenReadAndWrite?: (items: DeduplicationItemTypes[]) => Promise<void>) {
	const database = new MemoryDeduplicator(betweenReadAndWrite);
	// A workflow of its own for each store: the node remembers the keys it let through per list.
	const workflow = { id: `workflow-${++stores}` } as Workflow;
	const calls: Array<{ items: DeduplicationItemTypes[]; scope: DeduplicationScope; options: ICheckProcessedOptions }> = [];
	return {
		calls,
		workflow,
		/** The digests kept for a node's (or the workflow's) context, oldest first. */
		kept: (scope: DeduplicationScope, node: INode) => database.digests(scope, { node, workflow }),
		async checkProcessedAndRecord(
			node: INode,
			items: DeduplicationItemTypes[],
			scope: DeduplicationScope,
			options: ICheckProcessedOptions,
		): Promise<IDeduplicationOutput> {
			calls.push({ items: [...items], scope, options });
			return await database.checkProcessedAndRecord(items, scope, { node, workflow }, options);
		},
		/** The helpers of `this.helpers` that reach this store, for a given node. */
		helpersFor: (node: INode) => ({
			checkProcessedAndRecord: async (items: DeduplicationItemTypes[], scope: DeduplicationScope, options: ICheckProcessedOptions) => {
				calls.push({ items: [...items], scope, options });
				return await database.checkProcessedAndRecord(items, scope, { node, workflow }, options);
			},
			removeProcessed: async (items: DeduplicationItemTypes[], scope: DeduplicationScope, options: ICheckProcessedOptions) =>
				await database.removeProcessed(items, scope, { node, workflow }, options),
			clearAllProcessedItems: async (scope: DeduplicationScope) => await database.clearAllProcessedItems(scope, { node, workflow }),
		}),
	};
}

export type DeduplicationStore = ReturnType<typeof createDeduplicationStore>;

export interface FilterContextOptions {
	store: DeduplicationStore;
	items: INodeExecutionData[];
	/** The node's parameters; a function value gets the item index, as an expression would. */
	parameters?: Record<string, unknown>;
	continueOnFail?: boolean;
	nodeId?: string;
	/** The node's type; n8n gives the AI tool variant `...videoPlatformTool`. */
	nodeType?: string;
	/** Replaces the store's check, to make n8n's database fail. */
	checkProcessedAndRecord?: (
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		options: ICheckProcessedOptions,
	) => Promise<IDeduplicationOutput>;
}

export type FilterContext = IExecuteFunctions & { hints: NodeExecutionHint[] };

/**
 * A mocked IExecuteFunctions for Video Platform → Webhook Delivery → Drop Redelivered: parameters
 * as n8n resolves them, and the store. It has no credentials: the operation must not ask for any.
 */
export function createFilterContext(options: FilterContextOptions): FilterContext {
	const node: INode = {
		id: options.nodeId ?? 'filter-node-1',
		name: 'Drop redeliveries',
		type: options.nodeType ?? 'n8n-nodes-videoplatform.videoPlatform',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const parameters: Record<string, unknown> = {
		resource: 'webhookDelivery',
		operation: 'dropRedelivered',
		deliveryKey: (i: number) => ((options.items[i].json._webhook as IDataObject | undefined) ?? {}).deliveryKey,
		...options.parameters,
	};
	// As n8n stores it: the default expression, unless a test sets its own Delivery Key.
	const rawDeliveryKey = options.parameters && 'deliveryKey' in options.parameters ? '={{ a test\'s own expression }}' : `=${DELIVERY_KEY_EXPRESSION}`;
	const hints: NodeExecutionHint[] = [];
	const context = {
		hints,
		addExecutionHints: (...added: NodeExecutionHint[]) => hints.push(...added),
		getNode: () => node,
		getWorkflow: () => options.store.workflow,
		getInputData: () => options.items,
		continueOnFail: () => options.continueOnFail ?? false,
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown, getOptions?: IGetNodeParameterOptions) => {
			if (getOptions?.rawExpressions && name === 'deliveryKey') return rawDeliveryKey;
			const value = name in parameters ? parameters[name] : fallback;
			if (value === undefined && !(name in parameters)) throw new Error(`Could not get parameter "${name}"`);
			return typeof value === 'function' ? (value as (i: number) => unknown)(itemIndex) : value;
		},
		helpers: {
			checkProcessedAndRecord:
				options.checkProcessedAndRecord ??
				((items: DeduplicationItemTypes[], scope: DeduplicationScope, checkOptions: ICheckProcessedOptions) =>
					options.store.checkProcessedAndRecord(node, items, scope, checkOptions)),
		},
	};
	return context as unknown as FilterContext;
}

import { createHash } from 'node:crypto';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedOptions,
	IDataObject,
	IDeduplicationOutput,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	NodeExecutionHint,
} from 'n8n-workflow';

/**
 * n8n's database of remembered keys, as n8n's DeduplicationHelper keeps it in mode "entries":
 * one list per workflow and context ("n:<node id>" or "" for the whole workflow) of MD5 digests,
 * oldest first. The first call stores what it gets; later calls compare with the list as read
 * before the call (so a key repeated in one call is new twice), append the new ones, then keep
 * only the newest maxEntries.
 */
export function createDeduplicationStore() {
	const lists = new Map<string, { mode: string; data: string[] }>();
	const calls: Array<{ items: DeduplicationItemTypes[]; scope: DeduplicationScope; options: ICheckProcessedOptions }> = [];
	const contextOf = (scope: DeduplicationScope, node: INode) => (scope === 'node' ? `n:${node.id}` : '');
	const digest = (value: DeduplicationItemTypes) => createHash('md5').update(value.toString()).digest('base64');

	return {
		calls,
		/** The digests kept for a node's (or the workflow's) context, oldest first. */
		kept: (scope: DeduplicationScope, node: INode) => lists.get(contextOf(scope, node))?.data ?? [],
		async checkProcessedAndRecord(
			node: INode,
			items: DeduplicationItemTypes[],
			scope: DeduplicationScope,
			options: ICheckProcessedOptions,
		): Promise<IDeduplicationOutput> {
			calls.push({ items: [...items], scope, options });
			const context = contextOf(scope, node);
			const hashed = items.map(digest);
			const existing = lists.get(context);
			if (!existing) {
				const data = options.maxEntries ? hashed.slice(Math.max(0, hashed.length - options.maxEntries)) : hashed;
				lists.set(context, { mode: options.mode, data });
				return { new: [...items], processed: [] };
			}
			if (existing.mode !== options.mode) throw new Error('Deduplication data was originally saved with an incompatible setting');
			const seen = new Set(existing.data);
			const output: IDeduplicationOutput = { new: [], processed: [] };
			hashed.forEach((hash, index) => {
				if (seen.has(hash)) output.processed.push(items[index]);
				else {
					output.new.push(items[index]);
					existing.data.push(hash);
				}
			});
			if (options.maxEntries) existing.data.splice(0, existing.data.length - options.maxEntries);
			return output;
		},
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
	const hints: NodeExecutionHint[] = [];
	const context = {
		hints,
		addExecutionHints: (...added: NodeExecutionHint[]) => hints.push(...added),
		getNode: () => node,
		getInputData: () => options.items,
		continueOnFail: () => options.continueOnFail ?? false,
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
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

import { createHash } from 'node:crypto';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

/**
 * n8n's deduplication database (its `processed_data` table, one row per workflow and context),
 * in memory, behind the interface n8n-core's DataDeduplicationService calls. Only mode "entries"
 * is kept, the one Drop Redelivered uses: MD5 digests of the keys, oldest first, trimmed to
 * maxEntries. Drop Redelivered sends each key once per call, so how a key repeated within one
 * call counts is left as this store does it. Like n8n's, a check reads the whole row and writes
 * it back whole, without a lock.
 */
export class MemoryDeduplicator implements IDataDeduplicator {
	/** Keyed by `${workflowId}/${context}`, as the table's primary key. */
	readonly rows = new Map<string, { mode: string; data: string[] }>();

	/** How many checks each row has had, so that a test can wait for a check that goes on after a run. */
	readonly checks = new Map<string, number>();

	private static context(scope: DeduplicationScope, { node }: ICheckProcessedContextData): string {
		if (scope !== 'node') return '';
		if (!node) throw new Error("No node information has been provided and so cannot use scope 'node'");
		return `n:${node.id}`;
	}

	private static digest(value: DeduplicationItemTypes): string {
		return createHash('md5').update(value.toString()).digest('base64');
	}

	private key(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string {
		return `${contextData.workflow.id}/${MemoryDeduplicator.context(scope, contextData)}`;
	}

	private static onlyEntries(options: ICheckProcessedOptions): void {
		if (options.mode !== 'entries') throw new Error(`This in-memory store keeps mode "entries" only, not "${options.mode}"`);
	}

	/**
	 * `betweenReadAndWrite` runs after a check has read its row and before it writes it back, as
	 * n8n's database round trips let other n8n processes in: n8n writes the row it read plus the new
	 * digests, over whatever others wrote meanwhile, and a second creation of a row fails on the
	 * table's primary key.
	 */
	constructor(private readonly betweenReadAndWrite?: (items: DeduplicationItemTypes[]) => Promise<void>) {}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		const key = this.key(scope, contextData);
		this.checks.set(key, (this.checks.get(key) ?? 0) + 1);
		const read = this.rows.get(key);
		const row = read && { mode: read.mode, data: [...read.data] };
		await this.betweenReadAndWrite?.(items);
		if (row && row.mode !== options.mode) {
			throw new Error('Deduplication data was originally saved with an incompatible setting of the ‘Keep Items Where’ parameter.');
		}
		MemoryDeduplicator.onlyEntries(options);
		const hashed = items.map((item) => MemoryDeduplicator.digest(item));
		if (!row) {
			if (this.rows.has(key)) throw new Error('duplicate key value violates unique constraint "PK_processed_data"');
			const data = options.maxEntries ? hashed.slice(Math.max(0, hashed.length - options.maxEntries)) : hashed;
			this.rows.set(key, { mode: options.mode, data });
			return { new: [...items], processed: [] };
		}
		const output: IDeduplicationOutput = { new: [], processed: [] };
		hashed.forEach((hash, index) => {
			if (row.data.includes(hash)) output.processed.push(items[index]);
			else {
				output.new.push(items[index]);
				row.data.push(hash);
			}
		});
		if (options.maxEntries) row.data.splice(0, Math.max(0, row.data.length - options.maxEntries));
		this.rows.set(key, row);
		return output;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		MemoryDeduplicator.onlyEntries(options);
		const row = this.rows.get(this.key(scope, contextData));
		if (!row) return;
		for (const hash of items.map((item) => MemoryDeduplicator.digest(item))) {
			const index = row.data.indexOf(hash);
			if (index !== -1) row.data.splice(index, 1);
		}
	}

	/** The digests kept for a scope, oldest first. */
	digests(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string[] {
		return this.rows.get(this.key(scope, contextData))?.data ?? [];
	}

	async clearAllProcessedItems(scope: DeduplicationScope, contextData: ICheckProcessedContextData): Promise<void> {
		this.rows.delete(this.key(scope, contextData));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<number> {
		return options.mode === 'entries' ? (this.rows.get(this.key(scope, contextData))?.data.length ?? 0) : 0;
	}
}

import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

export const DEFAULT_CONCURRENCY = 10;
export const MAX_CONCURRENCY = 50;

/** For each operation's Options collection; the router reads it once per run. */
export const concurrencyOption: INodeProperties = {
	displayName: 'Max Concurrent Requests',
	name: 'maxConcurrentRequests',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY, numberPrecision: 0 },
	default: DEFAULT_CONCURRENCY,
	description:
		'How many requests may be under way at once. Lower it if the platform rate-limits you often; 1 sends items one after another.',
};

export function readConcurrency(this: IExecuteFunctions): number {
	const value = Number(this.getNodeParameter(`options.${concurrencyOption.name}`, 0, DEFAULT_CONCURRENCY));
	if (!Number.isFinite(value)) return DEFAULT_CONCURRENCY;
	return Math.min(MAX_CONCURRENCY, Math.max(1, Math.floor(value)));
}

/**
 * Runs `task` for indexes 0..count-1 with at most `limit` under way. Once `stop()` is true no
 * new task starts; the ones under way finish. Only `limit` promises exist at a time, so memory
 * does not grow with `count`.
 */
export async function runBounded(
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

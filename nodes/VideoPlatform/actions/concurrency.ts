import type { INodeProperties } from 'n8n-workflow';

export const DEFAULT_CONCURRENCY = 10;
export const MAX_CONCURRENCY = 50;

/** An entry of the Options of every operation that sends requests; the router reads it once per run. */
export const concurrencyOption: INodeProperties = {
	displayName: 'Max Concurrent Requests',
	name: 'maxConcurrentRequests',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY, numberPrecision: 0 },
	default: DEFAULT_CONCURRENCY,
	description:
		'How many requests may be under way at once. Lower it if the platform rate-limits you often; 1 sends items one after another.',
};

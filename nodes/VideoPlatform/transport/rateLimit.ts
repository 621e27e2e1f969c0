import { sleep } from 'n8n-workflow';

/** Time source for waits; tests pass their own so that nothing waits for real. */
export interface Clock {
	now: () => number;
	/** May end early when `signal` aborts; `pause` in halt.ts does not rely on it. */
	sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

// n8n 2.x's sleep clears its timer on abort; 1.x's ignores the signal and its timer just runs out.
export const systemClock: Clock = { now: () => Date.now(), sleep: async (ms, signal) => await sleep(ms, signal) };

/** How long the node keeps trying after a 429 before it gives up on an item. */
export interface RateLimitPolicy {
	maxRetries: number;
	maxTotalWaitMs: number;
	/** Used when the platform sends no usable Retry-After; doubled on every retry. */
	fallbackDelayMs: number;
	/** The shortest wait, so that a Retry-After of 0 or in the past is not a tight loop. */
	minDelayMs: number;
}

export const DEFAULT_RATE_LIMIT_POLICY: RateLimitPolicy = {
	maxRetries: 5,
	maxTotalWaitMs: 60_000,
	fallbackDelayMs: 1_000,
	minDelayMs: 1_000,
};

/** Reads Retry-After as delta-seconds or as an HTTP date. Undefined when absent or unreadable. */
export function parseRetryAfter(header: unknown, nowMs: number): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	if (text === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
	if (!/[a-z]/i.test(text)) return undefined;
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - nowMs);
}

/** The wait before retry number `retry` (0-based): as the platform asked or by fallback, never below the floor. */
export function retryDelayMs(
	retryAfterHeader: unknown,
	retry: number,
	policy: RateLimitPolicy,
	nowMs: number,
): number {
	const asked = parseRetryAfter(retryAfterHeader, nowMs) ?? policy.fallbackDelayMs * 2 ** retry;
	return Math.max(policy.minDelayMs, asked);
}

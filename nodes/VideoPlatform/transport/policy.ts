import type { PacerRegistry } from './pacerRegistry';
import type { Clock, RateLimitPolicy } from './rateLimit';
import { DEFAULT_RATE_LIMIT_POLICY } from './rateLimit';

/** How often a safe request (GET) is sent again after a server error or a lost answer. */
export interface SafeRetryPolicy {
	maxRetries: number;
	/** Before the first retry; doubled for each one after. */
	delayMs: number;
}

/** How long and how large one request may be. */
export interface TransportPolicy {
	rateLimit: RateLimitPolicy;
	/** From send to the last byte of the answer. Generous, since a room may take a while. */
	deadlineMs: number;
	/** Of the decoded answer; far above what creating a room returns. */
	maxAnswerBytes: number;
	safeRetry: SafeRetryPolicy;
}

export const DEFAULT_TRANSPORT_POLICY: TransportPolicy = {
	rateLimit: DEFAULT_RATE_LIMIT_POLICY,
	deadlineMs: 60_000,
	maxAnswerBytes: 10 * 1024 * 1024,
	safeRetry: { maxRetries: 2, delayMs: 1_000 },
};

/** Test seams: a clock that does not wait for real, pacers of the test's own, smaller limits. */
export interface TransportSeams {
	clock?: Clock;
	pacers?: PacerRegistry;
	policy?: Partial<TransportPolicy>;
}

import { createHash } from 'node:crypto';

import type { Clock, RunStop } from './stop';
import { systemClock } from './stop';

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
function parseRetryAfter(header: unknown, nowMs: number): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
	if (!/[a-z]/i.test(text)) return undefined;
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - nowMs);
}

/** The wait before retry number `retry` (0-based): as the platform asked or by fallback, never below the floor. */
export function retryDelayMs(retryAfterHeader: unknown, retry: number, policy: RateLimitPolicy, nowMs: number): number {
	const asked = parseRetryAfter(retryAfterHeader, nowMs) ?? policy.fallbackDelayMs * 2 ** retry;
	return Math.max(policy.minDelayMs, asked);
}

const WINDOW_MS = 1000;
/** After a 429, requests go at this share of the rate the platform accepted in the second before: a little
 * below it, so that the jitter of timers and the network seldom brings a second over (docs/design.md). */
const SAFE_SHARE = 0.98;
/** How long a rate learned from a 429 is kept before it is raised again. */
const HOLD_MS = 2000;
/** How fast the rate rises after the hold while requests are accepted: 20 % a second. */
const GROWTH_PER_SECOND = 0.2;
/** Fewer accepted requests than this in the second before a first 429 say little about the limit. */
const FEW_TO_LEARN_FROM = 10;
/** How many first 429s may pass without learning, while too few requests were accepted. */
const MAX_UNLEARNED_BURSTS = 2;
/** A longer Retry-After is a lockout rather than a per-second limit: every request waits it out. */
const LOCKOUT_MS = 2000;

/** What a run went through with the platform's rate limit, so that a slow run can explain itself. */
export interface RateLimitReport {
	/** Answers with HTTP 429, including any that made an item give up. */
	refused: number;
	/** Wall time of the waits that the run's 429s asked for; overlapping waits count once. */
	pausedMs: number;
}

/** Paces every run sharing it near the platform's rate limit, learned from 429s (how: docs/design.md, "The pacer"). */
export class RequestPacer {
	private resumeAt = 0;

	private nextStartAt = 0;

	/** Requests per second known to be accepted; 0 until one is learned. */
	private safeRate = 0;

	/** When the safe rate was last set; the hold and the rise count from here. */
	private safeSince = -Infinity;

	private unlearnedBursts = 0;

	private readonly acceptedAt: number[] = [];

	constructor(private readonly clock: Clock) {}

	/** Requests per second allowed at `now`: unlimited until a rate is learned. */
	rateAt(now: number): number {
		if (this.safeRate === 0) return Infinity;
		const risingFor = Math.max(0, now - this.safeSince - HOLD_MS) / 1000;
		return this.safeRate * Math.exp(GROWTH_PER_SECOND * risingFor);
	}

	/** Resolves when the request may be sent, and books its slot; false, at once, when the run stops. */
	async waitForTurn(stop?: RunStop): Promise<boolean> {
		for (;;) {
			const now = this.clock.now();
			const startAt = Math.max(this.resumeAt, this.nextStartAt);
			if (startAt <= now) {
				// Counted from the slot booked, not from when the timer fired, so that late timers do not
				// slow the pace; at most one slot is made up, so that a quiet spell gives no burst.
				const interval = WINDOW_MS / this.rateAt(now);
				this.nextStartAt = Math.max(startAt, now - interval) + interval;
				return true;
			}
			if (!stop) await this.clock.sleep(startAt - now);
			else if (!(await stop.pause(this.clock, startAt - now))) return false;
		}
	}

	/** Answered with something other than 429. */
	recordAccepted(): void {
		const now = this.clock.now();
		this.acceptedAt.push(now);
		while (this.acceptedAt.length && this.acceptedAt[0] <= now - WINDOW_MS) this.acceptedAt.shift();
	}

	/** A request got 429, and the platform asked to wait `ms` before the next one. */
	recordRefusal(ms: number): void {
		const now = this.clock.now();
		if (this.safeRate === 0 || ms > LOCKOUT_MS) this.resumeAt = Math.max(this.resumeAt, now + ms);
		// The other 429s of the same burst say nothing new.
		if (now - this.safeSince < WINDOW_MS) return;
		const accepted = this.acceptedAt.filter((at) => at > now - WINDOW_MS).length;
		if (this.safeRate === 0 && accepted < FEW_TO_LEARN_FROM && this.unlearnedBursts < MAX_UNLEARNED_BURSTS) {
			this.unlearnedBursts++;
			this.safeSince = this.resumeAt;
			return;
		}
		this.safeRate = Math.max(1, Math.min(this.rateAt(now), Math.max(1, accepted)) * SAFE_SHARE);
		this.safeSince = Math.max(now, this.resumeAt);
	}
}

/** Far more credentials than one process uses at once; the least recently used goes first. */
const MAX_PACERS = 64;

/** One pacer per credential, Base URL and API key in this process, so that runs with one key share its rate. */
export class PacerRegistry {
	private readonly pacers = new Map<string, RequestPacer>();

	constructor(private readonly clock: Clock) {}

	/** A run with no saved credential gets a pacer of its own; the key is kept only inside a digest. */
	pacerFor(credentialId: string | undefined, baseUrl: string, apiKey: string): RequestPacer {
		if (!credentialId) return new RequestPacer(this.clock);
		const key = createHash('sha256').update(JSON.stringify([credentialId, baseUrl, apiKey])).digest('hex');
		const pacer = this.pacers.get(key) ?? new RequestPacer(this.clock);
		this.pacers.delete(key);
		this.pacers.set(key, pacer);
		if (this.pacers.size > MAX_PACERS) this.pacers.delete(this.pacers.keys().next().value as string);
		return pacer;
	}
}

export const sharedPacers = new PacerRegistry(systemClock);

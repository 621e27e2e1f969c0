import type { Clock } from './rateLimit';

const WINDOW_MS = 1000;
/** After a 429, requests go at this share of the rate the platform accepted in the second before. */
const SAFE_SHARE = 0.95;
/** How long a rate learned from a 429 is kept before it is raised again. */
const HOLD_MS = 2000;
/** How fast the rate rises after the hold while requests are accepted: 20 % a second. */
const GROWTH_PER_SECOND = 0.2;
/** A rate above the safe one by more than this is a probe, not the safe rate itself. */
const PROBE_TOLERANCE = 1.02;

/** What a run went through with the platform's rate limit, so that a slow run can explain itself. */
export interface RateLimitReport {
	/** Answers with HTTP 429, including any that made an item give up. */
	refused: number;
	/** Wall time of the waits that the run's 429s asked for; overlapping waits count once. */
	pausedMs: number;
}

/**
 * Paces the requests of every run that shares it (one per credential in a process, see
 * pacerRegistry.ts), so that they flow near the platform's rate limit without bursting into it.
 * Until the first 429 nothing is held. A 429 at the rate known to be accepted pauses every request
 * for as long as the platform asked, and from then on requests are spaced at 95 % of the rate the
 * platform accepted in the second before. Two seconds later the rate starts rising by 20 % a
 * second, so that a rate learned while others were sending recovers once they stop. A 429 while
 * rising only steps back to the last accepted rate; the refused request alone waits.
 */
export class RequestPacer {
	private resumeAt = 0;

	private nextStartAt = 0;

	/** Requests per second known to be accepted; 0 until the first 429. */
	private safeRate = 0;

	/** When the safe rate was last set; the hold and the rise count from here. */
	private safeSince = -Infinity;

	private readonly acceptedAt: number[] = [];

	constructor(private readonly clock: Clock) {}

	/** Requests per second allowed at `now`: unlimited before any 429. */
	rateAt(now: number): number {
		if (this.safeRate === 0) return Infinity;
		const risingFor = Math.max(0, now - this.safeSince - HOLD_MS) / 1000;
		return this.safeRate * Math.exp(GROWTH_PER_SECOND * risingFor);
	}

	/** Resolves when the request may be sent, and books its slot. */
	async waitForTurn(): Promise<void> {
		for (;;) {
			const now = this.clock.now();
			const startAt = Math.max(this.resumeAt, this.nextStartAt);
			if (startAt <= now) {
				this.nextStartAt = now + WINDOW_MS / this.rateAt(now);
				return;
			}
			await this.clock.sleep(startAt - now);
		}
	}

	/** A request was answered with something other than 429. */
	recordAccepted(): void {
		const now = this.clock.now();
		this.acceptedAt.push(now);
		while (this.acceptedAt.length && this.acceptedAt[0] <= now - WINDOW_MS) this.acceptedAt.shift();
	}

	/** A request got 429, and the platform asked to wait `ms` before the next one. */
	recordRefusal(ms: number): void {
		const now = this.clock.now();
		// The other 429s of the same burst say nothing new: hold everyone, but learn only once.
		if (this.resumeAt > now || now - this.safeSince < WINDOW_MS) {
			this.pause(now, ms);
			return;
		}
		const accepted = this.acceptedAt.filter((at) => at > now - WINDOW_MS).length;
		const rate = this.rateAt(now);
		if (rate > this.safeRate * PROBE_TOLERANCE && this.safeRate > 0) {
			this.safeRate = Math.max(this.safeRate, Math.min(rate, accepted) * SAFE_SHARE);
			this.safeSince = now;
			return;
		}
		this.pause(now, ms);
		this.safeRate = Math.max(1, accepted * SAFE_SHARE);
		this.safeSince = this.resumeAt;
	}

	private pause(now: number, ms: number): void {
		this.resumeAt = Math.max(this.resumeAt, now + ms);
	}
}

import type { Clock } from './rateLimit';
import type { RunStop } from './runStop';

const WINDOW_MS = 1000;
/** After a 429, requests go at this share of the rate the platform accepted in the second before. */
const SAFE_SHARE = 0.95;
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

/**
 * Paces the requests of every run that shares it (one per credential in a process, see
 * pacerRegistry.ts), so that they flow near the platform's rate limit without bursting into it.
 *
 * Until the first 429 nothing is held. The first 429s pause every request for as long as the
 * platform asked, and from then on requests are spaced at 95 % of the rate the platform accepted in
 * the second before. (A run that starts while others already use up the limit has had almost nothing
 * accepted yet; it waits out up to two such pauses before it learns, rather than learn a rate of one
 * a second and crawl.) Two seconds after a rate is learned it rises by 20 % a second, so that a rate
 * learned while others were sending recovers once they stop. A later 429 steps the rate back to 95 %
 * of what was just accepted; only the refused request waits, unless the platform asks for more than
 * two seconds, which every request then waits out.
 */
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
				this.nextStartAt = now + WINDOW_MS / this.rateAt(now);
				return true;
			}
			if (!stop) await this.clock.sleep(startAt - now);
			else if (!(await stop.pause(this.clock, startAt - now))) return false;
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

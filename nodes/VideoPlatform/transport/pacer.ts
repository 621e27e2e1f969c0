import type { Clock } from './rateLimit';

const WINDOW_MS = 1000;
/** Spacing slightly above the learned rate, so that jitter does not cause the next 429. */
const SPACING_MARGIN = 1.05;

/** What a run went through with the platform's rate limit, so that a slow run can explain itself. */
export interface RateLimitReport {
	/** Answers with HTTP 429, including any that made an item give up. */
	refused: number;
	/** Wall time that requests were held by 429 pauses; overlapping pauses count once. */
	pausedMs: number;
}

/**
 * Shared by all requests of one node run. When the platform answers 429, every request waits
 * until the pause is over, not just the one that was refused. From then on, requests are also
 * spaced at the rate the platform accepted in the second before the 429, so that a large run
 * flows at that rate instead of bursting into the limit again and again.
 */
export class RequestPacer {
	private resumeAt = 0;

	private nextStartAt = 0;

	private spacingMs = 0;

	private readonly acceptedAt: number[] = [];

	private readonly report: RateLimitReport = { refused: 0, pausedMs: 0 };

	constructor(private readonly clock: Clock) {}

	/** Resolves when the request may be sent, and books its slot. */
	async waitForTurn(): Promise<void> {
		for (;;) {
			const now = this.clock.now();
			const startAt = Math.max(this.resumeAt, this.nextStartAt);
			if (startAt <= now) {
				this.nextStartAt = now + this.spacingMs;
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

	/** A request was answered with 429, whether or not it is retried. */
	recordRefused(): void {
		this.report.refused++;
	}

	/** A request got 429: pause everyone, and space requests at the rate that was accepted. */
	pauseFor(ms: number): void {
		const now = this.clock.now();
		const pausedUntil = Math.max(this.resumeAt, now);
		this.resumeAt = Math.max(this.resumeAt, now + ms);
		this.report.pausedMs += this.resumeAt - pausedUntil;
		const recent = this.acceptedAt.filter((at) => at > now - WINDOW_MS).length;
		if (recent > 0) this.spacingMs = Math.max(this.spacingMs, (WINDOW_MS / recent) * SPACING_MARGIN);
	}

	get rateLimits(): RateLimitReport {
		return { ...this.report };
	}
}

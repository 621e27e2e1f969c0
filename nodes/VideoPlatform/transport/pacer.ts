import type { Clock } from './rateLimit';

/**
 * Shared by all requests of one node run: when the platform answers 429, every request waits
 * until the pause is over, not just the one that was refused.
 */
export class RequestPacer {
	private resumeAt = 0;

	constructor(private readonly clock: Clock) {}

	async waitForTurn(): Promise<void> {
		for (let wait = this.resumeAt - this.clock.now(); wait > 0; wait = this.resumeAt - this.clock.now()) {
			await this.clock.sleep(wait);
		}
	}

	pauseFor(ms: number): void {
		this.resumeAt = Math.max(this.resumeAt, this.clock.now() + ms);
	}
}

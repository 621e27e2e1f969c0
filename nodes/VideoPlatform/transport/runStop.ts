import type { Clock } from './rateLimit';

/** Why a run sends nothing more: the user stopped the execution, or an item failed the run. */
export type StopReason = 'execution-stopped' | 'run-failed';

/**
 * One per run. Waits (the pacer's, Retry-After's) end as soon as the run stops, and no request
 * is sent after that. Only the user's stop also cuts short requests already under way: after an
 * item fails, those finish, so that the error can say which items got their room.
 */
export class RunStop {
	private readonly runFailed = new AbortController();

	/** Aborts when the run stops for either reason. */
	readonly signal: AbortSignal;

	constructor(private readonly executionCancel?: AbortSignal) {
		this.signal = executionCancel
			? AbortSignal.any([executionCancel, this.runFailed.signal])
			: this.runFailed.signal;
	}

	/** The user stopped the execution (n8n's cancel signal), or undefined when nobody did. */
	get cancelSignal(): AbortSignal | undefined {
		return this.executionCancel;
	}

	get reason(): StopReason | undefined {
		if (this.executionCancel?.aborted) return 'execution-stopped';
		return this.runFailed.signal.aborted ? 'run-failed' : undefined;
	}

	/** An item failed without Continue On Fail: nothing more is sent, waits included. */
	stopAfterFailure(): void {
		this.runFailed.abort();
	}

	/** Ends the pauses under way; one listener on the run's signal however many items wait. */
	private readonly pauses = new Set<AbortController>();

	/**
	 * Waits `ms`; false, at once, when the run stops before or during the wait. Each pause has a
	 * signal of its own, so that many waiting items do not pile listeners on the run's signal
	 * (Node warns from 11 on).
	 */
	async pause(clock: Clock, ms: number): Promise<boolean> {
		if (this.signal.aborted) return false;
		if (this.pauses.size === 0) this.signal.addEventListener('abort', this.endPauses, { once: true });
		const own = new AbortController();
		this.pauses.add(own);
		try {
			// n8n 2.x's sleep rejects on the abort; 1.x's ignores it, and the race ends the wait.
			await Promise.race([
				clock.sleep(ms, own.signal).catch(() => undefined),
				new Promise((resolve) => own.signal.addEventListener('abort', resolve, { once: true })),
			]);
		} finally {
			this.pauses.delete(own);
			if (this.pauses.size === 0) this.signal.removeEventListener('abort', this.endPauses);
		}
		return !this.signal.aborted;
	}

	private readonly endPauses = () => {
		for (const pause of this.pauses) pause.abort();
	};
}

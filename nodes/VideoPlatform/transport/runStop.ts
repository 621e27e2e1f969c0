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

	/** Waits `ms`; false, at once, when the run stops before or during the wait. */
	async pause(clock: Clock, ms: number): Promise<boolean> {
		const { signal } = this;
		if (signal.aborted) return false;
		return await new Promise<boolean>((resolve) => {
			const stop = () => resolve(false);
			signal.addEventListener('abort', stop, { once: true });
			const done = () => {
				signal.removeEventListener('abort', stop);
				resolve(!signal.aborted);
			};
			// n8n 2.x's sleep rejects on the abort, which `stop` has already answered.
			clock.sleep(ms, signal).then(done, done);
		});
	}
}

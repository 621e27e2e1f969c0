/** Thrown when a request's deadline passes, whatever it was waiting for. */
export class DeadlineExceeded extends Error {
	constructor() {
		super('deadline exceeded');
	}
}

/**
 * One deadline per request, from send to the last byte of the answer, so that an answer
 * that trickles in fails like a silent one. Its timer does not keep n8n's process alive.
 * The user stopping the execution (`cancel`) ends the wait too, at once.
 */
export class Deadline {
	/** Aborts at the deadline or on `cancel`. */
	readonly signal: AbortSignal;

	private readonly timeout: AbortSignal;

	constructor(
		readonly ms: number,
		cancel?: AbortSignal,
	) {
		this.timeout = AbortSignal.timeout(ms);
		this.signal = cancel ? AbortSignal.any([this.timeout, cancel]) : this.timeout;
	}

	/** Whether the deadline itself has passed (not a cancel). */
	get expired(): boolean {
		return this.timeout.aborted;
	}

	/** Whether the user stopped the execution before the deadline. */
	get cancelled(): boolean {
		return this.signal.aborted && !this.expired;
	}

	/** Settles as `pending` does, unless the deadline comes first; a late result goes to `discard`. */
	async race<T>(pending: Promise<T>, discard: (late: T) => void): Promise<T> {
		return await new Promise<T>((resolve, reject) => {
			const expire = () => reject(new DeadlineExceeded());
			if (this.signal.aborted) expire();
			else this.signal.addEventListener('abort', expire, { once: true });
			pending.then(
				(value) => {
					this.signal.removeEventListener('abort', expire);
					if (this.signal.aborted) discard(value);
					else resolve(value);
				},
				(error: unknown) => {
					this.signal.removeEventListener('abort', expire);
					reject(error);
				},
			);
		});
	}
}

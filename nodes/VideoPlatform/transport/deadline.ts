/** Thrown when a request's deadline passes, whatever it was waiting for. */
export class DeadlineExceeded extends Error {
	constructor() {
		super('deadline exceeded');
	}
}

/**
 * One deadline per request, from send to the last byte of the answer, so that an answer
 * that trickles in fails like a silent one. Its timer does not keep n8n's process alive.
 */
export class Deadline {
	readonly signal: AbortSignal;

	constructor(readonly ms: number) {
		this.signal = AbortSignal.timeout(ms);
	}

	get expired(): boolean {
		return this.signal.aborted;
	}

	/** Settles as `pending` does, unless the deadline comes first; a late result goes to `discard`. */
	async race<T>(pending: Promise<T>, discard: (late: T) => void): Promise<T> {
		return await new Promise<T>((resolve, reject) => {
			const expire = () => reject(new DeadlineExceeded());
			if (this.expired) expire();
			else this.signal.addEventListener('abort', expire, { once: true });
			pending.then(
				(value) => {
					this.signal.removeEventListener('abort', expire);
					if (this.expired) discard(value);
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

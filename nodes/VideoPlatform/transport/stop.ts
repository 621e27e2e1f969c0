import { sleep } from 'n8n-workflow';

/** Time source for waits; tests pass their own so that nothing waits for real. */
export interface Clock {
	now: () => number;
	/** May end early when `signal` aborts; `RunStop.pause` does not rely on it. */
	sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

// n8n 2.x's sleep clears its timer on abort; 1.x's ignores the signal and its timer just runs out.
export const systemClock: Clock = { now: () => Date.now(), sleep: async (ms, signal) => await sleep(ms, signal) };

/** Why a run sends nothing more: the user stopped the execution, or an item failed the run. */
export type StopReason = 'execution-stopped' | 'run-failed';

/** Thrown when a request's deadline passes, whatever it was waiting for. */
export class DeadlineExceeded extends Error {
	constructor() {
		super('deadline exceeded');
	}
}

/** A deadline may come this share of its length late: requests due within one slot share a timer. */
const SLOTS_PER_DEADLINE = 60;

/** The deadlines due in one slot, and the one timer that ends those not finished by then. */
const slots = new Map<string, Set<AbortController>>();

/**
 * Ends `deadline` between `ms` and `ms` plus a sixtieth from now, unless it is taken out of the
 * returned set first. A timer per request (AbortSignal.timeout's cannot be cleared) would live
 * for the whole deadline after its request ended, one per item of a quick run; shared, about 60
 * live at once, and a finished request leaves nothing behind.
 */
function joinSlot(ms: number, deadline: AbortController): Set<AbortController> {
	const slotMs = Math.max(1, Math.ceil(ms / SLOTS_PER_DEADLINE));
	const now = Date.now();
	const dueSlot = Math.ceil((now + ms) / slotMs);
	const key = `${slotMs}:${dueSlot}`;
	let members = slots.get(key);
	if (!members) {
		const due = new Set<AbortController>();
		AbortSignal.timeout(dueSlot * slotMs - now).addEventListener(
			'abort',
			() => {
				slots.delete(key);
				for (const member of due) member.abort();
			},
			{ once: true },
		);
		slots.set(key, due);
		members = due;
	}
	members.add(deadline);
	return members;
}

/**
 * One deadline per request, from send to the last byte of the answer, so that an answer
 * that trickles in fails like a silent one. Its timer does not keep n8n's process alive.
 * The user stopping the execution (`cancel`) ends the wait too, at once. `finish()` once the
 * request is over.
 */
export class Deadline {
	/** Aborts at the deadline or on `cancel`. */
	readonly signal: AbortSignal;

	private readonly timeout: AbortSignal;

	private readonly slot: Set<AbortController>;

	private readonly own = new AbortController();

	constructor(
		readonly ms: number,
		cancel?: AbortSignal,
	) {
		this.timeout = this.own.signal;
		this.slot = joinSlot(ms, this.own);
		this.signal = cancel ? AbortSignal.any([this.timeout, cancel]) : this.timeout;
	}

	/** The request is over: its deadline no longer waits in the shared slot. */
	finish(): void {
		this.slot.delete(this.own);
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

/**
 * One per run, and the one way anything of it is cancelled. Waits (the pacer's, Retry-After's)
 * end as soon as the run stops, and no request is sent after that. Only the user's stop also cuts
 * short requests already under way (through each request's `deadline`): after an item fails,
 * those finish, so that the error can say which items got their room.
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

	get reason(): StopReason | undefined {
		if (this.executionCancel?.aborted) return 'execution-stopped';
		return this.runFailed.signal.aborted ? 'run-failed' : undefined;
	}

	/** An item failed without Continue On Fail: nothing more is sent, waits included. */
	stopAfterFailure(): void {
		this.runFailed.abort();
	}

	/** A request's deadline, which the user's stop (not an item's failure) also ends. */
	deadline(ms: number): Deadline {
		return new Deadline(ms, this.executionCancel);
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

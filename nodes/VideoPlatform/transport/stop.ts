import { sleep } from 'n8n-workflow';

/** Time source for waits; tests pass their own so that nothing waits for real. */
export interface Clock {
	now: () => number;
	sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const systemClock: Clock = { now: () => Date.now(), sleep: async (ms, signal) => await sleep(ms, signal) };

/** Why a run sends nothing more: the user stopped the execution, or an item failed the run. */
export type StopReason = 'execution-stopped' | 'run-failed';

/** Thrown when a request's deadline passes, whatever it was waiting for. */
export class DeadlineExceeded extends Error {
	override message = 'deadline exceeded';
}

/** A deadline may come this share of its length late: requests due within one slot share a timer. */
const SLOTS_PER_DEADLINE = 60;

const slots = new Map<string, Set<AbortController>>();

/** Ends `deadline` within a sixtieth after `ms`, unless it leaves the set; shared, as AbortSignal.timeout cannot be cleared. */
function joinSlot(ms: number, deadline: AbortController): Set<AbortController> {
	const slotMs = Math.max(1, Math.ceil(ms / SLOTS_PER_DEADLINE));
	const now = Date.now();
	const dueSlot = Math.ceil((now + ms) / slotMs);
	const key = `${slotMs}:${dueSlot}`;
	const members = slots.get(key) ?? new Set<AbortController>();
	if (!slots.has(key)) {
		slots.set(key, members);
		AbortSignal.timeout(dueSlot * slotMs - now).addEventListener('abort', () => {
			slots.delete(key);
			for (const member of members) member.abort();
		});
	}
	members.add(deadline);
	return members;
}

/** One request's deadline, from send to the answer's last byte; the user's stop (`cancel`) ends it at once. */
export class Deadline {
	readonly signal: AbortSignal;

	private readonly own = new AbortController();

	private readonly slot: Set<AbortController>;

	constructor(readonly ms: number, cancel?: AbortSignal) {
		this.slot = joinSlot(ms, this.own);
		this.signal = cancel ? AbortSignal.any([this.own.signal, cancel]) : this.own.signal;
	}

	/** The request is over: its deadline leaves the shared slot. */
	finish(): void {
		this.slot.delete(this.own);
	}

	/** The deadline itself passed (not a cancel). */
	get expired(): boolean {
		return this.own.signal.aborted;
	}

	get cancelled(): boolean {
		return this.signal.aborted && !this.expired;
	}

	/** Settles as `pending` does, unless the deadline comes first; a late result goes to `discard`. */
	async race<T>(pending: Promise<T>, discard: (late: T) => void): Promise<T> {
		return await new Promise<T>((resolve, reject) => {
			const expire = () => reject(new DeadlineExceeded());
			if (this.signal.aborted) expire();
			else this.signal.addEventListener('abort', expire, { once: true });
			const settle = (then: () => void) => {
				this.signal.removeEventListener('abort', expire);
				then();
			};
			pending.then(
				(value) => settle(() => (this.signal.aborted ? discard(value) : resolve(value))),
				(error: unknown) => settle(() => reject(error)),
			);
		});
	}
}

/** One per run, the one way anything of it is cancelled; only the user's stop cuts short requests under way. */
export class RunStop {
	private readonly runFailed = new AbortController();

	/** Aborts when the run stops for either reason. */
	readonly signal: AbortSignal;

	/** The pauses under way: one listener on `signal` ends them all (Node warns from 11 listeners). */
	private readonly pauses = new Set<AbortController>();

	constructor(private readonly executionCancel?: AbortSignal) {
		this.signal = executionCancel ? AbortSignal.any([executionCancel, this.runFailed.signal]) : this.runFailed.signal;
	}

	get reason(): StopReason | undefined {
		if (this.executionCancel?.aborted) return 'execution-stopped';
		return this.runFailed.signal.aborted ? 'run-failed' : undefined;
	}

	/** An item failed without Continue On Fail. */
	stopAfterFailure(): void {
		this.runFailed.abort();
	}

	deadline(ms: number): Deadline {
		return new Deadline(ms, this.executionCancel);
	}

	/** Waits `ms`; false, at once, when the run stops before or during the wait. */
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

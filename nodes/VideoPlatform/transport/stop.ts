import { sleep } from 'n8n-workflow';

/** Time source for waits; tests pass their own so that nothing waits for real. */
export interface Clock {
	/** Milliseconds on a clock that only moves forward: waits and deadlines must not shift when the wall clock is set. */
	now: () => number;
	sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const systemClock: Clock = { now: () => performance.now(), sleep: async (ms, signal) => await sleep(ms, signal) };

/** Why a run sends nothing more: the user stopped the execution, or an item failed the run. */
export type StopReason = 'execution-stopped' | 'run-failed';

/** Thrown when a request's deadline passes, whatever it was waiting for. */
export class DeadlineExceeded extends Error {
	override message = 'deadline exceeded';
}

/** A deadline may come this share of its length late: requests due within one slot share a timer. */
const SLOTS_PER_DEADLINE = 60;

type DeadlineEnd = 'expired' | 'cancelled';

/**
 * Deadlines that end together: those due in one timer slot, or those of one run when the user
 * stops it. Plain sets rather than an AbortSignal per request, whose listeners and AbortSignal.any
 * cost a node that sends many requests measurably more.
 */
class DeadlineGroup {
	private readonly members = new Set<Deadline>();

	private endedAs?: DeadlineEnd;

	/** `watch` is told when the group gains its first member and when it has none left. */
	constructor(private readonly watch?: { first: () => void; last: () => void }) {}

	add(member: Deadline): void {
		if (this.endedAs) return member.end(this.endedAs);
		this.members.add(member);
		if (this.members.size === 1) this.watch?.first();
	}

	delete(member: Deadline): void {
		if (this.members.delete(member) && this.members.size === 0) this.watch?.last();
	}

	end(how: DeadlineEnd): void {
		this.endedAs = how;
		for (const member of this.members) member.end(how);
		this.members.clear();
		this.watch?.last();
	}
}

const slots = new Map<string, DeadlineGroup>();

/** The group that ends within a sixtieth after `ms`; shared, as AbortSignal.timeout cannot be cleared. */
function slotFor(ms: number): DeadlineGroup {
	const slotMs = Math.max(1, Math.ceil(ms / SLOTS_PER_DEADLINE));
	// The timers' own clock: keyed by the wall clock, a step back (NTP, a resumed VM) put new requests in older slots.
	const now = performance.now();
	const dueSlot = Math.ceil((now + ms) / slotMs);
	const key = `${slotMs}:${dueSlot}`;
	let slot = slots.get(key);
	if (!slot) {
		const created = new DeadlineGroup();
		slots.set(key, created);
		AbortSignal.timeout(Math.ceil(dueSlot * slotMs - now)).addEventListener('abort', () => {
			slots.delete(key);
			created.end('expired');
		});
		slot = created;
	}
	return slot;
}

const noop = () => {};

/** One request's deadline, from send to the answer's last byte; the user's stop (`run`) ends it at once. */
export class Deadline {
	private endedAs?: DeadlineEnd;

	private readonly listeners = new Set<() => void>();

	private readonly groups: DeadlineGroup[];

	constructor(readonly ms: number, run?: DeadlineGroup) {
		this.groups = run ? [slotFor(ms), run] : [slotFor(ms)];
		for (const group of this.groups) group.add(this);
	}

	/** The request is over: its deadline leaves its slot and its run. */
	finish(): void {
		for (const group of this.groups) group.delete(this);
		this.listeners.clear();
	}

	/** The deadline itself passed (not a cancel). */
	get expired(): boolean {
		return this.endedAs === 'expired';
	}

	get cancelled(): boolean {
		return this.endedAs === 'cancelled';
	}

	get ended(): boolean {
		return this.endedAs !== undefined;
	}

	/** Calls `listener` once when the deadline passes or is cancelled (at once if it has); returns what stops that. */
	onEnd(listener: () => void): () => void {
		if (this.endedAs) {
			listener();
			return noop;
		}
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** For its groups: the first end counts. */
	end(how: DeadlineEnd): void {
		if (this.endedAs) return;
		this.endedAs = how;
		for (const listener of this.listeners) listener();
		this.listeners.clear();
	}

	/** Settles as `pending` does, unless the deadline comes first; a late result goes to `discard`. */
	async race<T>(pending: Promise<T>, discard: (late: T) => void): Promise<T> {
		return await new Promise<T>((resolve, reject) => {
			const stopWatching = this.onEnd(() => reject(new DeadlineExceeded()));
			pending.then(
				(value) => {
					stopWatching();
					if (this.ended) discard(value);
					else resolve(value);
				},
				(error: unknown) => {
					stopWatching();
					reject(error);
				},
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

	/** The requests under way, which only the user's stop cuts short. */
	private readonly requests?: DeadlineGroup;

	constructor(private readonly executionCancel?: AbortSignal) {
		this.signal = executionCancel ? AbortSignal.any([executionCancel, this.runFailed.signal]) : this.runFailed.signal;
		if (!executionCancel) return;
		// Listens only while requests are under way: n8n runs the node many times on one execution's signal.
		const endRequests = () => this.requests?.end('cancelled');
		this.requests = new DeadlineGroup({
			// A stop while no request was under way found no listener: a request that starts after it is cancelled at once.
			first: () => (executionCancel.aborted ? endRequests() : executionCancel.addEventListener('abort', endRequests, { once: true })),
			last: () => executionCancel.removeEventListener('abort', endRequests),
		});
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
		return new Deadline(ms, this.requests);
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

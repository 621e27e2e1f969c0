import type { Clock, RunStop } from '../transport/stop';

/** A check of keys in n8n's list: those it found missing (and has now recorded), and how long it took. */
export type TimedCheck = (keys: string[]) => Promise<{ missing: string[]; ms: number }>;

/** How many times the keys let through are asked for again, at most. */
const MAX_CONFIRMATIONS = 3;
/** The pause before asking again, as a multiple of the longest check of the run so far, and its bounds. */
const PAUSE_PER_CHECK = 3;
const MIN_PAUSE_MS = 100;
const MAX_PAUSE_MS = 2_000;

const pauseAfter = (longestCheckMs: number): number =>
	Math.min(MAX_PAUSE_MS, Math.max(MIN_PAUSE_MS, Math.ceil(longestCheckMs * PAUSE_PER_CHECK)));

/**
 * Per list, the keys of each confirmation under way. A key removed from the list on purpose
 * (forgetLetThrough) leaves them, so that no confirmation records it again: Drop Redelivered does
 * not wait for its confirmation, and a later node may forget the key meanwhile.
 */
const confirming = new Map<string, Set<Set<string>>>();

/**
 * Makes sure n8n still has the keys this run let through on `list`. n8n's check reads the whole
 * list and writes it back without a lock, so a check in another n8n process (a worker) that read
 * the list before this run's write and writes after it drops this run's keys. That write comes
 * within about one check's time, or longer in a busy process, so after a pause of three checks (at
 * least 100 ms) the keys are asked for again: those n8n calls new were lost, and that very check
 * has recorded them again. Asking again also rewrites the list, which can drop another run's keys
 * in turn; that run finds them in its own next check. Stops once no key was missing, after
 * MAX_CONFIRMATIONS checks, when the run is stopped, when every key was removed on purpose, or when
 * a check or a pause fails (the keys were recorded once; the run's items stay let through). Never
 * rejects, so that a caller may leave it running.
 */
export async function confirmKeysKept(
	check: TimedCheck,
	list: string,
	keys: string[],
	firstCheckMs: number,
	timing: { clock: Clock; stop: RunStop },
): Promise<void> {
	const pending = new Set(keys);
	const underWay = confirming.get(list) ?? new Set();
	confirming.set(list, underWay.add(pending));
	let longest = firstCheckMs;
	try {
		for (let confirmation = 1; confirmation <= MAX_CONFIRMATIONS; confirmation++) {
			if (!(await timing.stop.pause(timing.clock, pauseAfter(longest))) || pending.size === 0) break;
			const result = await check([...pending]);
			longest = Math.max(longest, result.ms);
			if (result.missing.length === 0) break;
		}
	} catch {
		// The keys were recorded once; nothing more to do.
	} finally {
		underWay.delete(pending);
		if (underWay.size === 0) confirming.delete(list);
	}
}

/**
 * A write that lands after a run's last confirmation (a process stalled for longer than the
 * pauses) still drops its keys. So the next runs in this n8n process ask, in their own check, for
 * the keys it let through lately: n8n records again any it lost. Bounded: the last minute, at most
 * 50 keys and a tenth of Keys Remembered (fewer than the list keeps, so that these keys are not
 * yet due to be forgotten while deliveries come at a usual pace), none longer than 1,000 characters.
 */
const ASK_AGAIN_FOR_MS = 60_000;
const ASK_AGAIN_AT_MOST = 50;
const ASK_AGAIN_KEY_LENGTH = 1_000;

type Noted = Array<{ key: string; at: number }>;
/** Per list, the keys this n8n process let through lately, oldest first. */
const letThrough = new Map<string, Noted>();

/** The list's keys of the last minute; lists whose keys are all older leave, checked again or not. */
function latest(list: string, now: number): Noted {
	// A list is set with at least one key (noteLetThrough), so each has a newest.
	for (const [other, noted] of letThrough) if (now - noted[noted.length - 1].at >= ASK_AGAIN_FOR_MS) letThrough.delete(other);
	return (letThrough.get(list) ?? []).filter((entry) => now - entry.at < ASK_AGAIN_FOR_MS);
}

/** The keys to ask for again in a check of `keys`, before them, so that n8n trims them first. */
export function keysToAskAgain(list: string, keys: readonly string[], maxEntries: number, now: number): string[] {
	const own = new Set(keys);
	const again = latest(list, now).filter((entry) => !own.has(entry.key));
	return again.slice(again.length - Math.min(again.length, Math.floor(maxEntries / 10))).map((entry) => entry.key);
}

/** Notes the keys a run let through, for the later checks of the list in this process. */
export function noteLetThrough(list: string, keys: readonly string[], now: number): void {
	const added = new Set(keys.filter((key) => key.length <= ASK_AGAIN_KEY_LENGTH));
	if (added.size === 0) return;
	const earlier = latest(list, now).filter((entry) => !added.has(entry.key));
	letThrough.set(list, [...earlier, ...[...added].map((key) => ({ key, at: now }))].slice(-ASK_AGAIN_AT_MOST));
}

/** Keys removed from n8n's list on purpose (all of them without `keys`) are not asked for again, nor confirmed. */
export function forgetLetThrough(list: string, keys?: readonly string[]): void {
	for (const pending of confirming.get(list) ?? []) {
		if (keys === undefined) pending.clear();
		else for (const key of keys) pending.delete(key);
	}
	const removed = new Set(keys);
	const kept = keys === undefined ? [] : (letThrough.get(list) ?? []).filter((entry) => !removed.has(entry.key));
	if (kept.length > 0) letThrough.set(list, kept);
	else letThrough.delete(list);
}

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
 * Makes sure n8n still has the keys this run let through. n8n's check reads the whole list and
 * writes it back without a lock, so a check in another n8n process (a worker) that read the list
 * before this run's write and writes after it drops this run's keys. That write comes within about
 * one check's time, or longer in a busy process, so after a pause of three checks (at least
 * 100 ms) the keys are asked for again: those n8n calls new were lost, and that very check has
 * recorded them again. Asking again also rewrites the list, which can drop another run's keys in
 * turn; that run finds them in its own next check. Stops once no key was missing, after
 * MAX_CONFIRMATIONS checks, when the run is stopped, or when a check fails (the keys were recorded
 * once; the run's items stay let through).
 */
export async function confirmKeysKept(
	check: TimedCheck,
	keys: string[],
	firstCheckMs: number,
	timing: { clock: Clock; stop: RunStop },
): Promise<void> {
	let longest = firstCheckMs;
	for (let confirmation = 1; confirmation <= MAX_CONFIRMATIONS; confirmation++) {
		if (!(await timing.stop.pause(timing.clock, pauseAfter(longest)))) break;
		let result: Awaited<ReturnType<TimedCheck>>;
		try {
			result = await check(keys);
		} catch {
			break;
		}
		longest = Math.max(longest, result.ms);
		if (result.missing.length === 0) break;
	}
}

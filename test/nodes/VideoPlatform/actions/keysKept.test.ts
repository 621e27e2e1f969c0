import { confirmKeysKept } from '../../../../nodes/VideoPlatform/actions/keysKept';
import type { TimedCheck } from '../../../../nodes/VideoPlatform/actions/keysKept';
import type { Clock } from '../../../../nodes/VideoPlatform/transport/stop';
import { RunStop } from '../../../../nodes/VideoPlatform/transport/stop';

// As docs/trigger.md (Drop Redelivered in queue mode) says: the node waits three times as long as its check took,
// at least 100 ms, at most 2 s, and asks again at most 3 times.
const PAUSE_PER_CHECK = 3;
const MIN_PAUSE_MS = 100;
const MAX_PAUSE_MS = 2_000;
const MAX_CONFIRMATIONS = 3;

/** A clock whose pauses end at once and are noted; `onPause` runs during each. */
function fakeClock(onPause: () => void = () => {}) {
	const pauses: number[] = [];
	const clock: Clock = {
		now: () => 0,
		sleep: async (ms) => {
			pauses.push(ms);
			onPause();
		},
	};
	return { clock, pauses };
}

/** A check that answers from `answers` in turn (missing keys and time taken), noting what it was asked. */
function scriptedCheck(answers: Array<{ missing: string[]; ms: number } | Error>) {
	const asked: string[][] = [];
	const check: TimedCheck = async (keys) => {
		asked.push(keys);
		const answer = answers[asked.length - 1];
		if (answer instanceof Error) throw answer;
		return answer;
	};
	return { check, asked };
}

describe('confirm keys kept', () => {
	it('pauses, asks again for the same keys, and stops once none is missing', async () => {
		const { clock, pauses } = fakeClock();
		const { check, asked } = scriptedCheck([{ missing: [], ms: 3 }]);
		await confirmKeysKept(check, ['k1', 'k2'], 50, { clock, stop: new RunStop() });
		expect(asked).toEqual([['k1', 'k2']]);
		expect(pauses).toEqual([50 * PAUSE_PER_CHECK]);
	});

	it('asks again while keys were missing (each check records them again), at most the bound, pausing for the longest check so far', async () => {
		const { clock, pauses } = fakeClock();
		const lost = { missing: ['k1'], ms: 100 };
		const { check, asked } = scriptedCheck([lost, { missing: ['k1'], ms: 5 }, { missing: [], ms: 1 }]);
		await confirmKeysKept(check, ['k1'], 40, { clock, stop: new RunStop() });
		expect(asked).toHaveLength(3);
		expect(pauses).toEqual([40, 100, 100].map((ms) => ms * PAUSE_PER_CHECK));

		const always = scriptedCheck(Array.from({ length: 10 }, () => lost));
		await confirmKeysKept(always.check, ['k1'], 10, { clock, stop: new RunStop() });
		expect(always.asked).toHaveLength(MAX_CONFIRMATIONS);
	});

	it.each([
		[0, MIN_PAUSE_MS],
		[-50, MIN_PAUSE_MS],
		[33.4, MIN_PAUSE_MS + 1],
		[400, 1_200],
		[60_000, MAX_PAUSE_MS],
	])('after a check of %p ms pauses %p ms', async (checkMs, pause) => {
		const { clock, pauses } = fakeClock();
		await confirmKeysKept(scriptedCheck([{ missing: [], ms: 0 }]).check, ['k1'], checkMs, { clock, stop: new RunStop() });
		expect(pauses).toEqual([pause]);
	});

	it('asks nothing more once the run is stopped, even during a pause', async () => {
		const cancel = new AbortController();
		const { clock } = fakeClock(() => cancel.abort());
		const { check, asked } = scriptedCheck([{ missing: ['k1'], ms: 1 }]);
		await confirmKeysKept(check, ['k1'], 1, { clock, stop: new RunStop(cancel.signal) });
		expect(asked).toEqual([]);
	});

	it('ends without failing the run when a check fails (the keys were recorded once)', async () => {
		const { clock } = fakeClock();
		const { check, asked } = scriptedCheck([new Error('Connection terminated'), { missing: [], ms: 1 }]);
		await expect(confirmKeysKept(check, ['k1'], 1, { clock, stop: new RunStop() })).resolves.toBeUndefined();
		expect(asked).toHaveLength(1);
	});
});

import fc from 'fast-check';

import { confirmKeysKept, forgetLetThrough, keysToAskAgain, noteLetThrough } from '../../../../nodes/VideoPlatform/actions/keysKept';
import type { TimedCheck } from '../../../../nodes/VideoPlatform/actions/keysKept';
import type { Clock } from '../../../../nodes/VideoPlatform/transport/stop';
import { RunStop } from '../../../../nodes/VideoPlatform/transport/stop';
import { mostHeapGrowth } from '../../../helpers/heap';
import { anyText } from '../../../helpers/unicode';

// As docs/trigger.md (Drop Redelivered in queue mode) says: the node asks again after three times as long as its check took,
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

const LIST = 'workflow\u0000n:node';

describe('confirm keys kept', () => {
	it('pauses, asks again for the same keys, and stops once none is missing', async () => {
		const { clock, pauses } = fakeClock();
		const { check, asked } = scriptedCheck([{ missing: [], ms: 3 }]);
		await confirmKeysKept(check, LIST, ['k1', 'k2'], 50, { clock, stop: new RunStop() });
		expect(asked).toEqual([['k1', 'k2']]);
		expect(pauses).toEqual([50 * PAUSE_PER_CHECK]);
	});

	it('asks again while keys were missing (each check records them again), at most the bound, pausing for the longest check so far', async () => {
		const { clock, pauses } = fakeClock();
		const lost = { missing: ['k1'], ms: 100 };
		const { check, asked } = scriptedCheck([lost, { missing: ['k1'], ms: 5 }, { missing: [], ms: 1 }]);
		await confirmKeysKept(check, LIST, ['k1'], 40, { clock, stop: new RunStop() });
		expect(asked).toHaveLength(3);
		expect(pauses).toEqual([40, 100, 100].map((ms) => ms * PAUSE_PER_CHECK));

		const always = scriptedCheck(Array.from({ length: 10 }, () => lost));
		await confirmKeysKept(always.check, LIST, ['k1'], 10, { clock, stop: new RunStop() });
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
		await confirmKeysKept(scriptedCheck([{ missing: [], ms: 0 }]).check, LIST, ['k1'], checkMs, { clock, stop: new RunStop() });
		expect(pauses).toEqual([pause]);
	});

	it('asks nothing more once the run is stopped, even during a pause', async () => {
		const cancel = new AbortController();
		const { clock } = fakeClock(() => cancel.abort());
		const { check, asked } = scriptedCheck([{ missing: ['k1'], ms: 1 }]);
		await confirmKeysKept(check, LIST, ['k1'], 1, { clock, stop: new RunStop(cancel.signal) });
		expect(asked).toEqual([]);
	});

	it('never rejects, even when a pause fails before it begins, so that Drop Redelivered can leave it running', async () => {
		const clock: Clock = {
			now: () => 0,
			sleep: () => {
				throw new Error('no timers');
			},
		};
		const { check, asked } = scriptedCheck([{ missing: [], ms: 1 }]);
		await expect(confirmKeysKept(check, LIST, ['k1'], 1, { clock, stop: new RunStop() })).resolves.toBeUndefined();
		expect(asked).toEqual([]);
	});

	it('does not record again a key removed from its list on purpose meanwhile, and asks nothing once all were', async () => {
		const some = scriptedCheck([{ missing: [], ms: 1 }]);
		let pauses = 0;
		const forgetting = fakeClock(() => ++pauses === 2 && forgetLetThrough(LIST, ['k2']));
		await confirmKeysKept(some.check, LIST, ['k1', 'k2', 'k3'], 1, { clock: fakeClock(() => forgetLetThrough(LIST, ['k1'])).clock, stop: new RunStop() });
		expect(some.asked).toEqual([['k2', 'k3']]);

		const later = scriptedCheck([{ missing: ['k2'], ms: 1 }, { missing: [], ms: 1 }]);
		await confirmKeysKept(later.check, LIST, ['k1', 'k2'], 1, { clock: forgetting.clock, stop: new RunStop() });
		expect(later.asked).toEqual([['k1', 'k2'], ['k1']]);

		const cleared = scriptedCheck([{ missing: [], ms: 1 }]);
		await confirmKeysKept(cleared.check, LIST, ['k1', 'k2'], 1, { clock: fakeClock(() => forgetLetThrough(LIST)).clock, stop: new RunStop() });
		expect(cleared.asked).toEqual([]);

		const otherList = scriptedCheck([{ missing: [], ms: 1 }]);
		await confirmKeysKept(otherList.check, LIST, ['k1'], 1, { clock: fakeClock(() => forgetLetThrough(`${LIST}-other`)).clock, stop: new RunStop() });
		expect(otherList.asked).toEqual([['k1']]);
	});

	it('does not record again a key removed on purpose after another confirmation of its list ended', async () => {
		const first = scriptedCheck([{ missing: [], ms: 1 }]);
		const second = scriptedCheck([{ missing: [], ms: 1 }]);
		let endSecondPause = () => {};
		const held: Clock = { now: () => 0, sleep: async () => await new Promise<void>((resolve) => (endSecondPause = resolve)) };
		const secondDone = confirmKeysKept(second.check, LIST, ['k2'], 1, { clock: held, stop: new RunStop() });
		// The first ends during the second's pause; then k2 is removed.
		await confirmKeysKept(first.check, LIST, ['k1'], 1, { clock: fakeClock().clock, stop: new RunStop() });
		forgetLetThrough(LIST, ['k2']);
		endSecondPause();
		await secondDone;
		expect(first.asked).toEqual([['k1']]);
		expect(second.asked).toEqual([]);
	});

	it('holds nothing in memory once it has ended', async () => {
		const { clock } = fakeClock();
		// Flat texts of their own: a text joined from a shared part would hold only a few bytes of its own.
		const flat = (text: string, length: number) => Buffer.from(text.padEnd(length, '.')).toString('latin1');
		/** 4,000 confirmations of five keys of 1,000 characters, each on a list of its own named in 2,000, run to their end. */
		const confirmations = async (round: number) => {
			for (let i = 0; i < 4_000; i++) {
				const keys = [0, 1, 2, 3, 4].map((j) => flat(`${round}:${i}:${j}`, 1_000));
				await confirmKeysKept(scriptedCheck([{ missing: [], ms: 1 }]).check, flat(`${round}:${i}`, 2_000), keys, 1, { clock, stop: new RunStop() });
			}
		};
		// Kept, a round's keys would hold over 20 MB, and its lists' names alone 8 MB.
		expect(await mostHeapGrowth(confirmations)).toBeLessThan(5 * 1024 * 1024);
	});

	it('ends without failing the run when a check fails (the keys were recorded once)', async () => {
		const { clock } = fakeClock();
		const { check, asked } = scriptedCheck([new Error('Connection terminated'), { missing: [], ms: 1 }]);
		await expect(confirmKeysKept(check, LIST, ['k1'], 1, { clock, stop: new RunStop() })).resolves.toBeUndefined();
		expect(asked).toHaveLength(1);
	});
});

// As docs/trigger.md (Drop Redelivered in queue mode) says: later checks in the same n8n process ask
// again for its keys of the last minute, at most 50 and a tenth of Keys Remembered.
const ASK_AGAIN_FOR_MS = 60_000;
const ASK_AGAIN_AT_MOST = 50;

describe('keys asked for again by later checks', () => {
	let lists = 0;
	/** A list no other test notes keys on: the keys are kept per n8n process. */
	const newList = () => `workflow-${++lists}\u0000n:node`;
	const keys = (count: number, prefix = 'k') => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

	it("are the keys let through on the same list, oldest first, without the run's own or another list's", () => {
		const list = newList();
		noteLetThrough(list, ['a', 'b'], 0);
		noteLetThrough(newList(), ['other'], 0);
		noteLetThrough(list, ['c'], 10);
		expect(keysToAskAgain(list, ['b', 'new'], 10_000, 20)).toEqual(['a', 'c']);
		expect(keysToAskAgain(newList(), [], 10_000, 20)).toEqual([]);
	});

	it('are those of the last minute only', () => {
		const list = newList();
		noteLetThrough(list, ['old'], 0);
		noteLetThrough(list, ['late'], 1);
		expect(keysToAskAgain(list, [], 10_000, ASK_AGAIN_FOR_MS - 1)).toEqual(['old', 'late']);
		expect(keysToAskAgain(list, [], 10_000, ASK_AGAIN_FOR_MS)).toEqual(['late']);
		expect(keysToAskAgain(list, [], 10_000, ASK_AGAIN_FOR_MS + 1)).toEqual([]);
	});

	it('are at most the latest 50, a key let through again counting once, as its latest', () => {
		const list = newList();
		noteLetThrough(list, keys(60), 0);
		expect(keysToAskAgain(list, [], 10_000, 1)).toEqual(keys(60).slice(-ASK_AGAIN_AT_MOST));
		noteLetThrough(list, ['k20'], 2);
		expect(keysToAskAgain(list, [], 10_000, 3)).toEqual([...keys(60).slice(-ASK_AGAIN_AT_MOST).filter((key) => key !== 'k20'), 'k20']);
	});

	it.each([
		[100, 10],
		[109, 10],
		[10, 1],
		[9, 0],
		[2, 0],
		[100_000, ASK_AGAIN_AT_MOST],
	])('with Keys Remembered %p, are at most %p, the latest: a key n8n forgot is not brought back', (maxEntries, count) => {
		const list = newList();
		noteLetThrough(list, keys(60), 0);
		expect(keysToAskAgain(list, [], maxEntries, 1)).toEqual(count === 0 ? [] : keys(60).slice(-count));
	});

	it('leave out the keys removed on purpose, or all of them when the list was cleared', () => {
		const list = newList();
		noteLetThrough(list, ['a', 'b', 'c'], 0);
		forgetLetThrough(list, ['b', 'unknown']);
		expect(keysToAskAgain(list, [], 10_000, 1)).toEqual(['a', 'c']);
		forgetLetThrough(list, ['a', 'c']);
		expect(keysToAskAgain(list, [], 10_000, 1)).toEqual([]);
		noteLetThrough(list, ['d'], 2);
		forgetLetThrough(list);
		expect(keysToAskAgain(list, [], 10_000, 3)).toEqual([]);
		forgetLetThrough(newList());
	});

	it('are held in memory no longer than a minute, also for lists no run checks again', async () => {
		const KEY_NUMBERS = [0, 1, 2, 3, 4];
		/** 4,000 lists get five keys of 1,000 characters each; a minute later another list gets one. */
		const keysThenAMinute = (round: number) => {
			const start = (round + 1) * 1e9;
			// Flat keys of their own: a key joined from a shared part would hold only a few bytes of its own.
			for (let i = 0; i < 4_000; i++) noteLetThrough(newList(), KEY_NUMBERS.map((j) => Buffer.from(`${i}:${j}`.padEnd(1_000, '.')).toString('latin1')), start);
			noteLetThrough(newList(), ['now'], start + ASK_AGAIN_FOR_MS);
		};
		// Kept, a round's 20,000 keys of 1,000 characters would hold over 20 MB.
		expect(await mostHeapGrowth(keysThenAMinute)).toBeLessThan(5 * 1024 * 1024);
	});

	it('leave memory once their list is cleared or loses all its keys, though no run checks it again', async () => {
		/** 4,000 lists of 5,000 characters are cleared or lose a key, alternately. */
		const forgetting = () => {
			for (let i = 0; i < 4_000; i++) forgetLetThrough(Buffer.from(newList().padEnd(5_000, '.')).toString('latin1'), i % 2 === 0 ? undefined : ['k']);
		};
		// Kept, a round's lists would hold over 20 MB.
		expect(await mostHeapGrowth(forgetting)).toBeLessThan(5 * 1024 * 1024);
	});

	it('leave out a key longer than 1,000 characters (memory), and keep one of 1,000', () => {
		const list = newList();
		noteLetThrough(list, ['x'.repeat(1_001), 'y'.repeat(1_000)], 0);
		expect(keysToAskAgain(list, [], 10_000, 1)).toEqual(['y'.repeat(1_000)]);
	});

	it('for any keys in full Unicode, are keys let through, each once, none of the run, within both bounds', () => {
		fc.assert(
			fc.property(fc.array(fc.array(anyText({ maxLength: 8 }), { maxLength: 30 }), { maxLength: 6 }), fc.array(anyText({ maxLength: 8 })), fc.integer({ min: 1, max: 1_000 }), (runs, own, maxEntries) => {
				const list = newList();
				runs.forEach((run, i) => noteLetThrough(list, run, i));
				const again = keysToAskAgain(list, own, maxEntries, runs.length);
				const noted = new Set(runs.flat());
				expect(again.every((key) => noted.has(key) && !own.includes(key))).toBe(true);
				expect(new Set(again).size).toBe(again.length);
				expect(again.length).toBeLessThanOrEqual(Math.min(ASK_AGAIN_AT_MOST, Math.floor(maxEntries / 10)));
				const latestRun = runs.at(-1) ?? [];
				if (maxEntries >= 10 * ASK_AGAIN_AT_MOST && latestRun.length > 0 && !own.includes(latestRun.at(-1) as string)) expect(latestRun).toContain(again.at(-1));
			}),
		);
	});
});

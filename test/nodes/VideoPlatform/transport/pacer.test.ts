import { RequestPacer } from '../../../../nodes/VideoPlatform/transport/pacer';
import { fakeClock } from '../../../helpers/sandbox';

type Clock = ReturnType<typeof fakeClock>;

/** Sends `count` requests through the pacer, all accepted, and returns when each started. */
async function sendAccepted(pacer: RequestPacer, clock: Clock, count: number): Promise<number[]> {
	const starts: number[] = [];
	for (let i = 0; i < count; i++) {
		await pacer.waitForTurn();
		starts.push(clock.now());
		pacer.recordAccepted();
	}
	return starts;
}

/** A pacer that has learned 9.8 requests/s from a 429 at t=0 after 10 accepted; paused to t=1000. */
async function pacerAfterFirst429() {
	const clock = fakeClock(0);
	const pacer = new RequestPacer(clock);
	await sendAccepted(pacer, clock, 10);
	clock.sleeps.length = 0;
	pacer.recordRefusal(1000);
	return { clock, pacer };
}

describe('RequestPacer before any 429', () => {
	it('holds nothing', async () => {
		const clock = fakeClock(0);
		const pacer = new RequestPacer(clock);
		await sendAccepted(pacer, clock, 50);
		expect(clock.sleeps).toEqual([]);
		expect(pacer.rateAt(clock.now())).toBe(Infinity);
	});
});

describe('RequestPacer at a 429 at the rate it knows', () => {
	it('holds every request until the pause ends, then spaces them at 98 % of the rate accepted', async () => {
		const { clock, pacer } = await pacerAfterFirst429();
		const starts = await sendAccepted(pacer, clock, 3);
		// 10 accepted in the second before: 9.8 a second, one every 102.0 ms, after the 1 s pause.
		expect(starts[0]).toBe(1000);
		expect(starts[1] - starts[0]).toBeCloseTo(1000 / 9.8, 5);
		expect(starts[2] - starts[1]).toBeCloseTo(1000 / 9.8, 5);
	});

	it('learns once from a burst of 429s, and only the first of them pauses', async () => {
		const { clock, pacer } = await pacerAfterFirst429();
		pacer.recordRefusal(1000);
		pacer.recordRefusal(2000);
		expect(pacer.rateAt(clock.now())).toBeCloseTo(9.8, 5);
		await pacer.waitForTurn();
		expect(clock.now()).toBe(1000);
	});

	it('with a rate learned, steps back to what was accepted, and only the refused request waits', async () => {
		const { clock, pacer } = await pacerAfterFirst429();
		// Still in the hold (until t=3000): three accepted at 2500, 2605 and 2710, then a 429.
		await clock.sleep(2500);
		await sendAccepted(pacer, clock, 3);
		pacer.recordRefusal(1000);
		expect(pacer.rateAt(clock.now())).toBeCloseTo(3 * 0.98, 5);
		const refusedAt = clock.now();
		await pacer.waitForTurn();
		expect(clock.now() - refusedAt).toBeLessThan(1000 / 2.94);
	});

	it('pauses every request for a Retry-After over 2 s, a lockout rather than a per-second limit', async () => {
		const { clock, pacer } = await pacerAfterFirst429();
		await clock.sleep(2500);
		await sendAccepted(pacer, clock, 3);
		pacer.recordRefusal(5000);
		const refusedAt = clock.now();
		await pacer.waitForTurn();
		expect(clock.now()).toBe(refusedAt + 5000);
	});
});

describe('RequestPacer joining a limit that others already use up', () => {
	it('waits out two pauses before it learns from too few accepted requests, then learns', async () => {
		const clock = fakeClock(0);
		const pacer = new RequestPacer(clock);
		for (let burst = 1; burst <= 2; burst++) {
			await sendAccepted(pacer, clock, 2);
			pacer.recordRefusal(1000);
			expect(pacer.rateAt(clock.now())).toBe(Infinity);
			const refusedAt = clock.now();
			await pacer.waitForTurn();
			expect(clock.now()).toBe(refusedAt + 1000);
			await clock.sleep(1000);
		}
		await sendAccepted(pacer, clock, 2);
		pacer.recordRefusal(1000);
		expect(pacer.rateAt(clock.now())).toBeCloseTo(2 * 0.98, 5);
	});
});

describe('RequestPacer recovering', () => {
	it('keeps the learned rate for 2 s, then raises it by 20 % a second', async () => {
		const { clock, pacer } = await pacerAfterFirst429();
		// The hold counts from the end of the pause, at t=1000.
		expect(pacer.rateAt(2000)).toBeCloseTo(9.8, 5);
		expect(pacer.rateAt(3000)).toBeCloseTo(9.8, 5);
		expect(pacer.rateAt(4000)).toBeCloseTo(9.8 * Math.exp(0.2), 5);
		expect(pacer.rateAt(3000 + 1000 * (Math.log(2) / 0.2))).toBeCloseTo(19.6, 5);
		expect(clock.now()).toBe(0);
	});

	it('spaces requests closer as the rate rises', async () => {
		const { clock, pacer } = await pacerAfterFirst429();
		await clock.sleep(8000);
		const starts = await sendAccepted(pacer, clock, 2);
		expect(starts[1] - starts[0]).toBeLessThan((1000 / 9.8) * 0.5);
	});

	it('at a 429 while rising, steps back to what was accepted without holding the others', async () => {
		const { clock, pacer } = await pacerAfterFirst429();
		// At t=8000 the rate has risen for 5 s to 9.8 * e = 26.6 a second.
		await clock.sleep(8000);
		await sendAccepted(pacer, clock, 14);
		const rising = pacer.rateAt(clock.now());
		expect(rising).toBeGreaterThan(25);
		pacer.recordRefusal(1000);

		// 14 were accepted in the last second: the safe rate becomes 13.7, above the old 9.8.
		expect(pacer.rateAt(clock.now())).toBeCloseTo(14 * 0.98, 5);
		const next = clock.now();
		await pacer.waitForTurn();
		// Only the spacing, never the 1 s the refused request itself waits.
		expect(clock.now() - next).toBeLessThan(1000 / 9.8);
	});
});

describe('RequestPacer with late timers', () => {
	/** A clock whose every sleep ends `lateMs` after it should, as timers do on a busy event loop. */
	function lateClock(lateMs: number) {
		const clock = fakeClock(0);
		return { ...clock, sleep: async (ms: number) => await clock.sleep(ms + lateMs) };
	}

	it('keeps the learned rate on average: a late start does not push back the slots after it', async () => {
		const clock = lateClock(30);
		const pacer = new RequestPacer(clock);
		await sendAccepted(pacer, clock, 10);
		pacer.recordRefusal(1000);
		// 9.8 a second learned: 20 requests after the pause take 19 slots, each woken 30 ms late.
		const starts = await sendAccepted(pacer, clock, 20);
		expect(starts[19] - starts[0]).toBeCloseTo((19 * 1000) / 9.8, 5);
	});

	it('makes up at most one slot after a quiet spell, so that no burst follows it', async () => {
		const { clock, pacer } = await pacerAfterFirst429();
		await sendAccepted(pacer, clock, 1);
		// Nothing sent for the ten slots up to t=2000, still within the hold.
		await clock.sleep(1000);
		const starts = await sendAccepted(pacer, clock, 3);
		expect(starts[0]).toBe(2000);
		expect(starts[1]).toBe(2000);
		expect(starts[2] - starts[1]).toBeCloseTo(1000 / 9.8, 5);
	});
});

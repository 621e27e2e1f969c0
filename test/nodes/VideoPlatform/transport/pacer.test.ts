import { RequestPacer } from '../../../../nodes/VideoPlatform/transport/pacer';
import { fakeClock } from '../../../helpers/sandbox';

describe('RequestPacer', () => {
	it('lets requests through until a pause, then holds all of them until it ends', async () => {
		const clock = fakeClock(0);
		const pacer = new RequestPacer(clock);
		await pacer.waitForTurn();
		expect(clock.sleeps).toEqual([]);

		pacer.pauseFor(1000);
		await Promise.all([pacer.waitForTurn(), pacer.waitForTurn()]);
		expect(clock.now()).toBeGreaterThanOrEqual(1000);
		expect(clock.sleeps).toEqual([1000, 1000].slice(0, clock.sleeps.length));
	});

	it('keeps the later end when pauses overlap, and counts overlapping pauses once', async () => {
		const clock = fakeClock(0);
		const pacer = new RequestPacer(clock);
		pacer.pauseFor(2000);
		pacer.pauseFor(500);
		await pacer.waitForTurn();
		expect(clock.now()).toBe(2000);
		pacer.pauseFor(300);
		expect(pacer.rateLimits.pausedMs).toBe(2300);
	});
});

describe('RequestPacer after a 429', () => {
	it('spaces requests at the rate the platform accepted in the second before', async () => {
		const clock = fakeClock(0);
		const pacer = new RequestPacer(clock);
		for (let i = 0; i < 10; i++) {
			await pacer.waitForTurn();
			pacer.recordAccepted();
		}
		pacer.pauseFor(1000);
		const starts: number[] = [];
		for (let i = 0; i < 4; i++) {
			await pacer.waitForTurn();
			starts.push(clock.now());
		}
		// 10 accepted in the last second: one request every 100 ms (plus a 5 % margin).
		expect(starts).toEqual([1000, 1105, 1210, 1315]);
	});

	it('does not space requests before any 429', async () => {
		const clock = fakeClock(0);
		const pacer = new RequestPacer(clock);
		for (let i = 0; i < 5; i++) await pacer.waitForTurn();
		expect(clock.sleeps).toEqual([]);
	});
});

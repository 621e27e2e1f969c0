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

	it('keeps the later end when pauses overlap', async () => {
		const clock = fakeClock(0);
		const pacer = new RequestPacer(clock);
		pacer.pauseFor(2000);
		pacer.pauseFor(500);
		await pacer.waitForTurn();
		expect(clock.now()).toBe(2000);
	});
});

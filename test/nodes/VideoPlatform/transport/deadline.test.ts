import { Deadline, RunStop } from '../../../../nodes/VideoPlatform/transport/stop';

const ended = async (deadline: Deadline) => await new Promise<number>((resolve) => {
	const started = Date.now();
	deadline.onEnd(() => resolve(Date.now() - started));
});

describe('a request deadline', () => {
	it('ends the request once its length has passed, not before', async () => {
		const deadline = new Deadline(300);
		const after = await ended(deadline);
		expect(after).toBeGreaterThanOrEqual(299);
		expect(after).toBeLessThan(300 + 5000); // generous: a loaded machine delays timers; "not before" is the point
		expect(deadline.expired).toBe(true);
		expect(deadline.cancelled).toBe(false);
	});

	it('once finished, never ends the request, though others due in the same slot do', async () => {
		const finished = new Deadline(100);
		const other = new Deadline(100);
		let told = false;
		finished.onEnd(() => (told = true));
		finished.finish();
		await ended(other);
		expect(other.expired).toBe(true);
		expect(finished.ended).toBe(false);
		expect(told).toBe(false);
	});

	it('tells a listener that comes after its end at once, and each listener once', async () => {
		const deadline = new Deadline(50);
		let calls = 0;
		deadline.onEnd(() => calls++);
		await ended(deadline);
		deadline.end('cancelled');
		expect(calls).toBe(1);
		expect(deadline.expired).toBe(true);
		let late = false;
		deadline.onEnd(() => (late = true));
		expect(late).toBe(true);
	});

	it('no longer tells a listener that stopped watching', async () => {
		const deadline = new Deadline(50);
		let told = false;
		const stopWatching = deadline.onEnd(() => (told = true));
		stopWatching();
		await ended(deadline);
		expect(told).toBe(false);
	});
});

describe("a run's stop and its requests' deadlines", () => {
	it('the user stopping the execution ends every request under way at once, as cancelled, not expired', () => {
		const stop = new AbortController();
		const run = new RunStop(stop.signal);
		const deadlines = [run.deadline(60_000), run.deadline(60_000)];
		const told: boolean[] = [];
		for (const deadline of deadlines) deadline.onEnd(() => told.push(deadline.cancelled));
		stop.abort();
		expect(told).toEqual([true, true]);
		expect(deadlines.map((deadline) => deadline.expired)).toEqual([false, false]);
		for (const deadline of deadlines) deadline.finish();
	});

	it('a request that starts after the stop is cancelled from the start', () => {
		const stop = new AbortController();
		const run = new RunStop(stop.signal);
		stop.abort();
		const deadline = run.deadline(60_000);
		expect(deadline.cancelled).toBe(true);
		deadline.finish();
	});

	it('an execution stopped before the run began cancels its requests from the start', () => {
		const stop = new AbortController();
		stop.abort();
		const deadline = new RunStop(stop.signal).deadline(60_000);
		expect(deadline.cancelled).toBe(true);
		deadline.finish();
	});

	it('a finished request is not cancelled by a later stop', () => {
		const stop = new AbortController();
		const run = new RunStop(stop.signal);
		const deadline = run.deadline(60_000);
		deadline.finish();
		stop.abort();
		expect(deadline.ended).toBe(false);
	});

	it('an item failing the run does not cut short the requests under way', () => {
		const run = new RunStop(new AbortController().signal);
		const deadline = run.deadline(60_000);
		run.stopAfterFailure();
		expect(deadline.ended).toBe(false);
		deadline.finish();
	});
});

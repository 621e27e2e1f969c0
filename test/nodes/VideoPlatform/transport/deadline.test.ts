import { Deadline } from '../../../../nodes/VideoPlatform/transport/stop';

const aborted = async (signal: AbortSignal) => await new Promise<number>((resolve) => {
	const started = Date.now();
	signal.addEventListener('abort', () => resolve(Date.now() - started), { once: true });
});

describe('a request deadline', () => {
	it('ends the request once its length has passed, not before', async () => {
		const deadline = new Deadline(300);
		const after = await aborted(deadline.signal);
		expect(after).toBeGreaterThanOrEqual(299);
		expect(after).toBeLessThan(300 + 5000); // generous: a loaded machine delays timers; "not before" is the point
		expect(deadline.expired).toBe(true);
		expect(deadline.cancelled).toBe(false);
	});

	it('once finished, never ends the request, though others due in the same slot do', async () => {
		const finished = new Deadline(100);
		const other = new Deadline(100);
		finished.finish();
		await aborted(other.signal);
		expect(other.expired).toBe(true);
		expect(finished.expired).toBe(false);
		expect(finished.signal.aborted).toBe(false);
	});

	it('the user stopping the execution ends it at once, as cancelled, not expired', () => {
		const stop = new AbortController();
		const deadline = new Deadline(60_000, stop.signal);
		stop.abort();
		expect(deadline.signal.aborted).toBe(true);
		expect(deadline.cancelled).toBe(true);
		expect(deadline.expired).toBe(false);
		deadline.finish();
	});
});

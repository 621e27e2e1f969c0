import { getEventListeners } from 'node:events';
import { PassThrough } from 'node:stream';

import type { NodeApiError } from 'n8n-workflow';

import { PlatformClient } from '../../../../nodes/VideoPlatform/transport/client';
import { PacerRegistry } from '../../../../nodes/VideoPlatform/transport/pacer';
import type { Clock } from '../../../../nodes/VideoPlatform/transport/stop';
import { Deadline, RunStop, systemClock } from '../../../../nodes/VideoPlatform/transport/stop';
import type { HttpHandler } from '../../../helpers/executeContext';
import { createExecuteContext } from '../../../helpers/executeContext';
import { createRoom, MAY_HAVE_CREATED_ROOM } from '../../../helpers/platformClient';
import type { Sandbox } from '../../../helpers/sandbox';
import { SANDBOX_KEY, startLockedOutSandbox as lockedOut, startSandbox } from '../../../helpers/sandbox';
import { until, watchForNothing } from '../../../helpers/waits';

// Real time and n8n-core's real client: a stop must end real waits and real requests. The
// waits here are 20 s or more, and a stop must end them within a second.
let sandbox: Sandbox;
afterEach(async () => await sandbox?.stop());

function stoppableClient(baseUrl: string, http?: HttpHandler, clock?: Clock) {
	const cancel = new AbortController();
	const context = createExecuteContext({ credentials: { baseUrl, apiKey: SANDBOX_KEY }, cancelSignal: cancel.signal, http });
	const client = new PlatformClient(context, 'room', { clock });
	return { client, cancel };
}

/** How long a request took to fail once `stop` ran, and its error. */
async function failureAfterStop(pending: Promise<unknown>, stop: () => void) {
	const failed = pending.then(
		() => {
			throw new Error('expected the request to fail');
		},
		(error: NodeApiError) => error,
	);
	const stoppedAt = Date.now();
	stop();
	const error = await failed;
	return { error, msAfterStop: Date.now() - stoppedAt };
}

/** What `pending` settles to; fails if it still waits after a second. */
async function withinOneSecond<T>(pending: Promise<T>): Promise<T> {
	let settled = false;
	const markSettled = () => (settled = true);
	void pending.then(markSettled, markSettled);
	await until(() => settled, 1000);
	return await pending;
}

describe('the user stops the execution', () => {
	it('while the pacer still holds an item that a 429 refused: says it waited to be sent again, and counts it as held back', async () => {
		sandbox = await lockedOut('1');
		const cancel = new AbortController();
		// Time stands still: the item's own wait after its 429 ends, the pacer, paused as long, still holds
		// it, and the stop lands during that second wait.
		let sleeps = 0;
		const clock: Clock = { now: () => 0, sleep: async () => void (++sleeps === 2 && cancel.abort()) };
		const context = createExecuteContext({ credentials: { baseUrl: sandbox.url, apiKey: SANDBOX_KEY }, cancelSignal: cancel.signal });
		const client = new PlatformClient(context, 'room', { clock });
		const { error } = await failureAfterStop(client.request(createRoom, 2), () => {});
		expect(error.message).toBe('The execution was stopped while this item waited to be sent again after HTTP 429 [item 2]');
		expect(sandbox.state.counts.total).toBe(1);
		expect(client.wasHeldBack(2)).toBe(true);
	});


	it('while an item waits out a long Retry-After: it ends at once and is not sent again', async () => {
		sandbox = await lockedOut('20');
		const { client, cancel } = stoppableClient(sandbox.url);
		const pending = client.request(createRoom, 4);
		await until(() => client.rateLimits.refused === 1);

		const { error, msAfterStop } = await failureAfterStop(pending, () => cancel.abort());
		expect(msAfterStop).toBeLessThan(1000);
		expect(error.message).toBe('The execution was stopped while this item waited to be sent again after HTTP 429 [item 4]');
		expect(error.description).toBe('The platform had refused it with HTTP 429 and it was not sent again, so no room was created for it.');
		expect(error.description).not.toContain('may have');
		await watchForNothing(); // only time shows that it is not sent again later
		expect(sandbox.state.counts.total).toBe(1);
	});

	it('an answer that comes after the deadline is dropped unread: its stream is destroyed, its connection not left open', async () => {
		const late = new PassThrough();
		let answer: (response: unknown) => void = () => {};
		const http: HttpHandler = async () => await new Promise((resolve) => (answer = resolve));
		const context = createExecuteContext({ credentials: { baseUrl: 'https://video.example.com', apiKey: SANDBOX_KEY }, http });
		const error = await new PlatformClient(context, 'room', { policy: { deadlineMs: 50 } }).request(createRoom, 0).catch((caught: NodeApiError) => caught);
		expect((error as NodeApiError).message).toMatch(/\(timeout\) \[item 0\]$/);
		answer({ statusCode: 201, headers: {}, body: late });
		await until(() => late.destroyed);
	});

	it('while a 429 answer is still being read: it ends at once, not after the Retry-After', async () => {
		const answer = new PassThrough();
		let sent = 0;
		const http: HttpHandler = async () => {
			sent++;
			return { statusCode: 429, headers: { 'retry-after': '20' }, body: answer };
		};
		const { client, cancel } = stoppableClient('https://video.example.com', http);
		const pending = client.request(createRoom, 5);
		await until(() => client.rateLimits.refused === 1);
		answer.write('{"message":"slow');

		const { error, msAfterStop } = await failureAfterStop(pending, () => {
			cancel.abort();
			answer.end(' down"}');
		});
		expect(msAfterStop).toBeLessThan(1000);
		expect(error.message).toBe('The execution was stopped while this item waited to be sent again after HTTP 429 [item 5]');
		expect(sent).toBe(1);
	});

	it('while an item waits for the shared pacer: it ends at once and sends nothing', async () => {
		sandbox = await lockedOut('30');
		// The system clock's real waits, counted: the second wait begun is the second item's, for the pacer.
		const waits: number[] = [];
		const countingClock: Clock = {
			now: systemClock.now,
			sleep: async (ms, signal) => {
				waits.push(ms);
				await systemClock.sleep(ms, signal);
			},
		};
		const { client, cancel } = stoppableClient(sandbox.url, undefined, countingClock);
		// The first 429 makes the pacer hold every request of the run for 30 s.
		const first = client.request(createRoom, 0).catch((error: NodeApiError) => error);
		await until(() => client.rateLimits.refused === 1);
		const second = client.request(createRoom, 1);
		await until(() => waits.length === 2);
		expect(sandbox.state.counts.total).toBe(1);

		const { error, msAfterStop } = await failureAfterStop(second, () => cancel.abort());
		expect(msAfterStop).toBeLessThan(1000);
		expect(error.message).toBe('The execution was stopped before this item was sent [item 1]');
		expect(error.description).toBe('Nothing was sent for this item, so no room was created for it.');
		await first;
		expect(sandbox.state.counts.total).toBe(1);
		// Held back, both: the one never sent and the one refused with 429. A failed run's report puts another item's error first.
		expect([client.wasHeldBack(1), client.wasHeldBack(0)]).toEqual([true, true]);
	});

	it('while the platform is slow to answer: it ends at once, and says the room may exist', async () => {
		sandbox = await startSandbox({ latencyMs: 20_000 });
		const { client, cancel } = stoppableClient(sandbox.url);
		const pending = client.request(createRoom, 2);
		await until(() => sandbox.state.counts.total === 1);

		const { error, msAfterStop } = await failureAfterStop(pending, () => cancel.abort());
		expect(msAfterStop).toBeLessThan(1000);
		expect(error.message).toBe("The execution was stopped while this item's request was waiting for its answer [item 2]");
		expect(error.description).toBe(MAY_HAVE_CREATED_ROOM);
		// Sent, so not held back: a failed run's report names it among those the platform may have acted on.
		expect(client.wasHeldBack(2)).toBe(false);
	});

	it('while an item waits, on n8n 1.x whose sleep ignores the stop: the wait still ends at once', async () => {
		const cancel = new AbortController();
		const stop = new RunStop(cancel.signal);
		const deafClock: Clock = { now: systemClock.now, sleep: async () => await new Promise<void>(() => {}) };
		const wait = stop.pause(deafClock, 30_000);
		cancel.abort();
		expect(await withinOneSecond(wait)).toBe(false);
	});

	it('before the run sends anything: nothing is sent', async () => {
		sandbox = await startSandbox();
		const { client, cancel } = stoppableClient(sandbox.url);
		cancel.abort();
		const { error } = await failureAfterStop(client.request(createRoom, 0), () => undefined);
		expect(error.message).toBe('The execution was stopped before this item was sent [item 0]');
		expect(sandbox.state.counts.total).toBe(0);
	});
});

describe('an item fails the run (no Continue On Fail)', () => {
	it('an item waiting on a 429 is not sent again, and is not said to have created anything', async () => {
		sandbox = await lockedOut('20');
		const { client } = stoppableClient(sandbox.url);
		const pending = client.request(createRoom, 3);
		await until(() => client.rateLimits.refused === 1);

		// What the router does when another item fails.
		const { error, msAfterStop } = await failureAfterStop(pending, () => client.stop.stopAfterFailure());
		expect(msAfterStop).toBeLessThan(1000);
		expect(error.message).toBe(
			'The run stopped at an earlier failure while this item waited to be sent again after HTTP 429 [item 3]',
		);
		await watchForNothing(); // only time shows that it is not sent again later
		expect(sandbox.state.counts.total).toBe(1);
	});

	it('a request already under way still gets its answer, so the run can say what was created', async () => {
		sandbox = await startSandbox({ latencyMs: 300 });
		const { client } = stoppableClient(sandbox.url);
		const pending = client.request(createRoom, 0);
		await until(() => sandbox.state.counts.total === 1);
		client.stop.stopAfterFailure();
		expect((await pending).statusCode).toBe(201);
		expect(sandbox.state.rooms).toHaveLength(1);
	});
});

describe('many items waiting at once', () => {
	it('all end at once on a stop, with one listener on the run signal (Node warns from 11 on)', async () => {
		const cancel = new AbortController();
		const stop = new RunStop(cancel.signal);
		const waits = Array.from({ length: 40 }, () => stop.pause(systemClock, 30_000));
		expect(getEventListeners(stop.signal, 'abort').length).toBeLessThanOrEqual(1);
		const stoppedAt = Date.now();
		cancel.abort();
		expect(await Promise.all(waits)).toEqual(Array(40).fill(false));
		expect(Date.now() - stoppedAt).toBeLessThan(1000);
	});

	it('a stop still ends at once the waits left when others have already ended', async () => {
		const cancel = new AbortController();
		const stop = new RunStop(cancel.signal);
		const long = stop.pause(systemClock, 30_000);
		expect(await stop.pause(systemClock, 5)).toBe(true);
		cancel.abort();
		expect(await withinOneSecond(long)).toBe(false);
	});

	it('leaves no listener behind once the waits are over', async () => {
		const stop = new RunStop(new AbortController().signal);
		expect(await Promise.all([stop.pause(systemClock, 5), stop.pause(systemClock, 10)])).toEqual([true, true]);
		expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
	});
});

describe('the wall clock is set back while requests are under way (an NTP step, a resumed VM)', () => {
	afterEach(() => jest.restoreAllMocks());

	it("a request sent after the step keeps its whole deadline: it does not join an older request's", async () => {
		const wall = Date.now();
		// The wall clock stands still from here, as if set back by the time that passes.
		jest.spyOn(Date, 'now').mockReturnValue(wall);
		const older = new RunStop().deadline(600);
		// Real time must pass: deadlines run on Node's own timers, which jest's fake timers do not move.
		await new Promise((resolve) => setTimeout(resolve, 300));
		const newer = new RunStop().deadline(600);
		await new Promise<void>((resolve) => older.onEnd(resolve));
		// The newer request has had about 300 of its 600 ms.
		expect(older.expired).toBe(true);
		expect(newer.ended).toBe(false);
		await new Promise<void>((resolve) => newer.onEnd(resolve));
		expect(newer.expired).toBe(true);
	});

	it('a wait for the shared pacer after a 429 lasts as asked, not as long as the step', async () => {
		const pacer = new PacerRegistry(systemClock).pacerFor('credential', 'https://platform.test', 'key');
		pacer.recordRefusal(50);
		jest.spyOn(Date, 'now').mockReturnValue(Date.now() - 3_600_000);
		const turn = pacer.waitForTurn().then(() => 'turn' as const);
		const tooLate = new Promise((resolve) => setTimeout(() => resolve('still waiting after 2 s'), 2000));
		expect(await Promise.race([turn, tooLate])).toBe('turn');
	});
});

/** Milliseconds from `started` (on the clock deadlines run on) until the deadline ends. */
const ended = async (deadline: Deadline, started = performance.now()) =>
	await new Promise<number>((resolve) => deadline.onEnd(() => resolve(performance.now() - started)));

describe('a request deadline', () => {
	it('ends the request once its length has passed, not before', async () => {
		const started = performance.now();
		const deadline = new Deadline(300);
		const after = await ended(deadline, started);
		// Node's timers count from the event loop's time, which a busy loop leaves a few milliseconds
		// behind: a timer may fire that much early (297 ms seen under a mutation run's load).
		expect(after).toBeGreaterThanOrEqual(290);
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

	// AbortSignal.timeout cannot be cleared: a timer per request would hold every deadline's memory
	// for its whole length (60 s each, at hundreds of requests a second), finished or not.
	it("shares its timer with the deadlines due within the same sixtieth of its length: 100 requests' deadlines made 2 ms apart start at most two", async () => {
		const timers = jest.spyOn(AbortSignal, 'timeout');
		try {
			const deadlines = [];
			for (let request = 0; request < 100; request++) {
				deadlines.push(new Deadline(612_345)); // a length no other test uses: a slot of its own
				await new Promise((resolve) => setTimeout(resolve, 2));
			}
			for (const deadline of deadlines) deadline.finish();
			expect(timers.mock.calls.length).toBeGreaterThanOrEqual(1);
			expect(timers.mock.calls.length).toBeLessThanOrEqual(2);
		} finally {
			timers.mockRestore();
		}
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

import type { IExecuteFunctions } from 'n8n-workflow';

import { PlatformClient } from '../../../../nodes/VideoPlatform/transport/client';
import {
	DEFAULT_RATE_LIMIT_POLICY,
	PacerRegistry,
	RequestPacer,
	retryDelayMs,
} from '../../../../nodes/VideoPlatform/transport/pacer';
import { RunStop } from '../../../../nodes/VideoPlatform/transport/stop';
import { createExecuteContext } from '../../../helpers/executeContext';
import { createRoom } from '../../../helpers/platformClient';
import type { Sandbox } from '../../../helpers/sandbox';
import { mostHeapGrowth } from '../../../helpers/heap';
import { fakeClock, SANDBOX_KEY, startSandbox } from '../../../helpers/sandbox';

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

describe('RequestPacer and the requests it counts', () => {
	it('learns nothing from requests accepted a second or more before the 429: they say nothing of the rate now', async () => {
		const clock = fakeClock(0);
		const pacer = new RequestPacer(clock);
		await sendAccepted(pacer, clock, 12);
		await clock.sleep(1000);
		pacer.recordRefusal(1000);
		expect(pacer.rateAt(clock.now())).toBe(Infinity);
	});

	it('gives a run stopped before its turn false at once, so that its request is not sent', async () => {
		const { clock, pacer } = await pacerAfterFirst429();
		const stop = new RunStop();
		stop.stopAfterFailure();
		expect(await pacer.waitForTurn(stop)).toBe(false);
		expect(clock.now()).toBe(0);
	});
});

describe('RequestPacer over the life of n8n', () => {
	it('keeps only the last second of accepted requests: a million more add no memory', async () => {
		// One pacer per credential lives as long as n8n does (PacerRegistry), so what it keeps must not grow with the requests.
		let now = 0;
		const pacer = new RequestPacer({ now: () => now, sleep: async () => {} });
		const growth = await mostHeapGrowth(() => {
			for (let i = 0; i < 1_000_000; i++, now++) pacer.recordAccepted();
		});
		// Kept, a million times take 8 MB or more.
		expect(growth).toBeLessThan(2 * 1024 * 1024);
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

const now = Date.parse('2026-11-22T10:00:00Z');

describe('Retry-After, read as delta-seconds or as an HTTP date', () => {
	// No floor, and a fallback no Retry-After here asks for: the wait is the header's own.
	const FALLBACK_MS = 123_456;
	const asked = (header: unknown) => retryDelayMs(header, 0, { ...DEFAULT_RATE_LIMIT_POLICY, fallbackDelayMs: FALLBACK_MS, minDelayMs: 0 }, now);

	it.each([
		['3', 3000],
		['20', 20_000],
		['120', 120_000],
		[' 0 ', 0],
		['1.5', 1500],
		['1.25', 1250],
		[7, 7000],
		[['2'], 2000],
		['Sun, 22 Nov 2026 10:00:05 GMT', 5000],
		['Sun, 22 Nov 2026 09:59:00 GMT', 0],
	])('reads %p as %p ms', (header, expected) => {
		expect(asked(header)).toBe(expected);
	});

	it.each([undefined, '', '   ', 'soon', '-3', {}, '5x', 'x5', '2 seconds', '1.', '.5'])('ignores %p', (header) => {
		expect(asked(header)).toBe(FALLBACK_MS);
	});

	it('reads only text and numbers: a value of another kind, even one that prints as a date or digits, is no Retry-After', () => {
		expect(asked(new Date(now + 5000))).toBe(FALLBACK_MS);
		expect(asked(BigInt(5))).toBe(FALLBACK_MS);
	});
});

describe('retryDelayMs', () => {
	it('follows the platform when it says how long', () => {
		expect(retryDelayMs('4', 3, DEFAULT_RATE_LIMIT_POLICY, now)).toBe(4000);
	});

	it('backs off by doubling when it does not', () => {
		const policy = { ...DEFAULT_RATE_LIMIT_POLICY, fallbackDelayMs: 500, minDelayMs: 0 };
		expect([0, 1, 2].map((retry) => retryDelayMs(undefined, retry, policy, now))).toEqual([
			500, 1000, 2000,
		]);
	});

	it.each(['0', '0.01', 'Sun, 22 Nov 2026 09:59:00 GMT'])(
		'never retries sooner than 1 s, also when Retry-After is %p (no tight loop)',
		(header) => {
			expect(retryDelayMs(header, 0, DEFAULT_RATE_LIMIT_POLICY, now)).toBe(1000);
		},
	);
});

describe('PacerRegistry', () => {
	it('gives runs with the same credential, Base URL and key one pacer, and others their own', () => {
		const pacers = new PacerRegistry(fakeClock(0));
		const shared = pacers.pacerFor('cred-1', 'https://video.example.com', 'key-1');
		expect(pacers.pacerFor('cred-1', 'https://video.example.com', 'key-1')).toBe(shared);
		expect(pacers.pacerFor('cred-2', 'https://video.example.com', 'key-1')).not.toBe(shared);
		expect(pacers.pacerFor('cred-1', 'https://other.example.com', 'key-1')).not.toBe(shared);
		// A new key saved in the same credential may have a limit of its own.
		expect(pacers.pacerFor('cred-1', 'https://video.example.com', 'key-2')).not.toBe(shared);
	});

	it('shares nothing for a run without a saved credential, and keeps nothing for it', () => {
		const pacers = new PacerRegistry(fakeClock(0));
		const oldest = pacers.pacerFor('cred-0', 'https://a', 'k');
		for (let i = 1; i < 64; i++) pacers.pacerFor(`cred-${i}`, 'https://a', 'k');
		expect(pacers.pacerFor(undefined, 'https://a', 'k')).not.toBe(pacers.pacerFor(undefined, 'https://a', 'k'));
		// Kept, a pacer for a run without a credential would have pushed out the least recently used.
		expect(pacers.pacerFor('cred-0', 'https://a', 'k')).toBe(oldest);
	});

	it('keeps at most 64 pacers, dropping the least recently used', () => {
		const pacers = new PacerRegistry(fakeClock(0));
		const made = new Map(Array.from({ length: 64 }, (_, i) => [`cred-${i}`, pacers.pacerFor(`cred-${i}`, 'https://a', 'k')]));
		const second = made.get('cred-1');
		pacers.pacerFor('cred-0', 'https://a', 'k');
		made.set('cred-64', pacers.pacerFor('cred-64', 'https://a', 'k'));
		made.delete('cred-1');

		// The 64 others are all kept: asking for one that is kept adds none, so none is dropped meanwhile.
		for (const [id, pacer] of made) expect(pacers.pacerFor(id, 'https://a', 'k')).toBe(pacer);
		expect(pacers.pacerFor('cred-1', 'https://a', 'k')).not.toBe(second);
	});
});

describe('Runs sharing a credential in one process', () => {
	let sandbox: Sandbox;
	afterEach(async () => await sandbox?.stop());

	function runWithSavedCredential(baseUrl: string): IExecuteFunctions {
		const context = createExecuteContext({ credentials: { baseUrl, apiKey: SANDBOX_KEY } });
		const node = context.getNode();
		const withCredential = { ...node, credentials: { videoPlatformApi: { id: 'cred-1', name: 'Platform' } } };
		return Object.assign(Object.create(context) as IExecuteFunctions, { getNode: () => withCredential });
	}

	// Real time: the process-wide pacers are the real clock's.
	it('pace each other: a rate learned from one run\'s 429 spaces the other run\'s requests', async () => {
		sandbox = await startSandbox({ rateLimit: 10 });
		const first = new PlatformClient(runWithSavedCredential(sandbox.url), 'room');
		const second = new PlatformClient(runWithSavedCredential(sandbox.url), 'room');
		const statuses = () => sandbox.state.requests.map((r: { status: number }) => r.status);

		// The first run fills the limit, gets a 429 and learns 9.5 requests a second.
		await Promise.all(Array.from({ length: 10 }, async (_, i) => await first.request(createRoom, i)));
		await first.request(createRoom, 10);
		expect(statuses().slice(10)).toEqual([429, 201]);

		// Ten at once from the second run, spaced at the learned rate: one every 102 ms. With a pacer of its own
		// it would send them together, and nine would arrive at once. The spacing is asserted, not that no 429
		// came: 2 % below the limit, a request a loaded machine delays can meet the next second's (then retried).
		await Promise.all(Array.from({ length: 10 }, async (_, i) => await second.request(createRoom, i)));
		const created = sandbox.state.requests.slice(12).filter((r: { status: number }) => r.status === 201);
		const arrivals = created.map((r: { at: string }) => Date.parse(r.at));
		expect(created).toHaveLength(10);
		// 0, 102, 204 and 306 ms, or one more where a late timer's slot is made up.
		expect(arrivals.filter((at: number) => at - Math.min(...arrivals) < 300).length).toBeLessThanOrEqual(5);
	});
});

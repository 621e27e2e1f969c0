import { createSandbox } from '../../tools/sandbox/server';

export const SANDBOX_KEY = 'sk_test_7f3a9c2e51b84d06';

export type Sandbox = ReturnType<typeof createSandbox> & { url: string };

/** Starts the project's sandbox on a free 127.0.0.1 port; stop it in afterEach/afterAll. */
export async function startSandbox(options: Parameters<typeof createSandbox>[0] = {}): Promise<Sandbox> {
	const sandbox = createSandbox({ apiKey: SANDBOX_KEY, maxIdleMs: 120_000, ...options });
	await sandbox.start();
	return sandbox as Sandbox;
}

/**
 * A sandbox whose rate limit is used up for good: it answers every API request 429 with this
 * Retry-After (its clock stands still after one request filled the limit).
 */
export async function startLockedOutSandbox(
	retryAfter: string,
	options: Parameters<typeof createSandbox>[0] = {},
): Promise<Sandbox> {
	const sandbox = await startSandbox({ ...options, rateLimit: 1, now: () => 1_700_000_000_000, retryAfter });
	await fetch(`${sandbox.url}/v1/rooms`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${SANDBOX_KEY}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({ name: 'Fills the limit', type: 'conference' }),
	});
	sandbox.state.requests.length = 0;
	sandbox.state.rooms.length = 0;
	sandbox.state.counts.total = 0;
	return sandbox;
}

/** A clock whose sleep only moves time forward, so that waits cost nothing. */
export function fakeClock(start = 1_700_000_000_000) {
	let now = start;
	const sleeps: number[] = [];
	return {
		sleeps,
		now: () => now,
		sleep: async (ms: number) => {
			sleeps.push(ms);
			now += ms;
		},
	};
}

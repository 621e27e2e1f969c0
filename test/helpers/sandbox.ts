import { createSandbox } from '../../tools/sandbox/server';

export const SANDBOX_KEY = 'sk_test_7f3a9c2e51b84d06';

export type Sandbox = ReturnType<typeof createSandbox> & { url: string };

/** Starts the project's sandbox on a free 127.0.0.1 port; stop it in afterEach/afterAll. */
export async function startSandbox(options: Parameters<typeof createSandbox>[0] = {}): Promise<Sandbox> {
	const sandbox = createSandbox({ apiKey: SANDBOX_KEY, maxLifetimeMs: 120_000, ...options });
	await sandbox.start();
	return sandbox as Sandbox;
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

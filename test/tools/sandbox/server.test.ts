import { createSandbox } from '../../../tools/sandbox/server';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const answers = (url: string) =>
	fetch(`${url}/v1/rooms`, { method: 'POST', body: '{}' }).then(
		() => true,
		() => false,
	);

describe('the sandbox stops by itself', () => {
	it('after maxIdleMs without a request, never while requests keep coming', async () => {
		const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
		const sandbox = createSandbox({ maxIdleMs: 1_000 });
		const url = await sandbox.start();
		try {
			// Three idle periods' worth of time in use: it keeps answering.
			for (let i = 0; i < 10; i++) {
				expect(await answers(url)).toBe(true);
				await pause(300);
			}
			await pause(2_500);
			expect(await answers(url)).toBe(false);
			expect(stderr).toHaveBeenCalledWith(`[sandbox ${url}] stopped by itself: no request for 1 s\n`);
		} finally {
			stderr.mockRestore();
			await sandbox.stop();
		}
	}, 15_000);
});

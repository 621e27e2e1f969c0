import { createSandbox } from '../../../tools/sandbox/server';

const answers = (url: string) =>
	fetch(`${url}/v1/rooms`, { method: 'POST', body: '{}' }).then(
		() => true,
		() => false,
	);

describe('the sandbox stops by itself', () => {
	// The idle timer is what is tested: fake timers move it exactly, and the requests stay real.
	beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
	afterEach(() => jest.useRealTimers());

	it('after maxIdleMs without a request, never while requests keep coming', async () => {
		const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
		const sandbox = createSandbox({ maxIdleMs: 1_000 });
		const url = await sandbox.start();
		const stoppedBySelf = `[sandbox ${url}] stopped by itself: no request for 1 s\n`;
		try {
			// Three idle periods' worth of time in use: it keeps answering.
			for (let i = 0; i < 10; i++) {
				expect(await answers(url)).toBe(true);
				jest.advanceTimersByTime(300);
			}
			jest.advanceTimersByTime(699);
			expect(stderr).not.toHaveBeenCalledWith(stoppedBySelf);
			jest.advanceTimersByTime(1);
			expect(stderr).toHaveBeenCalledWith(stoppedBySelf);
			expect(await answers(url)).toBe(false);
		} finally {
			stderr.mockRestore();
			await sandbox.stop();
		}
	});
});

describe("a room the sandbox creates", () => {
	it("has a link of the sandbox's own, which opens a page of that room, its name as text", async () => {
		const sandbox = createSandbox({ apiKey: 'k' });
		const url = await sandbox.start();
		try {
			const name = 'Biology <b>7A</b>';
			const answer = await fetch(`${url}/v1/rooms`, {
				method: 'POST',
				headers: { Authorization: 'Bearer k', 'Content-Type': 'application/json', Host: 'evil.example' },
				body: JSON.stringify({ name, type: 'conference' }),
			});
			expect(answer.status).toBe(201);
			const room = (await answer.json()) as { id: string; link: string };
			// From the address it listens on, never from the request's Host header.
			expect(room.link).toBe(`${url}/_sandbox/rooms/${room.id}`);
			const page = await fetch(room.link);
			expect(page.status).toBe(200);
			const html = await page.text();
			expect(html).toContain('<h1>Biology &lt;b&gt;7A&lt;/b&gt;</h1>');
			expect(html).toContain('A room of the local sandbox');
			expect((await fetch(`${url}/_sandbox/rooms/no-such-room`)).status).toBe(404);
		} finally {
			await sandbox.stop();
		}
	});
});

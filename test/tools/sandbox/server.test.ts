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

import type { Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a scripted server does with a request: answer with that status, reset, or say nothing. */
export type ScriptedAnswer = number | 'reset' | 'silent';

/**
 * A local server (127.0.0.1) that answers each request with the next of `answers` (then 200 with
 * `{"id":"room-1"}`) and records the paths asked for: for transport tests that need an exact
 * sequence the sandbox does not give (a GET of a room, say, which the sandbox does not have).
 */
export async function scriptedServer(answers: ScriptedAnswer[]) {
	const paths: string[] = [];
	const server: Server = createServer((req, res) => {
		paths.push(req.url ?? '');
		const answer = answers.shift() ?? 200;
		if (answer === 'silent') return;
		if (answer === 'reset') {
			req.socket.destroy();
			return;
		}
		res.writeHead(answer, { 'content-type': 'application/json' });
		res.end(JSON.stringify(answer === 200 ? { id: 'room-1' } : { message: 'not now' }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const stop = async () => {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	};
	return { url, paths, stop };
}

/** A local server (127.0.0.1) that answers each request as the test's latest `answerWith` says, for answers written by hand. */
export async function handAnsweredServer() {
	let answer: (response: ServerResponse) => void = () => undefined;
	const server: Server = createServer((request, response) => {
		request.resume();
		answer(response);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		answerWith: (next: (response: ServerResponse) => void) => (answer = next),
		dropConnections: () => server.closeAllConnections(),
		stop: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

/** One hand-answered server for the calling file's (or describe block's) tests, its connections dropped after each. */
export function handAnsweredServerForTests() {
	const server = {} as Awaited<ReturnType<typeof handAnsweredServer>>;
	beforeAll(async () => Object.assign(server, await handAnsweredServer()));
	afterEach(() => server.dropConnections());
	afterAll(async () => await server.stop());
	return server;
}

/** How to answer a Room → Create: status, headers, body, and after how many milliseconds. */
export type AnswerToName = [status: number, headers: Record<string, string>, body: string, delayMs?: number];

/**
 * A local server (127.0.0.1) that answers each Room → Create by the name it sends, so that one run's
 * items can each get their own answer (a 400 for one, a 303 for another), in real n8n too.
 */
export async function serverAnsweringByName(answer: (name: string) => AnswerToName) {
	const server: Server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			let name = '';
			try {
				name = String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { name?: unknown }).name ?? '');
			} catch {
				// Not a Room → Create (the credential's Test, say): answered as for an empty name.
			}
			const [status, headers, body, delayMs = 0] = answer(name);
			setTimeout(() => {
				response.writeHead(status, headers);
				response.end(body);
			}, delayMs);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		stop: async () => {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

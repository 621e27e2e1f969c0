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

import type { Server } from 'node:http';
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

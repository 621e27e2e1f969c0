import type * as http from 'node:http';

import type { HttpsStandIn, TestCa } from '../../tools/standin/https';
import { makeTestCa, startHttpsStandIn as startProxy } from '../../tools/standin/https';

/**
 * Outside HTTPS services (Google Calendar, Slack) answered by a function of the request, through
 * the CONNECT proxy of tools/standin/https.js, which reaches no other host.
 */
export type { HttpsStandIn, TestCa };
export { makeTestCa };

export type StandInHandler = (request: { host: string; method: string; url: URL; headers: http.IncomingHttpHeaders; body: string }) => {
	status: number;
	body: unknown;
};

/** Starts the proxy on a free 127.0.0.1 port, answering with `handler`'s JSON; it stops by itself after maxLifetimeMs. */
export function startHttpsStandIn(options: { hosts: string[]; ca: TestCa; handler: StandInHandler; maxLifetimeMs: number }): Promise<HttpsStandIn> {
	const onRequest: http.RequestListener = (req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const host = String(req.headers.host ?? '').replace(/:443$/, '');
			let answer: { status: number; body: unknown };
			try {
				answer = options.handler({
					host,
					method: req.method ?? 'GET',
					url: new URL(req.url ?? '/', `https://${host}`),
					headers: req.headers,
					body: Buffer.concat(chunks).toString('utf8'),
				});
			} catch (error) {
				answer = { status: 500, body: { error: `Stand-in failure: ${(error as Error).message}` } };
			}
			res.writeHead(answer.status, { 'Content-Type': 'application/json', 'X-Stand-In': 'n8n-nodes-videoplatform e2e' });
			res.end(JSON.stringify(answer.body));
		});
	};
	return startProxy({ hosts: options.hosts, ca: options.ca, onRequest, maxLifetimeMs: options.maxLifetimeMs });
}

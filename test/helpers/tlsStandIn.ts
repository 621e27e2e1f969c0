import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A stand-in for outside HTTPS services, for end-to-end tests of real n8n nodes that call them
 * (Google Calendar, Slack). n8n sends its outgoing requests through HTTPS_PROXY; this is that
 * proxy, on 127.0.0.1. It accepts CONNECT only to the hosts it was given, port 443, and answers
 * them itself with a certificate from a CA made for this test run (trusted by n8n through
 * NODE_EXTRA_CA_CERTS). It never connects anywhere: any other host gets 403.
 */

export interface TestCa {
	/** The CA certificate's file, for NODE_EXTRA_CA_CERTS; removed by cleanup(). */
	caFile: string;
	key: Buffer;
	cert: Buffer;
	cleanup(): void;
}

/** A CA and one server certificate for `hosts`, made with openssl, valid for a day. */
export function makeTestCa(hosts: string[]): TestCa {
	const dir = mkdtempSync(join(tmpdir(), 'videoplatform-test-ca-'));
	const file = (name: string) => join(dir, name);
	const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
	const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
	openssl(['req', '-x509', ...ecKey, '-days', '1', '-subj', '/CN=videoplatform e2e test CA', '-keyout', file('ca.key'), '-out', file('ca.pem')]);
	openssl(['req', ...ecKey, '-subj', `/CN=${hosts[0]}`, '-keyout', file('server.key'), '-out', file('server.csr')]);
	const names = hosts.map((host) => `DNS:${host}`).join(',');
	writeFileSync(file('ext.cnf'), `subjectAltName=${names}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
	openssl([
		'x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial',
		'-days', '1', '-extfile', file('ext.cnf'), '-out', file('server.pem'),
	]);
	return {
		caFile: file('ca.pem'),
		key: readFileSync(file('server.key')),
		cert: readFileSync(file('server.pem')),
		cleanup: () => rmSync(dir, { recursive: true, force: true }),
	};
}

export type StandInHandler = (request: { host: string; method: string; url: URL; headers: http.IncomingHttpHeaders; body: string }) => {
	status: number;
	body: unknown;
};

export interface HttpsStandIn {
	/** For HTTPS_PROXY. */
	proxyUrl: string;
	/** Every CONNECT asked for, allowed or not, as host:port. */
	connects: string[];
	stop(): Promise<void>;
}

/** Starts the proxy on a free 127.0.0.1 port; it stops by itself after maxLifetimeMs. */
export async function startHttpsStandIn(options: {
	hosts: string[];
	ca: TestCa;
	handler: StandInHandler;
	maxLifetimeMs: number;
}): Promise<HttpsStandIn> {
	const connects: string[] = [];
	const sockets = new Set<Socket>();
	const track = (socket: Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	};

	// Never listens: each allowed CONNECT tunnel is handed to it, and it does the TLS handshake.
	const tlsServer = https.createServer({ key: options.ca.key, cert: options.ca.cert }, (req, res) => {
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
	});

	const proxy = http.createServer((_req, res) => {
		res.writeHead(403, { 'Content-Type': 'text/plain' });
		res.end('This test proxy answers CONNECT to its stand-in hosts only.');
	});
	proxy.on('connection', track);
	proxy.on('connect', (req: http.IncomingMessage, socket: Socket, head: Buffer) => {
		const target = req.url ?? '';
		connects.push(target);
		const [host, port] = target.split(':');
		if (port !== '443' || !options.hosts.includes(host)) {
			socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
			return;
		}
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		if (head.length) socket.unshift(head);
		tlsServer.emit('connection', socket);
	});

	await new Promise<void>((resolve, reject) => {
		proxy.once('error', reject);
		proxy.listen(0, '127.0.0.1', () => resolve());
	});
	const { port } = proxy.address() as { port: number };

	let stopped: Promise<void> | undefined;
	const stop = () => {
		stopped ??= (async () => {
			clearTimeout(lifetime);
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => proxy.close(() => resolve()));
		})();
		return stopped;
	};
	const lifetime = setTimeout(() => void stop(), options.maxLifetimeMs);
	lifetime.unref();

	return { proxyUrl: `http://127.0.0.1:${port}`, connects, stop };
}

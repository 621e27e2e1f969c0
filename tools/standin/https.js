'use strict';
// A stand-in for outside HTTPS hosts, for end-to-end tests of real n8n (and the npm it runs) that
// call them. n8n and npm send their outgoing requests through HTTPS_PROXY; this is that proxy, on
// 127.0.0.1. It accepts CONNECT only to the hosts it was given, port 443, and answers them itself
// with a certificate from a CA made for this test run (trusted through NODE_EXTRA_CA_CERTS). It
// never connects anywhere: any other host gets 403 at once, so nothing waits on a time-out.
const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

/**
 * @typedef {object} TestCa
 * @property {string} caFile  the CA certificate's file; removed by cleanup()
 * @property {string} trustFile  for NODE_EXTRA_CA_CERTS: the bundle the shell already trusts (if any), then the CA
 * @property {Buffer} key
 * @property {Buffer} cert
 * @property {() => void} cleanup
 */

/**
 * A CA and one server certificate for `hosts`, made with openssl, valid for a day.
 * @param {string[]} hosts
 * @returns {TestCa}
 */
function makeTestCa(hosts) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'videoplatform-test-ca-'));
	const file = (/** @type {string} */ name) => path.join(dir, name);
	const openssl = (/** @type {string[]} */ args) => execFileSync('openssl', args, { stdio: 'pipe' });
	const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
	openssl(['req', '-x509', ...ecKey, '-days', '1', '-subj', '/CN=videoplatform e2e test CA', '-keyout', file('ca.key'), '-out', file('ca.pem')]);
	openssl(['req', ...ecKey, '-subj', `/CN=${hosts[0]}`, '-keyout', file('server.key'), '-out', file('server.csr')]);
	const names = hosts.map((host) => `DNS:${host}`).join(',');
	fs.writeFileSync(file('ext.cnf'), `subjectAltName=${names}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
	openssl([
		'x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial',
		'-days', '1', '-extfile', file('ext.cnf'), '-out', file('server.pem'),
	]);
	const inherited = process.env.NODE_EXTRA_CA_CERTS;
	const bundle = inherited && fs.existsSync(inherited) ? `${fs.readFileSync(inherited, 'utf8').trimEnd()}\n` : '';
	fs.writeFileSync(file('trust.pem'), bundle + fs.readFileSync(file('ca.pem'), 'utf8'));
	return {
		caFile: file('ca.pem'),
		trustFile: file('trust.pem'),
		key: fs.readFileSync(file('server.key')),
		cert: fs.readFileSync(file('server.pem')),
		cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
	};
}

/**
 * @typedef {object} HttpsStandIn
 * @property {string} proxyUrl  for HTTPS_PROXY
 * @property {string[]} connects  every CONNECT asked for, allowed or not, as host:port
 * @property {string | undefined} logFile  the log it was given: a line per CONNECT and per request through a tunnel
 * @property {() => Promise<void>} stop
 */

/**
 * Starts the proxy on a free 127.0.0.1 port; it stops by itself after maxLifetimeMs. Each request
 * that comes through an allowed tunnel goes to `onRequest`, as to an HTTPS server of that host.
 * @param {object} options
 * @param {string[]} options.hosts
 * @param {TestCa} options.ca
 * @param {http.RequestListener} options.onRequest
 * @param {number} options.maxLifetimeMs
 * @param {string} [options.logFile]  where to log, with times, each CONNECT and each request with its answer's status
 * @returns {Promise<HttpsStandIn>}
 */
async function startHttpsStandIn({ hosts, ca, onRequest, maxLifetimeMs, logFile }) {
	/** @type {string[]} */
	const connects = [];
	const log = (/** @type {string} */ line) => logFile && fs.appendFileSync(logFile, `${new Date().toISOString()} ${line}\n`);
	/** @type {Set<import('node:net').Socket>} */
	const sockets = new Set();
	const track = (/** @type {import('node:net').Socket} */ socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	};

	// Never listens: each allowed CONNECT tunnel is handed to it, and it does the TLS handshake.
	const tlsServer = https.createServer({ key: ca.key, cert: ca.cert }, (req, res) => {
		res.once('finish', () => log(`${req.headers.host} ${req.method} ${req.url} -> ${res.statusCode}`));
		onRequest(req, res);
	});

	const proxy = http.createServer((_req, res) => {
		res.writeHead(403, { 'Content-Type': 'text/plain' });
		res.end('This test proxy answers CONNECT to its stand-in hosts only.');
	});
	proxy.on('connection', track);
	proxy.on('connect', (/** @type {http.IncomingMessage} */ req, /** @type {import('node:net').Socket} */ socket, /** @type {Buffer} */ head) => {
		const target = req.url ?? '';
		connects.push(target);
		const [host, port] = target.split(':');
		const allowed = port === '443' && hosts.includes(host);
		log(`CONNECT ${target} ${allowed ? 'tunnelled' : 'refused'}`);
		if (!allowed) {
			socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
			return;
		}
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		if (head.length) socket.unshift(head);
		tlsServer.emit('connection', socket);
	});

	await new Promise((resolve, reject) => {
		proxy.once('error', reject);
		proxy.listen(0, '127.0.0.1', () => resolve(undefined));
	});
	const { port } = /** @type {import('node:net').AddressInfo} */ (proxy.address());

	/** @type {Promise<void> | undefined} */
	let stopped;
	const stop = () => {
		stopped ??= (async () => {
			clearTimeout(lifetime);
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => proxy.close(() => resolve(undefined)));
		})();
		return stopped;
	};
	const lifetime = setTimeout(() => void stop(), maxLifetimeMs);
	lifetime.unref();

	return { proxyUrl: `http://127.0.0.1:${port}`, connects, logFile, stop };
}

/**
 * A request listener that passes every request on to `target` (http://127.0.0.1:<port>) as it
 * came, and its answer back: how a local server answers for the host the tunnel was opened to.
 * @param {string} target
 * @returns {http.RequestListener}
 */
function forwardTo(target) {
	const { hostname, port } = new URL(target);
	return (req, res) => {
		const upstream = http.request({ hostname, port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
		});
		upstream.on('error', (error) => {
			res.writeHead(502, { 'Content-Type': 'text/plain' });
			res.end(`Stand-in forwarder failure: ${error.message}`);
		});
		req.pipe(upstream);
	};
}

/**
 * The environment that sends a process's HTTPS requests (n8n's and the npm it runs) through the
 * stand-in, trusting its CA, while calls to 127.0.0.1 (the sandbox) stay direct.
 * @param {HttpsStandIn} standIn
 * @param {TestCa} ca
 * @returns {Record<string, string>}
 */
function proxyEnv(standIn, ca) {
	return {
		// Both spellings: n8n's proxy-from-env reads the lower-case one first.
		HTTPS_PROXY: standIn.proxyUrl,
		https_proxy: standIn.proxyUrl,
		NO_PROXY: '127.0.0.1,localhost',
		no_proxy: '127.0.0.1,localhost',
		NODE_EXTRA_CA_CERTS: ca.trustFile,
		// npm trusts its own cafile (this machine's npm config sets one), not NODE_EXTRA_CA_CERTS.
		npm_config_cafile: ca.trustFile,
	};
}

module.exports = { makeTestCa, startHttpsStandIn, forwardTo, proxyEnv };

'use strict';
// Test faults: answers that a broken network, proxy or server could give, for proving how a
// client copes. Nothing says the platform answers like this. Every fault's answer carries the
// header X-Sandbox-Fault and, where it has a body, a note saying so; the request log marks it.
const zlib = require('node:zlib');

const FAULT_NOTE = 'Test fault of the local sandbox: no real platform is known to answer like this.';
const FAULTS = [
	'redirect', 'html', 'header-too-large', 'reset', 'cut-off', 'trickle', 'oversized', 'gzip-bomb',
	'gzip-stacked', 'unknown-encoding', 'gzip-corrupt', 'gzip-truncated', 'json-invalid', 'json-bom',
	'echo-key',
];
// Answered instead of the API; the others change how the API's own answer is delivered.
const INSTEAD_OF_ANSWER = new Set(['redirect', 'html', 'header-too-large']);

/**
 * @typedef {object} FaultOptions
 * @property {string} [fault]              one of FAULTS; unset: none
 * @property {string} [faultMatch]         only requests whose body contains this text (default: all)
 * @property {string} [faultRedirectTo]    redirect: the Location (default: same path on https)
 * @property {number | string} [faultRedirectStatus] redirect: 301, 302, 303, 307 or 308 (default 307)
 * @property {number | string} [faultIntervalMs]    trickle: one byte this often (default 500)
 * @property {number | string} [faultDurationMs]    trickle: how long before the answer ends (default 90000)
 * @property {number | string} [faultSizeBytes]     oversized, gzip-bomb: decoded size (default 32 MiB)
 *
 * @typedef {import('node:http').IncomingMessage} Request
 * @typedef {import('node:http').ServerResponse} Response
 * @typedef {{ status: number, fault?: string }} LogEntry  the part of a request's log entry a fault marks
 * @typedef {{ headers: Record<string, string>, body: Buffer }} Answer
 */
const FAULT_KEYS = ['fault', 'faultMatch', 'faultRedirectTo', 'faultRedirectStatus', 'faultIntervalMs', 'faultDurationMs', 'faultSizeBytes'];

/**
 * The fault options that are set, checked.
 * @param {Record<string, unknown>} options
 * @returns {FaultOptions}
 */
function pick(options) {
	/** @type {FaultOptions} */
	const picked = Object.fromEntries(FAULT_KEYS.filter((key) => options[key] !== undefined && options[key] !== '').map((key) => [key, options[key]]));
	if (picked.fault !== undefined && !FAULTS.includes(picked.fault)) {
		throw new Error(`Unknown fault "${picked.fault}"; known: ${FAULTS.join(', ')}`);
	}
	return picked;
}

const label = (/** @type {string} */ name) => ({ 'X-Sandbox-Fault': name, 'X-Sandbox': 'n8n-nodes-videoplatform local sandbox' });

/** The JSON answer (`text`) relabelled or re-encoded the faulty way: extra headers and the body sent. */
const encoded = (/** @type {string} */ encoding, /** @type {Buffer} */ body) => ({ headers: { 'Content-Encoding': encoding }, body });
const firstHalf = (/** @type {Buffer} */ buffer) => buffer.subarray(0, Math.ceil(buffer.length / 2));
/** @type {Record<string, (text: string) => Answer>} */
const MISENCODED = {
	'gzip-stacked': (text) => encoded('gzip, gzip', zlib.gzipSync(zlib.gzipSync(text))),
	'unknown-encoding': (text) => encoded('x-custom', Buffer.from(text)),
	// 0xff after the gzip header starts a deflate block of the reserved type, which no decoder accepts.
	'gzip-corrupt': (text) => encoded('gzip', Buffer.concat([zlib.gzipSync(text).subarray(0, 10), Buffer.alloc(32, 0xff)])),
	// Ends cleanly (Content-Length matches) halfway through the compressed data.
	'gzip-truncated': (text) => encoded('gzip', firstHalf(zlib.gzipSync(text))),
	'json-invalid': () => ({ headers: {}, body: Buffer.from(`Room created, but this answer is not JSON. ${FAULT_NOTE}`) }),
	'json-bom': (text) => ({ headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: Buffer.from(`\uFEFF${text}`) }),
};

/** @type {Map<number, Promise<Buffer>>} */
const gzipCache = new Map();
const MIB = 1024 * 1024;
/**
 * `size` spaces, gzipped (made once per size): one gzip member per MiB, back to back, which
 * gzip readers decode as one text. Compressing 256 MiB in one member took seconds on a loaded
 * machine, longer than a test's time-out; a MiB's member takes milliseconds.
 * @param {number} size
 * @returns {Promise<Buffer>}
 */
function gzipOfSpaces(size) {
	if (!gzipCache.has(size)) {
		const whole = zlib.gzipSync(Buffer.alloc(MIB, ' '), { level: 9 });
		const members = Array.from({ length: Math.floor(size / MIB) }, () => whole);
		if (size % MIB > 0) members.push(zlib.gzipSync(Buffer.alloc(size % MIB, ' '), { level: 9 }));
		gzipCache.set(size, Promise.resolve(Buffer.concat(members)));
	}
	return /** @type {Promise<Buffer>} */ (gzipCache.get(size));
}

/**
 * The sandbox's test faults, set at start (`initial`) or through /_sandbox/faults.
 * @param {Record<string, unknown>} [initial]
 */
function createFaults(initial = {}) {
	let current = pick(initial);
	const applies = (/** @type {string} */ raw) => current.fault && (!current.faultMatch || raw.includes(current.faultMatch));

	/**
	 * Answers instead of the API (before the key is even checked). True when it answered.
	 * @param {Request} req
	 * @param {Response} res
	 * @param {string} raw
	 * @param {LogEntry} entry
	 */
	function intercept(req, res, raw, entry) {
		const name = current.fault;
		if (!applies(raw) || name === undefined || !INSTEAD_OF_ANSWER.has(name)) return false;
		entry.fault = name;
		if (name === 'redirect') {
			const host = req.headers.host;
			entry.status = Number(current.faultRedirectStatus ?? 307);
			res.writeHead(entry.status, { ...label(name), Location: current.faultRedirectTo ?? `https://${host}${req.url}`, 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ sandbox: FAULT_NOTE, fault: name }));
		} else if (name === 'html') {
			entry.status = 200;
			res.writeHead(200, { ...label(name), 'Content-Type': 'text/html; charset=utf-8' });
			res.end(`<!doctype html><html><head><title>Sign in</title></head><body><!-- ${FAULT_NOTE} --><form>Sign in</form></body></html>`);
		} else {
			entry.status = 431;
			res.writeHead(431, { ...label(name), 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ error: 'Request header fields too large.', sandbox: FAULT_NOTE, fault: name }));
		}
		return true;
	}

	/**
	 * Delivers the API's own answer the faulty way, after the room was made. True when it did.
	 * @param {Request} req
	 * @param {Response} res
	 * @param {string} raw
	 * @param {LogEntry} entry
	 * @param {object} body
	 */
	function deliver(req, res, raw, entry, body) {
		const name = current.fault;
		if (!applies(raw) || name === undefined || INSTEAD_OF_ANSWER.has(name)) return false;
		entry.fault = name;
		const text = JSON.stringify({ ...body, fault: name, faultNote: FAULT_NOTE });
		const headers = { ...label(name), 'Content-Type': 'application/json' };
		if (name === 'reset') {
			req.socket.resetAndDestroy?.() ?? req.socket.destroy();
		} else if (name === 'cut-off') {
			res.writeHead(entry.status, { ...headers, 'Content-Length': Buffer.byteLength(text) });
			res.write(text.slice(0, Math.floor(text.length / 2)), () => res.socket?.destroy());
		} else if (name === 'trickle') {
			trickle(res, entry.status, headers, text);
		} else if (name === 'oversized') {
			oversized(res, entry.status, headers, text);
		} else if (name === 'echo-key') {
			const echoed = JSON.stringify({ ...body, createdWith: req.headers.authorization, fault: name, faultNote: FAULT_NOTE });
			res.writeHead(entry.status, { ...headers, 'Content-Length': Buffer.byteLength(echoed) });
			res.end(echoed);
		} else if (MISENCODED[name]) {
			const answer = MISENCODED[name](text);
			res.writeHead(entry.status, { ...headers, ...answer.headers, 'Content-Length': answer.body.length });
			res.end(answer.body);
		} else {
			const size = Number(current.faultSizeBytes ?? 32 * 1024 * 1024);
			gzipOfSpaces(size).then((compressed) => {
				res.writeHead(entry.status, { ...headers, 'Content-Encoding': 'gzip', 'Content-Length': compressed.length });
				res.end(compressed);
			});
		}
		return true;
	}

	/**
	 * @param {Response} res
	 * @param {number} status
	 * @param {Record<string, string>} headers
	 * @param {string} text
	 */
	function trickle(res, status, headers, text) {
		const interval = Number(current.faultIntervalMs ?? 500);
		const endAt = Date.now() + Number(current.faultDurationMs ?? 90_000);
		res.writeHead(status, headers);
		// JSON allows leading white space, so the answer stays valid however long it trickles.
		const timer = setInterval(() => {
			if (Date.now() < endAt) return void res.write(' ');
			clearInterval(timer);
			res.end(text);
		}, interval);
		res.on('close', () => clearInterval(timer));
	}

	/**
	 * @param {Response} res
	 * @param {number} status
	 * @param {Record<string, string>} headers
	 * @param {string} text
	 */
	function oversized(res, status, headers, text) {
		const size = Number(current.faultSizeBytes ?? 32 * 1024 * 1024);
		const chunk = Buffer.alloc(64 * 1024, ' ');
		res.writeHead(status, headers);
		let left = size;
		const pump = () => {
			while (left > 0) {
				const part = chunk.subarray(0, Math.min(left, chunk.length));
				left -= part.length;
				if (!res.write(part)) return void res.once('drain', pump);
			}
			res.end(text);
		};
		res.on('close', () => (left = 0));
		pump();
	}

	/**
	 * /_sandbox/faults: GET shows the fault, PUT sets it (JSON of FaultOptions), DELETE clears it.
	 * @param {Request} req
	 * @param {Response} res
	 * @param {string} raw
	 */
	function control(req, res, raw) {
		if (!req.url?.startsWith('/_sandbox/faults')) return false;
		const reply = (/** @type {number} */ status, /** @type {object} */ body) => {
			res.writeHead(status, { 'Content-Type': 'application/json', ...label('control') });
			res.end(JSON.stringify({ ...body, note: FAULT_NOTE, known: FAULTS }));
		};
		try {
			if (req.method === 'PUT') current = pick(JSON.parse(raw || '{}'));
			else if (req.method === 'DELETE') current = {};
			else if (req.method !== 'GET') return reply(405, { error: 'Use GET, PUT or DELETE.' }), true;
		} catch (error) {
			reply(400, { error: /** @type {Error} */ (error).message });
			return true;
		}
		reply(200, { faults: current });
		return true;
	}

	return { intercept, deliver, control, current: () => current };
}

module.exports = { createFaults, FAULTS, FAULT_NOTE };

'use strict';
// A local stand-in for the platform. It implements only what the API reference states
// (POST /v1/rooms, Bearer key, a JSON body of two strings). Every answer the reference does
// not show (status codes, bodies, error shapes) is the sandbox's own and says so.
const http = require('node:http');
const { randomUUID } = require('node:crypto');
const { createFaults } = require('./faults');

const SANDBOX_NOTE =
	"Answer made up by the local sandbox: the platform has not published its responses.";
const MAX_LOGGED_REQUESTS = 200;
const MAX_BODY_BYTES = 1024 * 1024;
// Where a room's made-up link leads: a page of the sandbox, outside the API's /v1.
const ROOM_PAGE = '/_sandbox/rooms/';

/**
 * @typedef {object} SandboxOptions
 * @property {string} [apiKey]      the only key accepted (default "sandbox-key")
 * @property {number} [port]        0 picks a free port
 * @property {number} [latencyMs]   fixed delay before every API answer
 * @property {number} [rateLimit]   API requests allowed per second; 0 means no limit
 * @property {string} [retryAfter]  Retry-After of every 429 as sent (e.g. "20", "0", an HTTP date); unset: when a slot frees
 * @property {number} [errorRate]   share of valid requests (0..1) answered with errorStatus
 * @property {number} [errorStatus] status used by errorRate (default 500)
 * @property {number} [maxLifetimeMs] the server stops by itself after this long (0: never)
 * @property {number} [maxIdleMs] the server stops by itself after this long without a request (0: never);
 *   what tests use, so that a slow machine cannot outlast a sandbox that is still in use
 * @property {() => number} [now] clock for the rate limit; tests pass a fake one
 * @property {() => Promise<Array<{name: string, url: string}>>} [webhookTargets] trigger URLs the page offers
 *
 * @typedef {{ id: string, name: string, type: string, link: string, createdAt: string }} Room
 *   link: the sandbox's own stand-in for a join link (the platform has not published its answer),
 *   so that an example can map a link field the way a user maps their platform's
 * @typedef {object} RequestEntry  one API request as the sandbox logged it
 * @property {string} at
 * @property {string} method
 * @property {string} path
 * @property {string | undefined} contentType
 * @property {'missing' | 'valid Bearer key' | 'wrong'} authorization
 * @property {number} authorizationHeaders  how many Authorization headers came
 * @property {string} body  the first 2,000 characters
 * @property {number} status  0 until answered
 * @property {string} [fault]  the test fault that answered
 * @typedef {{ total: number, underWay: number, peakUnderWay: number, createdByBody: Record<string, number> }} Counts
 * @typedef {object} DeliveryEntry  one example delivery the sandbox sent to a trigger URL
 * @property {string} at
 * @property {string} target
 * @property {number} [status]  the trigger's answer, when one came
 * @property {string} [answer]  its body, the first 500 characters
 * @property {string} [error]  why nothing was sent, or why no answer came
 * @typedef {{ rooms: Room[], requests: RequestEntry[], deliveries: DeliveryEntry[], counts: Counts }} SandboxState
 * @typedef {import('node:http').IncomingMessage} Request
 * @typedef {import('node:http').ServerResponse} Response
 */

/**
 * @param {SandboxOptions & import('./faults').FaultOptions} options
 * @returns {Required<Omit<SandboxOptions, 'retryAfter' | 'webhookTargets'>> & SandboxOptions}
 */
function defaults(options) {
	return {
		apiKey: 'sandbox-key',
		port: 0,
		latencyMs: 0,
		rateLimit: 0,
		errorRate: 0,
		errorStatus: 500,
		maxLifetimeMs: 0,
		maxIdleMs: 0,
		now: Date.now,
		...Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)),
	};
}

/**
 * @param {Request} req
 * @returns {Promise<string>}
 */
function readBody(req) {
	return new Promise((resolve, reject) => {
		/** @type {Buffer[]} */
		const chunks = [];
		let size = 0;
		req.on('data', (chunk) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) reject(new Error('body too large'));
			else chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

/**
 * @param {Response} res
 * @param {number} status
 * @param {string | object} body  a string is sent as HTML, anything else as JSON
 * @param {Record<string, string>} [headers]
 */
function send(res, status, body, headers = {}) {
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	res.writeHead(status, {
		'Content-Type': typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json',
		'X-Sandbox': 'n8n-nodes-videoplatform local sandbox',
		...headers,
	});
	res.end(text);
}

/**
 * Which stated rule a create-room body breaks, or undefined when it keeps them all.
 * @param {string} raw
 * @returns {string | undefined}
 */
function brokenRule(raw) {
	let body;
	try {
		body = JSON.parse(raw);
	} catch {
		return 'Rule 1: the request body must be a JSON object; this body is not valid JSON.';
	}
	if (body === null || typeof body !== 'object' || Array.isArray(body)) {
		return 'Rule 1: the request body must be a JSON object.';
	}
	for (const member of ['name', 'type']) {
		if (!(member in body)) return `Rule 1: the body must have the member "${member}".`;
		if (typeof body[member] !== 'string') {
			return `Rule 1: the member "${member}" must be a string, not ${JSON.stringify(body[member])}.`;
		}
	}
	return undefined;
}

/**
 * At most `perSecond` requests in any one-second span. Retry-After says, in whole seconds, when
 * the oldest of them leaves the span.
 * @param {number} perSecond
 * @param {() => number} now
 * @returns {() => number} 0 when a request is admitted, else the Retry-After in seconds
 */
function createRateLimiter(perSecond, now) {
	/** @type {number[]} */
	const admitted = [];
	return () => {
		if (!perSecond) return 0;
		const t = now();
		while (admitted.length && admitted[0] <= t - 1000) admitted.shift();
		if (admitted.length < perSecond) {
			admitted.push(t);
			return 0;
		}
		return Math.max(1, Math.ceil((admitted[0] + 1000 - t) / 1000));
	};
}

/**
 * A sandbox that listens once start() is called.
 * @param {SandboxOptions & import('./faults').FaultOptions} [userOptions]
 */
function createSandbox(userOptions = {}) {
	const options = defaults(userOptions);
	/** @returns {Counts} */
	const emptyCounts = () => ({ total: 0, underWay: 0, peakUnderWay: 0, createdByBody: {} });
	/** @type {SandboxState} */
	const state = { rooms: [], requests: [], deliveries: [], counts: emptyCounts() };
	const rateLimited = createRateLimiter(options.rateLimit, options.now);
	const faults = createFaults(userOptions);
	let errorBudget = 0;
	// Cleared by stop(), so that a long latency does not keep a test process alive.
	/** @type {Set<NodeJS.Timeout>} */
	const delays = new Set();
	const delay = (/** @type {number} */ ms) =>
		new Promise((/** @type {(value?: void) => void} */ resolve) => {
			const timer = setTimeout(() => {
				delays.delete(timer);
				resolve();
			}, ms);
			delays.add(timer);
		});
	const webhookSender = require('./webhook');
	// The address it listens on, not the request's Host header, which any client can set.
	const ownUrl = () => `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`;

	/** @param {RequestEntry} entry */
	function log(entry) {
		state.requests.push(entry);
		if (state.requests.length > MAX_LOGGED_REQUESTS) state.requests.shift();
	}

	// Counts API requests being answered at once, so tests can see a client's real concurrency.
	/**
	 * @param {Request} req
	 * @param {Response} res
	 * @param {string} raw
	 */
	async function handleApi(req, res, raw) {
		const counts = state.counts;
		counts.underWay++;
		counts.peakUnderWay = Math.max(counts.peakUnderWay, counts.underWay);
		try {
			await answerApi(req, res, raw);
		} finally {
			counts.underWay--;
		}
	}

	/**
	 * @param {Request} req
	 * @param {Response} res
	 * @param {string} raw
	 */
	async function answerApi(req, res, raw) {
		const auth = req.headers.authorization;
		/** @type {RequestEntry} */
		const entry = {
			at: new Date().toISOString(),
			// A server's request always has both.
			method: req.method ?? '',
			path: req.url ?? '',
			contentType: req.headers['content-type'],
			authorization: auth === undefined ? 'missing' : auth === `Bearer ${options.apiKey}` ? 'valid Bearer key' : 'wrong',
			// Node keeps only the first of repeated Authorization headers; the raw ones show them all.
			authorizationHeaders: req.rawHeaders.filter((name, i) => i % 2 === 0 && name.toLowerCase() === 'authorization').length,
			body: raw.slice(0, 2000),
			status: 0,
		};
		log(entry);
		state.counts.total++;
		if (options.latencyMs) await delay(options.latencyMs);

		if (faults.intercept(req, res, raw, entry)) return;
		const reply = (/** @type {number} */ status, /** @type {object} */ body, /** @type {Record<string, string>} */ headers = {}) => {
			entry.status = status;
			if (faults.deliver(req, res, raw, entry, { ...body, sandbox: SANDBOX_NOTE })) return;
			send(res, status, { ...body, sandbox: SANDBOX_NOTE }, headers);
		};
		if (entry.authorization !== 'valid Bearer key') {
			return reply(401, { error: 'The API key is missing or wrong (expected "Authorization: Bearer <key>").' });
		}
		const retryAfter = rateLimited();
		if (retryAfter) {
			return reply(429, { error: 'Rate limit reached.' }, { 'Retry-After': options.retryAfter ?? String(retryAfter) });
		}
		if (req.url !== '/v1/rooms') {
			return reply(404, { error: `The sandbox knows only POST /v1/rooms, not ${req.url}.` });
		}
		if (req.method === 'GET') {
			// What the credential's Test button sends. The reference publishes no read endpoint, so
			// this answer, like every other, is the sandbox's own.
			return reply(200, { keyAccepted: true, note: 'The sandbox accepted the API key. It answers GET /v1/rooms only for the credential test.' });
		}
		if (req.method !== 'POST') {
			return reply(405, { error: 'The reference publishes only POST on /v1/rooms.' }, { Allow: 'POST' });
		}
		if (options.errorRate > 0) {
			errorBudget += options.errorRate;
			if (errorBudget >= 1) {
				errorBudget -= 1;
				return reply(options.errorStatus, { error: `Simulated error (HTTP ${options.errorStatus}).` });
			}
		}
		const broken = brokenRule(raw);
		if (broken) return reply(400, { error: broken });
		const { name, type } = JSON.parse(raw);
		const id = randomUUID();
		const room = { id, name, type, link: `${ownUrl()}${ROOM_PAGE}${id}`, createdAt: new Date().toISOString() };
		state.rooms.push(room);
		state.counts.createdByBody[raw] = (state.counts.createdByBody[raw] || 0) + 1;
		return reply(201, room);
	}

	/**
	 * @param {Request} req
	 * @param {Response} res
	 * @param {string} raw
	 */
	async function handleSandbox(req, res, raw) {
		if (faults.control(req, res, raw)) return;
		const url = new URL(req.url ?? '/', 'http://sandbox');
		if (req.method === 'GET' && url.pathname === '/_sandbox/state') {
			return send(res, 200, { note: SANDBOX_NOTE, options: { ...options, apiKey: undefined, now: undefined }, ...state });
		}
		if (req.method === 'DELETE' && url.pathname === '/_sandbox/state') {
			state.rooms = [];
			state.requests = [];
			state.deliveries = [];
			state.counts = emptyCounts();
			return send(res, 200, { reset: true });
		}
		if (req.method === 'POST' && url.pathname === '/_sandbox/send-webhook') {
			const { target, headers } = JSON.parse(raw || '{}');
			/** @type {DeliveryEntry} */
			const entry = { at: new Date().toISOString(), target: String(target ?? '') };
			state.deliveries.push(entry);
			try {
				const result = await webhookSender.sendSampleDelivery(target, { headers });
				Object.assign(entry, result.sent ? { status: result.status, answer: result.answer } : { error: result.error });
				return send(res, 200, result);
			} catch (error) {
				entry.error = `No answer: ${/** @type {Error} */ (error).message}`;
				throw error;
			}
		}
		if (req.method === 'GET' && url.pathname.startsWith(ROOM_PAGE)) {
			const room = state.rooms.find(({ id }) => id === url.pathname.slice(ROOM_PAGE.length));
			if (room) return send(res, 200, require('./page').renderRoomPage(room, SANDBOX_NOTE));
		}
		if (req.method === 'GET' && url.pathname === '/') {
			const targets = options.webhookTargets ? await options.webhookTargets().catch(() => []) : [];
			return send(res, 200, require('./page').renderPage(state, SANDBOX_NOTE, targets));
		}
		return send(res, 404, { error: `Unknown sandbox path ${url.pathname}`, sandbox: SANDBOX_NOTE });
	}

	const server = http.createServer((req, res) => {
		idleTimer?.refresh();
		readBody(req)
			.then((raw) =>
				req.url?.startsWith('/v1/') || req.url === '/v1'
					? handleApi(req, res, raw)
					: handleSandbox(req, res, raw),
			)
			.catch((error) => send(res, 500, { error: `Sandbox failure: ${error.message}`, sandbox: SANDBOX_NOTE }));
	});
	server.keepAliveTimeout = 30_000;

	/** @type {NodeJS.Timeout | undefined} */
	let lifetimeTimer;
	/** @type {NodeJS.Timeout | undefined} */
	let idleTimer;
	return {
		state,
		options,
		/** The base URL, set by start(). */
		url: '',
		/** Starts listening on 127.0.0.1 and resolves to the base URL. */
		async start() {
			await new Promise((resolve, reject) => {
				server.once('error', reject);
				server.listen(options.port, '127.0.0.1', () => resolve(undefined));
			});
			// Said on stderr: a test whose sandbox is gone then shows why its requests were refused.
			const stopBySelf = (/** @type {string} */ why) => {
				process.stderr.write(`[sandbox ${this.url}] stopped by itself: ${why}\n`);
				void this.stop();
			};
			if (options.maxLifetimeMs) {
				lifetimeTimer = setTimeout(() => stopBySelf(`its lifetime of ${options.maxLifetimeMs / 1000} s ended`), options.maxLifetimeMs);
				lifetimeTimer.unref();
			}
			if (options.maxIdleMs) {
				idleTimer = setTimeout(() => stopBySelf(`no request for ${options.maxIdleMs / 1000} s`), options.maxIdleMs);
				idleTimer.unref();
			}
			this.url = ownUrl();
			return this.url;
		},
		async stop() {
			clearTimeout(lifetimeTimer);
			clearTimeout(idleTimer);
			for (const timer of delays) clearTimeout(timer);
			delays.clear();
			server.closeAllConnections?.();
			await new Promise((resolve) => server.close(() => resolve(undefined)));
		},
	};
}

/** @typedef {ReturnType<typeof createSandbox>} Sandbox */

module.exports = { createSandbox, brokenRule, SANDBOX_NOTE };

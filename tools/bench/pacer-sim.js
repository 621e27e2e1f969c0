#!/usr/bin/env node
'use strict';
// npm run bench:pacer: the pacer (from `dist`) in simulated time, against each kind of rate limit
// an API may use, so that what costs time under a rate limit can be told apart without noise: a
// fake clock, the node's retry rule (only a 429 is sent again, after its Retry-After and at least
// 1 s), `concurrency` requests under way, latency with jitter, and a client whose event loop is
// busy for a while after every answer (its timers fire late then, as in n8n). The node's real path
// under the sandbox's sliding window is `npm run bench`'s rate-limited phase. Writes bench/pacer-results.md.
// Usage: node tools/bench/pacer-sim.js [--rate 50] [--items 1000] [--limiter sliding,fixed,bucket]
//   [--cpu-ms 1] [--jitter-ms 2] [--latency 20] [--concurrency 10] [--seeds 3] [--dist dir]
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { repoRoot } = require('../common/paths');
const { median, spread, against } = require('./stats');
const { resultsPath, measuredOn } = require('./resultsFile');

const LIMITERS = { sliding: 'sliding window (the sandbox\'s)', fixed: 'window per calendar second', bucket: "token bucket holding one second's worth" };
/** As `npm run bench` asks of the node under the sandbox's rate limit. */
const TARGET = 1.1;

const { values } = parseArgs({
	options: {
		rate: { type: 'string', default: '50' },
		items: { type: 'string', default: '1000' },
		concurrency: { type: 'string', default: '10' },
		latency: { type: 'string', default: '20' },
		limiter: { type: 'string', default: Object.keys(LIMITERS).join(',') },
		'cpu-ms': { type: 'string', default: '1' },
		'jitter-ms': { type: 'string', default: '2' },
		seeds: { type: 'string', default: '3' },
		dist: { type: 'string', default: path.join(repoRoot, 'dist') },
	},
});
const [rate, items, cpuMs, jitterMs, latencyMs, concurrency, seeds] = [
	values.rate, values.items, values['cpu-ms'], values['jitter-ms'], values.latency, values.concurrency, values.seeds,
].map(Number);
const { RequestPacer } = require(path.join(path.resolve(values.dist), 'nodes/VideoPlatform/transport/pacer.js'));

/** @param {number} seed a repeatable generator of numbers in [0, 1) */
function random(seed) {
	let state = seed >>> 0;
	return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * A limiter of one of the LIMITERS kinds, admitting `perSecond`: it returns 0 for admitted, else
 * the Retry-After in whole seconds.
 * @param {string} kind
 * @param {number} perSecond
 * @returns {(now: number) => number}
 */
function limiter(kind, perSecond) {
	/** @type {number[]} */
	const admitted = [];
	let count = 0;
	let since = kind === 'bucket' ? 0 : -1;
	let tokens = perSecond;
	if (kind === 'sliding')
		return (now) => {
			while (admitted.length && admitted[0] <= now - 1000) admitted.shift();
			if (admitted.length < perSecond) return admitted.push(now) && 0;
			return Math.max(1, Math.ceil((admitted[0] + 1000 - now) / 1000));
		};
	if (kind === 'fixed')
		return (now) => {
			const second = Math.floor(now / 1000);
			if (second !== since) [since, count] = [second, 0];
			return count < perSecond ? (count++, 0) : 1;
		};
	if (kind === 'bucket')
		return (now) => {
			tokens = Math.min(perSecond, tokens + ((now - since) * perSecond) / 1000);
			since = now;
			return tokens >= 1 ? (tokens--, 0) : 1;
		};
	throw new Error(`unknown limiter ${kind}`);
}

/**
 * @param {string} kind  the limiter's
 * @param {number} seed
 */
async function simulate(kind, seed) {
	const next = random(seed);
	const exponential = (/** @type {number} */ mean) => (mean ? -Math.log(1 - next()) * mean : 0);
	/** @type {{ at: number, client: boolean, order: number, resume: () => void }[]} */
	const timers = [];
	let now = 0;
	let order = 0;
	let busyUntil = 0;
	const timer = (/** @type {number} */ at, client = false) =>
		new Promise((/** @type {(value?: void) => void} */ resume) => timers.push({ at, client, order: order++, resume }));
	// The client's timers fire on whole milliseconds, never while its event loop is busy.
	const clock = { now: () => now, sleep: async (/** @type {number} */ ms) => await timer(Math.ceil(now + Math.max(1, ms)), true) };
	const pacer = new RequestPacer(clock);
	const limit = limiter(kind, rate);
	let taken = 0;
	let refused = 0;
	let end = 0;
	const worker = async () => {
		while (taken < items) {
			taken++;
			for (;;) {
				await pacer.waitForTurn();
				await timer(now + latencyMs + exponential(jitterMs));
				const retryAfterS = limit(now);
				busyUntil = Math.max(now, busyUntil) + exponential(cpuMs);
				await timer(busyUntil);
				if (!retryAfterS) break;
				refused++;
				const waitMs = Math.max(1000, retryAfterS * 1000);
				pacer.recordRefusal(waitMs);
				await clock.sleep(waitMs);
			}
			pacer.recordAccepted();
			end = now;
		}
	};
	let finished = false;
	void Promise.all(Array.from({ length: concurrency }, worker)).then(() => (finished = true));
	for (;;) {
		await new Promise(setImmediate);
		if (finished) return { ratio: end / ((items / rate) * 1000), refused };
		timers.sort((a, b) => a.at - b.at || a.order - b.order);
		const due = timers.shift();
		if (!due) throw new Error('nothing left to wait for');
		if (due.client && due.at < busyUntil) {
			timers.push({ ...due, at: busyUntil });
			continue;
		}
		now = Math.max(now, due.at);
		due.resume();
	}
}

async function main() {
	const kinds = values.limiter.split(',');
	const lines = [
		'# The pacer in simulated time (`npm run bench:pacer`)',
		'',
		`${measuredOn()}. ${items} requests at concurrency ${concurrency}, rate limit ${rate}/s (429 + Retry-After in whole seconds), latency ${latencyMs} ms plus exponential jitter of mean ${jitterMs} ms, the client busy ${cpuMs} ms (exponential mean) after each answer, ${seeds} seeds per limiter. Time to the last accepted request against the ideal ${items}/R; the spread is (max − min) / median over the seeds; target ≤ ${TARGET}x, as \`npm run bench\` asks of the node under its rate limit.`,
		'',
		`| Limiter | Time / ideal ${items}/R (median) | Seeds' range | Spread | 429s per seed | Target ≤ ${TARGET}x |`,
		'|---|---|---|---|---|---|',
	];
	for (const kind of kinds) {
		if (!(kind in LIMITERS)) throw new Error(`unknown limiter ${kind}; the limiters are ${Object.keys(LIMITERS).join(', ')}`);
		const runs = [];
		for (let seed = 1; seed <= seeds; seed++) runs.push(await simulate(kind, seed));
		const ratios = runs.map((run) => run.ratio).sort((a, b) => a - b);
		const measured = { value: median(ratios), spread: spread(ratios) };
		const verdict = { undecided: 'within noise', pass: 'pass', miss: 'miss' }[against(measured, TARGET, measured.value <= TARGET)];
		lines.push(
			`| ${LIMITERS[/** @type {keyof LIMITERS} */ (kind)]} | ${measured.value.toFixed(3)}x | ${ratios[0].toFixed(3)} to ${ratios.at(-1)?.toFixed(3)} | ${(measured.spread * 100).toFixed(1)} % | ${runs.map((run) => run.refused).join(', ')} | ${verdict} |`,
		);
	}
	const text = lines.join('\n');
	fs.writeFileSync(resultsPath('pacer-results.md'), `${text}\n`);
	process.stdout.write(`${text}\nWritten to ${resultsPath('pacer-results.md')}.\n`);
}

main().catch((error) => {
	process.stderr.write(`${error.stack}\n`);
	process.exit(1);
});

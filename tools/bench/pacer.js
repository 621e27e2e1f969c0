#!/usr/bin/env node
'use strict';
// The pacer against the sandbox's rate limit, fast and outside n8n: the node's own code path
// (router, transport, pacer, from `dist`) sends real requests through n8n's HTTP client to a
// sandbox process with a rate limit, as in memory.js. Prints, per round, the wall time against
// the ideal items/R, the 429s, duplicates, and where the time went second by second.
// Usage: node tools/bench/pacer.js [--rate 50] [--items 1000] [--concurrency 10] [--latency 20] [--rounds 3] [--port 8795] [--timeline]
const { parseArgs } = require('node:util');
const { Container } = require('@n8n/di');
const { OutboundHttp } = require('@n8n/backend-network');

const { RUN_OPTIONS } = require('./pacerOptions');
const { startSandboxProcess } = require('../sandbox/process');
const { runNodePath } = require('./nodePath');
const { median, spread } = require('./stats');

const { values } = parseArgs({
	options: {
		...RUN_OPTIONS,
		rounds: { type: 'string', default: '3' },
		port: { type: 'string', default: '8795' },
		timeline: { type: 'boolean', default: false },
	},
});
const [rate, itemCount, concurrency, latencyMs, rounds, port] = [values.rate, values.items, values.concurrency, values.latency, values.rounds, values.port].map(Number);
const API_KEY = 'bench-pacer-key';
const client = Container.get(OutboundHttp).requests();

/** @param {string} baseUrl */
async function runNode(baseUrl) {
	/** @type {{ at: number, status: number }[]} */
	const answers = [];
	const items = Array.from({ length: itemCount }, (_, i) => ({ json: { name: `Class ${i}` } }));
	const send = async (/** @type {import('n8n-workflow').IHttpRequestOptions} */ options) => {
		const response = /** @type {import('n8n-workflow').IN8nHttpFullResponse} */ (await client.request({ ...options, headers: { ...options.headers, Authorization: `Bearer ${API_KEY}` } }));
		answers.push({ at: performance.now() - started, status: response.statusCode });
		return response;
	};
	const started = performance.now();
	const output = await runNodePath(items, { baseUrl, apiKey: API_KEY, concurrency, send });
	return { ms: performance.now() - started, output, answers };
}

/**
 * Per second of the run: the answers that came, accepted and refused.
 * @param {{ at: number, status: number }[]} answers
 */
function timeline(answers) {
	/** @type {{ ok: number, refused: number }[]} */
	const seconds = [];
	for (const { at, status } of answers) {
		const s = Math.floor(at / 1000);
		seconds[s] ??= { ok: 0, refused: 0 };
		if (status === 429) seconds[s].refused++;
		else seconds[s].ok++;
	}
	return Array.from(seconds, (s, i) => `${i}s:${s?.ok ?? 0}${s?.refused ? `/${s.refused}x429` : ''}`).join(' ');
}

async function main() {
	const sandbox = await startSandboxProcess({ port, apiKey: API_KEY, latencyMs, rateLimit: rate });
	const ideal = (itemCount / rate) * 1000;
	/** @type {number[]} */
	const ratios = [];
	try {
		for (let round = 1; round <= rounds; round++) {
			await sandbox.reset();
			// The sandbox's window of the round before must be empty.
			await new Promise((resolve) => setTimeout(resolve, 1100));
			const { ms, output, answers } = await runNode(sandbox.url);
			const state = await sandbox.state();
			const failed = output.filter((item) => item.json.error !== undefined).length;
			const refused = answers.filter((r) => r.status === 429).length;
			const duplicates = Object.values(state.counts.createdByBody).reduce((sum, n) => sum + (n > 1 ? n - 1 : 0), 0);
			ratios.push(ms / ideal);
			process.stdout.write(
				`rate ${rate}/s round ${round}: ${(ms / 1000).toFixed(2)} s = ${(ms / ideal).toFixed(3)}x ideal ${(ideal / 1000).toFixed(2)} s; ` +
					`${itemCount - failed}/${itemCount} ok, ${state.counts.total} requests, ${refused} x 429, ${duplicates} duplicates\n`,
			);
			if (values.timeline) process.stdout.write(`  ${timeline(answers)}\n`);
		}
	} finally {
		await sandbox.stop();
	}
	process.stdout.write(`rate ${rate}/s: median ${median(ratios).toFixed(3)}x ideal over ${rounds} rounds, spread ${(spread(ratios) * 100).toFixed(1)} %\n`);
}

main().catch((error) => {
	process.stderr.write(`${error.stack}\n`);
	process.exit(1);
});

#!/usr/bin/env node
'use strict';
// What reading the answer as a bounded stream costs in n8n's HTTP client, outside n8n: CPU time
// per request of this process (the sandbox answers from its own process after 20 ms, as in
// `npm run bench`), for the same room requests sent four ways, interleaved, each round in another
// order. Single rounds vary by a quarter or more on 2 cores: read the medians of many rounds.
// Writes bench/client-paths-results.md.
// - parsed: as the compliant limit asks (`json: true`, n8n's client parses the answer);
// - bounded: as the compliant limit with the bounded answer asks (`encoding: 'stream'`, read up to 10 MiB);
// - node: the node's own code path (router, transport, from `dist`), which asks for a stream;
// - node-buffered: the same code path with n8n's client asked for text instead (not what the node
//   does: it cannot cap a buffered answer; here to separate the node's code from the stream).
// Usage: node --expose-gc tools/bench/client-paths.js [--items 1000] [--rounds 16] [--concurrency 10] [--latency 20] [--port 8796]
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { Container } = require('@n8n/di');
const { OutboundHttp } = require('@n8n/backend-network');

const { repoRoot } = require('../common/paths');
const { startSandboxProcess } = require('../sandbox/process');
const { runNodePath, eachItem } = require('./nodePath');
const { readBounded } = require('./compliant-limit/CompliantLimit.node');

const { values } = parseArgs({
	options: {
		items: { type: 'string', default: '1000' },
		rounds: { type: 'string', default: '16' },
		concurrency: { type: 'string', default: '10' },
		port: { type: 'string', default: '8796' },
		latency: { type: 'string', default: '20' },
	},
});
const [itemCount, rounds, concurrency, port, latencyMs] = [values.items, values.rounds, values.concurrency, values.port, values.latency].map(Number);
const API_KEY = 'bench-client-paths-key';
const client = Container.get(OutboundHttp).requests();
const authorized = (/** @type {import('n8n-workflow').IHttpRequestOptions} */ options) => ({ ...options, headers: { ...options.headers, Authorization: `Bearer ${API_KEY}` } });

/**
 * @typedef {import('./nodePath').Item} Item
 * @typedef {(items: Item[], baseUrl: string) => Promise<Item[]>} Path
 */

/** @param {Item} item @param {string} baseUrl */
const roomRequest = (item, baseUrl) => ({ method: /** @type {const} */ ('POST'), url: `${baseUrl}/v1/rooms`, body: { name: item.json.name, type: 'conference' }, json: true });

/** @type {Record<string, Path>} */
const PATHS = {
	parsed: (items, baseUrl) => eachItem(items, concurrency, async (item) => /** @type {Record<string, any>} */ (await client.request(authorized(roomRequest(item, baseUrl))))),
	bounded: (items, baseUrl) =>
		eachItem(items, concurrency, async (item) => {
			const response = /** @type {import('n8n-workflow').IN8nHttpFullResponse} */ (
				await client.request(authorized({ ...roomRequest(item, baseUrl), encoding: 'stream', returnFullResponse: true }))
			);
			return await readBounded(/** @type {import('node:stream').Readable} */ (response.body));
		}),
	node: (items, baseUrl) => runNodePath(items, { baseUrl, apiKey: API_KEY, concurrency, send: async (options) => await client.request(authorized(options)) }),
	'node-buffered': (items, baseUrl) =>
		runNodePath(items, { baseUrl, apiKey: API_KEY, concurrency, send: async (options) => await client.request(authorized({ ...options, encoding: 'text' })) }),
};

/** @param {number[]} list */
const median = (list) => {
	const sorted = [...list].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function main() {
	const sandbox = await startSandboxProcess({ port, apiKey: API_KEY, latencyMs });
	const names = Object.keys(PATHS);
	/** @type {Record<string, number[]>} */
	const cpuPerRequest = Object.fromEntries(names.map((name) => [name, []]));
	try {
		const items = Array.from({ length: itemCount }, (_, i) => ({ json: { name: `Class ${i}` } }));
		for (const name of names) await PATHS[name](items.slice(0, 200), sandbox.url);
		for (let round = 0; round < rounds; round++) {
			// Turned by one place every two rounds, every other round backwards: over 2n rounds each
			// path runs first, and last, twice.
			const by = Math.floor(round / 2) % names.length;
			const turned = [...names.slice(by), ...names.slice(0, by)];
			for (const name of round % 2 ? turned.reverse() : turned) {
				/** @type {() => void} */ (global.gc)();
				const before = process.cpuUsage();
				const output = await PATHS[name](items, sandbox.url);
				const { user, system } = process.cpuUsage(before);
				const failed = output.filter((item) => item.json.error !== undefined || item.json.id === undefined).length;
				if (failed) throw new Error(`${name}: ${failed} of ${itemCount} items failed`);
				cpuPerRequest[name].push((user + system) / itemCount);
			}
		}
	} finally {
		await sandbox.stop();
	}
	const lines = [
		'# n8n\'s client: CPU per request by how the answer is read',
		'',
		`${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, Node ${process.version}, \`node --expose-gc tools/bench/client-paths.js\`: CPU time of this process per request, ${itemCount} requests per round, ${rounds} rounds, concurrency ${concurrency}, sandbox latency ${latencyMs} ms. Ratio: the median of the rounds' ratios to "parsed" (the paths of a round ran one after another); spread: (max − min) / median of those ratios.`,
		'',
		'| Path | CPU per request (median) | Ratio to parsed | Spread | Rounds |',
		'|---|---|---|---|---|',
	];
	for (const name of names) {
		const ratios = cpuPerRequest[name].map((us, i) => us / cpuPerRequest.parsed[i]);
		const spread = (Math.max(...ratios) - Math.min(...ratios)) / median(ratios);
		lines.push(`| ${name} | ${median(cpuPerRequest[name]).toFixed(0)} µs | ${median(ratios).toFixed(2)}x | ${(spread * 100).toFixed(0)} % | ${ratios.map((r) => r.toFixed(2)).join(' ')} |`);
	}
	const text = `${lines.join('\n')}\n`;
	fs.writeFileSync(path.join(repoRoot, 'bench', 'client-paths-results.md'), text);
	process.stdout.write(`${text}Written to bench/client-paths-results.md.\n`);
}

main().catch((error) => {
	process.stderr.write(`${error.stack}\n`);
	process.exit(1);
});

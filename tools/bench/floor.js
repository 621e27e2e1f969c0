#!/usr/bin/env node
'use strict';
// Reference loops outside any workflow, at the node's concurrency:
// - raw: a plain keep-alive HTTP client, the floor;
// - n8n-client: n8n's own HTTP client (OutboundHttp, what httpRequestWithAuthentication calls
//   once the header is set), which is as fast as any node that follows n8n's rules can send.
// Usage: node floor.js <baseUrl> <apiKey> <count> <concurrency> [raw|n8n-client]   (prints JSON)
const http = require('node:http');
const { parseArgs } = require('node:util');

/**
 * @typedef {{ post(url: URL, headers: Record<string, string>, body: string): Promise<number | undefined>, close(): void }} Client
 */

/**
 * @param {number} concurrency
 * @returns {Client}
 */
function rawClient(concurrency) {
	const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
	const post = (/** @type {URL} */ url, /** @type {Record<string, string>} */ headers, /** @type {string} */ body) =>
		/** @type {Promise<number | undefined>} */ (new Promise((resolve, reject) => {
			const req = http.request(url, { method: 'POST', agent, headers: { ...headers, 'Content-Length': Buffer.byteLength(body) } }, (res) => {
				res.resume();
				res.on('end', () => resolve(res.statusCode));
			});
			req.on('error', reject);
			req.end(body);
		}));
	return { post, close: () => agent.destroy() };
}

/** @returns {Client} */
function n8nClient() {
	const { Container } = require('@n8n/di');
	const { OutboundHttp } = require('@n8n/backend-network');
	const client = Container.get(OutboundHttp).requests();
	const post = async (/** @type {URL} */ url, /** @type {Record<string, string>} */ headers, /** @type {string} */ body) => {
		const response = await client.request({ method: 'POST', url: String(url), headers, body, encoding: 'text', returnFullResponse: true, ignoreHttpStatusErrors: true });
		return response.statusCode;
	};
	return { post, close: () => {} };
}

async function main() {
	const [baseUrl, apiKey, countArg, concurrencyArg, kind = 'raw'] = parseArgs({ args: process.argv.slice(2), allowPositionals: true }).positionals;
	const [count, concurrency] = [Number(countArg), Number(concurrencyArg)];
	const client = kind === 'n8n-client' ? n8nClient() : rawClient(concurrency);
	const url = new URL('/v1/rooms', baseUrl);
	const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${apiKey}` };
	let next = 0;
	let ok = 0;
	const started = process.hrtime.bigint();
	const cpuBefore = process.cpuUsage();
	await Promise.all(
		Array.from({ length: concurrency }, async () => {
			while (next < count) {
				const status = await client.post(url, headers, JSON.stringify({ name: `${kind}-${next++}`, type: 'conference' }));
				if (status === 201) ok++;
			}
		}),
	);
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	const cpu = process.cpuUsage(cpuBefore);
	client.close();
	process.stdout.write(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, ok, failed: count - ok, peakRss: process.resourceUsage().maxRSS * 1024 }));
}

main().catch((error) => {
	process.stderr.write(`${error.stack}\n`);
	process.exit(1);
});

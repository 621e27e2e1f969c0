#!/usr/bin/env node
'use strict';
// The floor: the same POSTs from a plain keep-alive HTTP client at the same concurrency.
// Usage: node floor.js <baseUrl> <apiKey> <count> <concurrency>   (prints JSON)
const http = require('node:http');

async function main() {
	const [baseUrl, apiKey, count, concurrency] = process.argv.slice(2);
	const agent = new http.Agent({ keepAlive: true, maxSockets: Number(concurrency) });
	const url = new URL('/v1/rooms', baseUrl);
	const post = (name) =>
		new Promise((resolve, reject) => {
			const body = JSON.stringify({ name, type: 'conference' });
			const req = http.request(url, {
				method: 'POST',
				agent,
				headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${apiKey}`, 'Content-Length': Buffer.byteLength(body) },
			}, (res) => {
				res.resume();
				res.on('end', () => resolve(res.statusCode));
			});
			req.on('error', reject);
			req.end(body);
		});
	let next = 0;
	let ok = 0;
	const started = process.hrtime.bigint();
	await Promise.all(
		Array.from({ length: Number(concurrency) }, async () => {
			while (next < Number(count)) {
				const status = await post(`floor-${next++}`);
				if (status === 201) ok++;
			}
		}),
	);
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	agent.destroy();
	process.stdout.write(JSON.stringify({ ms, ok, failed: Number(count) - ok, peakRss: process.resourceUsage().maxRSS * 1024 }));
}

main().catch((error) => {
	process.stderr.write(`${error.stack}\n`);
	process.exit(1);
});

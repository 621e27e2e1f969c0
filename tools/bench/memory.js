#!/usr/bin/env node
'use strict';
// Memory in the number of items, in-process: the node's router (from dist) against a baseline
// loop that holds exactly the same outputs. Both send the same real requests to the sandbox
// through n8n's own HTTP client. The live heap is read after a forced GC at fixed points of a
// run, so that garbage does not blur it; the peak of those readings is reported.
// Usage: node --expose-gc memory.js <baseUrl> <apiKey> <counts, e.g. 2000,10000> <concurrency> <runs>
const { parseArgs } = require('node:util');
const { Container } = require('@n8n/di');
const { OutboundHttp } = require('@n8n/backend-network');

const { runNodePath, eachItem } = require('./nodePath');

const SAMPLES_PER_RUN = 16;
const [baseUrl, apiKey, countList, concurrencyArg, runsArg] = parseArgs({ args: process.argv.slice(2), allowPositionals: true }).positionals;
const counts = countList.split(',').map(Number);
const concurrency = Number(concurrencyArg);
const client = Container.get(OutboundHttp).requests();

/** @typedef {import('./nodePath').Item} Item */

const liveHeap = () => {
	// Given by --expose-gc.
	/** @type {() => void} */ (global.gc)();
	return process.memoryUsage().heapUsed;
};
const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

/**
 * Reads the live heap every `every` answers; keeps the highest reading.
 * @param {number} count
 */
function sampler(count) {
	const every = Math.max(1, Math.ceil(count / SAMPLES_PER_RUN));
	let answered = 0;
	const sample = {
		peak: 0,
		tick() {
			if (++answered % every === 0) sample.peak = Math.max(sample.peak, liveHeap());
		},
	};
	return sample;
}

/**
 * @param {{ name: string, type: string }} body
 * @param {() => void} onAnswer
 */
async function send(body, onAnswer) {
	const response = await client.request({
		method: 'POST',
		url: `${baseUrl}/v1/rooms`,
		headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Bearer ${apiKey}` },
		body: JSON.stringify(body),
		encoding: 'text',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	});
	onAnswer();
	return response;
}

/**
 * The Video Platform node's own code path; its requests go out as the baseline's do.
 * @param {Item[]} items
 * @param {() => void} onAnswer
 * @returns {Promise<Item[]>}
 */
async function runNode(items, onAnswer) {
	const sendAsBaseline = async (/** @type {import('n8n-workflow').IHttpRequestOptions} */ options) => await send(JSON.parse(String(options.body)), onAnswer);
	return await runNodePath(items, { baseUrl, apiKey, concurrency, send: sendAsBaseline });
}

/**
 * What any implementation must hold: one output item per input, the answer parsed.
 * @param {Item[]} items
 * @param {() => void} onAnswer
 * @returns {Promise<Item[]>}
 */
async function runBaseline(items, onAnswer) {
	return await eachItem(items, concurrency, async (item) => JSON.parse(String((await send({ name: item.json.name, type: 'conference' }, onAnswer)).body)));
}

/**
 * @param {(items: Item[], onAnswer: () => void) => Promise<Item[]>} run
 * @param {number} count
 */
async function measure(run, count) {
	const items = Array.from({ length: count }, (_, i) => ({ json: { name: `Class ${i}` } }));
	const timersBefore = timers();
	const before = liveHeap();
	const sample = sampler(count);
	const output = await run(items, sample.tick);
	const retained = liveHeap() - before;
	const failed = output.filter((item) => item.json.error !== undefined).length;
	return { peakGrowth: Math.max(sample.peak, before) - before, retained, failed, timersLeft: timers() - timersBefore };
}

async function main() {
	/** @type {object[]} */
	const results = [];
	// A first, discarded round, so that loading and compiling code is not counted as growth.
	await measure(runNode, counts[0]);
	await measure(runBaseline, counts[0]);
	for (let round = 0; round < Number(runsArg); round++) {
		for (const count of counts) {
			for (const [mode, run] of /** @type {const} */ ([['node', runNode], ['baseline', runBaseline]])) {
				results.push({ mode, count, ...(await measure(run, count)) });
			}
		}
	}
	process.stdout.write(JSON.stringify(results));
}

main().catch((error) => {
	process.stderr.write(`${error.stack}\n`);
	process.exit(1);
});

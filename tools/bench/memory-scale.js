#!/usr/bin/env node
'use strict';
// npm run bench:memory, the lab's only memory measure: the node's live heap per item against the
// baseline's (memory.js: 2,000 vs 10,000 items), each round's ratio and their spread, then
// one round at 10,000, 50,000 and 100,000 items to show whether the growth stays linear. Needs
// no n8n (memory.js runs the node's code path with n8n's HTTP client against the sandbox).
// Writes bench/memory-results.md. BENCH_RUNS (rounds) and BENCH_SCALE (the item counts of the
// linear check, e.g. 1000,2000) make a shorter run.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const { freePort } = require('../common/ports');
const { startSandboxProcess } = require('../sandbox/process');
const { median, ratio, against } = require('./stats');
const { resultsPath, measuredOn } = require('./resultsFile');

const API_KEY = 'bench-key';
const CONCURRENCY = 10;
const RUNS = Number(process.env.BENCH_RUNS || 5);
const SCALE = (process.env.BENCH_SCALE || '10000,50000,100000').split(',').map(Number);
const [SMALL, LARGE] = [2000, 10000];
/** Per extra item, the node's live heap grows at most this × the baseline's. */
const TARGET = 1.2;

/** @typedef {{ mode: string, count: number, peakGrowth: number, failed: number, timersLeft: number }} MemorySample */

/**
 * @param {string} url
 * @param {number[]} counts
 * @param {number} runs
 * @returns {MemorySample[]}
 */
function measure(url, counts, runs) {
	const args = ['--expose-gc', path.join(__dirname, 'memory.js'), url, API_KEY, counts.join(','), String(CONCURRENCY), String(runs)];
	return JSON.parse(String(execFileSync(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 })));
}

const kb = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(0)} KB`;

async function main() {
	const started = performance.now();
	const sandbox = await startSandboxProcess({ port: await freePort(), apiKey: API_KEY, latencyMs: 0 });
	const lines = [
		'# Memory in the number of items (`npm run bench:memory`)',
		'',
		`${measuredOn()}, Node ${process.version}. In one process, the node's own code path (router, transport, pacer, from \`dist\`) and a baseline loop that only keeps the same outputs send the same real requests to the sandbox (no latency) through n8n's HTTP client, at concurrency ${CONCURRENCY}; no n8n runs. Settings: ${RUNS} rounds (BENCH_RUNS, default 5), the linear check at ${SCALE.join(', ')} items (BENCH_SCALE, default 10000,50000,100000). The live heap is read after a forced GC at 16 points of each run; a run's figure is the peak growth over the heap before it. The outputs are in both; what the node adds on top is the difference.`,
		'',
	];
	try {
		const samples = measure(sandbox.url, [SMALL, LARGE], RUNS);
		const growth = (/** @type {string} */ mode, /** @type {number} */ count) => samples.filter((s) => s.mode === mode && s.count === count).map((s) => s.peakGrowth);
		const perItem = (/** @type {string} */ mode) => growth(mode, LARGE).map((g, round) => (g - growth(mode, SMALL)[round]) / (LARGE - SMALL));
		const ratios = perItem('node').map((n, round) => n / perItem('baseline')[round]);
		const { value, spread } = ratio(perItem('node'), perItem('baseline'));
		const timersLeft = Math.max(...samples.filter((s) => s.mode === 'node').map((s) => s.timersLeft));
		const failed = Math.max(...samples.map((s) => s.failed));
		const verdict = { undecided: 'within noise (spread wider than the gap)', pass: 'PASS', miss: 'FAIL' }[against({ value, spread }, TARGET, value <= TARGET)];
		lines.push(
			`Per extra item (${SMALL} → ${LARGE} items, ${RUNS} round${RUNS === 1 ? '' : 's'}, medians): node ${median(perItem('node')).toFixed(0)} B, baseline ${median(perItem('baseline')).toFixed(0)} B: ${value.toFixed(2)}x (per-round ratios ${ratios.map((r) => r.toFixed(2)).join(', ')}; spread ${(spread * 100).toFixed(0)} %).`,
			'',
			'Targets:',
			'',
			`- ${verdict}: per extra item, the node's live heap grows <= ${TARGET}x the baseline's (${value.toFixed(2)}x)`,
			`- ${timersLeft === 0 ? 'PASS' : 'FAIL'}: no timer left by the node (${timersLeft})`,
			`- ${failed === 0 ? 'PASS' : 'FAIL'}: no failed item (${failed})`,
		);
		const scale = measure(sandbox.url, SCALE, 1);
		lines.push('', 'Growth in the number of items, one round:', '', '| Items | Node: peak live heap growth | per item | Baseline | per item |', '|---|---|---|---|---|');
		for (const count of SCALE) {
			const at = (/** @type {string} */ mode) => /** @type {MemorySample} */ (scale.find((s) => s.mode === mode && s.count === count)).peakGrowth;
			lines.push(`| ${count.toLocaleString('en-US')} | ${kb(at('node'))} | ${(at('node') / count).toFixed(0)} B | ${kb(at('baseline'))} | ${(at('baseline') / count).toFixed(0)} B |`);
		}
	} finally {
		await sandbox.stop();
	}
	lines.push('', `The run took ${Math.round((performance.now() - started) / 1000)} s.`);
	const text = lines.join('\n');
	fs.writeFileSync(resultsPath('memory-results.md'), `${text}\n`);
	process.stdout.write(`${text}\nWritten to ${resultsPath('memory-results.md')}.\n`);
}

main().catch((error) => {
	process.stderr.write(`[bench:memory] ${error.stack}\n`);
	process.exit(1);
});

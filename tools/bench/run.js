#!/usr/bin/env node
'use strict';
// npm run bench: the Video Platform node against the HTTP Request node and a raw client, side
// by side in one run, in a real n8n 2.x, against the sandbox in its own process. Reports medians
// and ratios (machines here are noisy), writes bench/results.md, and checks the targets.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const { N8n } = require('../n8n/n8n');
const { freePort } = require('../common/ports');
const { packPackage } = require('../common/package');
const { repoRoot, scratchRoot } = require('../common/paths');
const { startSandboxProcess } = require('../sandbox/process');
const wf = require('../n8n/workflows');

const ITEMS = Number(process.env.BENCH_ITEMS || 1000);
const RUNS = Number(process.env.BENCH_RUNS || 3);
const CONCURRENCY = 10;
const LATENCY_MS = 20;
const RATE_LIMIT = 50;
const API_KEY = 'bench-key';
// tools/bench/compliant-limit: the least any node that follows n8n's rules can cost on this work.
const COMPLIANT_LIMIT_NODE = 'n8n-nodes-bench-compliant-limit.compliantLimit';
/** Item counts for the memory check, far apart so that growth per item stands out from noise. */
const MEMORY_COUNTS = [2000, 10000];

/**
 * @typedef {{ ms: number, ok: number, failed: number, peakRss: number, requests: number, duplicates: number }} Sample  one run of one scenario
 * @typedef {Record<string, Sample>} Phase  each scenario's medians (ok: the least, failed and duplicates: the most)
 * @typedef {{ small: number, large: number, perItem: number, failed: number, timersLeft: number }} MemorySummary
 * @typedef {{ mode: string, count: number, peakGrowth: number, failed: number, timersLeft: number }} MemorySample  a line of memory.js
 * @typedef {import('../sandbox/process').SandboxProcess} SandboxProcess
 */

const median = (/** @type {number[]} */ values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const log = (/** @type {string} */ message) => process.stderr.write(`[bench] ${message}\n`);

/** @param {string} sandboxUrl */
function benchWorkflows(sandboxUrl) {
	const rows = Array.from({ length: ITEMS }, (_, i) => ({ name: `Class ${i}` }));
	const body = '={{ JSON.stringify({ name: String($json.name), type: "conference" }) }}';
	const http = (/** @type {string} */ name, /** @type {object} */ options) =>
		wf.httpRequestWithCredential(
			name,
			'bench',
			{ method: 'POST', url: `${sandboxUrl}/v1/rooms`, sendBody: true, contentType: 'json', specifyBody: 'json', jsonBody: body, options },
			{ onError: 'continueRegularOutput' },
		);
	return {
		node: wf.workflow('benchNode', [
			wf.manualTrigger(),
			...wf.itemsFrom('Classes', rows),
			wf.createRoom('Target', 'bench', { onError: 'continueRegularOutput' }, { maxConcurrentRequests: CONCURRENCY }),
		]),
		compliant: wf.workflow('benchCompliant', [
			wf.manualTrigger(),
			...wf.itemsFrom('Classes', rows),
			wf.node('Target', COMPLIANT_LIMIT_NODE, { name: '={{ $json.name }}', type: '={{ $json.type ?? "conference" }}' }, {
				credentials: wf.credentialRef('bench'),
				onError: 'continueRegularOutput',
			}),
		]),
		httpDefault: wf.workflow('benchHttpDefault', [wf.manualTrigger(), ...wf.itemsFrom('Classes', rows), http('Target', {})]),
		httpBatched: wf.workflow('benchHttpBatched', [
			wf.manualTrigger(),
			...wf.itemsFrom('Classes', rows),
			http('Target', { batching: { batch: { batchSize: CONCURRENCY, batchInterval: 0 } } }),
		]),
	};
}

/** @type {{ key: string, label: string, reference?: string }[]} */
const SCENARIOS = [
	{ key: 'node', label: `Video Platform node (concurrency ${CONCURRENCY})` },
	{ key: 'compliant', label: `Compliant limit: a minimal node, same parameters and request (concurrency ${CONCURRENCY})` },
	{ key: 'httpDefault', label: 'HTTP Request node, defaults' },
	{ key: 'httpBatched', label: `HTTP Request node, batch of ${CONCURRENCY}` },
	{ key: 'client', label: `n8n's HTTP client alone, outside a workflow (concurrency ${CONCURRENCY}): reference`, reference: 'n8n-client' },
	{ key: 'floor', label: `Raw keep-alive client (concurrency ${CONCURRENCY}): floor`, reference: 'raw' },
];

/** @param {import('../sandbox/server').SandboxState} state */
function serverSummary(state) {
	const duplicates = Object.values(state.counts.createdByBody).reduce((sum, n) => sum + (n > 1 ? n - 1 : 0), 0);
	return { requests: state.counts.total, duplicates };
}

/**
 * @param {N8n} n8n
 * @param {SandboxProcess} sandbox
 * @param {string} workflowId
 * @returns {Promise<Sample>}
 */
async function runN8nScenario(n8n, sandbox, workflowId) {
	await sandbox.reset();
	const rssFile = path.join(scratchRoot, `bench-rss-${process.pid}`);
	const env = {
		NODE_OPTIONS: `--require ${path.join(__dirname, 'peak-rss.js')}`,
		BENCH_PEAK_RSS_FILE: rssFile,
	};
	const result = await n8n.execute(workflowId, { env });
	if (!result.run) throw new Error(`${workflowId} produced no run data:\n${result.stdout.slice(-1500)}${result.stderr.slice(-1500)}`);
	const output = wf.outputOf(result.run, 'Target');
	const failed = output.filter((item) => item.json.error !== undefined).length;
	return {
		ms: wf.executionTimeOf(result.run, 'Target'),
		ok: output.length - failed,
		failed: failed + (ITEMS - output.length),
		peakRss: Number(fs.readFileSync(rssFile, 'utf8')),
		...serverSummary(await sandbox.state()),
	};
}

/**
 * @param {SandboxProcess} sandbox
 * @param {string} kind  floor.js's client
 * @returns {Promise<Sample>}
 */
async function runReference(sandbox, kind) {
	await sandbox.reset();
	const out = execFileSync(process.execPath, [path.join(__dirname, 'floor.js'), sandbox.url, API_KEY, String(ITEMS), String(CONCURRENCY), kind]);
	return { ...JSON.parse(String(out)), ...serverSummary(await sandbox.state()) };
}

/**
 * @param {N8n} n8n
 * @param {number} port  the sandbox's
 * @param {number} rateLimit
 * @returns {Promise<Phase>}
 */
async function measurePhase(n8n, port, rateLimit) {
	const sandbox = await startSandboxProcess({ port, apiKey: API_KEY, latencyMs: LATENCY_MS, rateLimit });
	/** @type {Record<string, Sample[]>} */
	const samples = Object.fromEntries(SCENARIOS.map(({ key }) => [key, []]));
	try {
		for (let round = 1; round <= RUNS; round++) {
			// Interleaved, so that a slow moment of the machine hits every scenario alike.
			for (const { key, label, reference } of SCENARIOS) {
				log(`${rateLimit ? `rate limit ${rateLimit}/s` : 'no rate limit'}, round ${round}/${RUNS}: ${label}`);
				samples[key].push(reference ? await runReference(sandbox, reference) : await runN8nScenario(n8n, sandbox, `bench${key[0].toUpperCase()}${key.slice(1)}`));
			}
		}
	} finally {
		await sandbox.stop();
	}
	return Object.fromEntries(
		Object.entries(samples).map(([key, list]) => [
			key,
			{
				ms: median(list.map((s) => s.ms)),
				ok: Math.min(...list.map((s) => s.ok)),
				failed: Math.max(...list.map((s) => s.failed)),
				peakRss: median(list.map((s) => s.peakRss)),
				requests: median(list.map((s) => s.requests)),
				duplicates: Math.max(...list.map((s) => s.duplicates)),
			},
		]),
	);
}

/**
 * Live heap of the node's code path against a loop that holds only the same outputs.
 * @param {number} port  the sandbox's
 * @returns {Promise<{ node: MemorySummary, baseline: MemorySummary }>}
 */
async function measureMemory(port) {
	const sandbox = await startSandboxProcess({ port, apiKey: API_KEY, latencyMs: 0 });
	try {
		log(`memory: ${MEMORY_COUNTS.join(' and ')} items, node and baseline, ${RUNS} rounds`);
		const script = path.join(__dirname, 'memory.js');
		const args = ['--expose-gc', script, sandbox.url, API_KEY, MEMORY_COUNTS.join(','), String(CONCURRENCY), String(RUNS)];
		/** @type {MemorySample[]} */
		const samples = JSON.parse(String(execFileSync(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 })));
		const pick = (/** @type {string} */ mode, /** @type {number} */ count) => samples.filter((s) => s.mode === mode && s.count === count);
		const summary = (/** @type {string} */ mode) => {
			const [small, large] = MEMORY_COUNTS.map((count) => pick(mode, count));
			const peak = (/** @type {MemorySample[]} */ list) => median(list.map((s) => s.peakGrowth));
			return {
				small: peak(small),
				large: peak(large),
				perItem: (peak(large) - peak(small)) / (MEMORY_COUNTS[1] - MEMORY_COUNTS[0]),
				failed: Math.max(...[...small, ...large].map((s) => s.failed)),
				timersLeft: Math.max(...[...small, ...large].map((s) => s.timersLeft)),
			};
		};
		return { node: summary('node'), baseline: summary('baseline') };
	} finally {
		await sandbox.stop();
	}
}

/** @param {{ node: MemorySummary, baseline: MemorySummary }} memory */
function memoryTable(memory) {
	const kb = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(0)} KB`;
	const lines = [
		`| Code path | Peak live heap growth, ${MEMORY_COUNTS[0]} items | ${MEMORY_COUNTS[1]} items | Per extra item | Ratio to baseline | Timers left after the run |`,
		'|---|---|---|---|---|---|',
	];
	for (const [key, label] of /** @type {const} */ ([['node', 'Video Platform node (router, transport, pacer)'], ['baseline', 'Baseline: a loop that only keeps the outputs']])) {
		const m = memory[key];
		lines.push(`| ${label} | ${kb(m.small)} | ${kb(m.large)} | ${m.perItem.toFixed(0)} B | ${(m.perItem / memory.baseline.perItem).toFixed(2)}x | ${m.timersLeft} |`);
	}
	return lines.join('\n');
}

/**
 * @param {string} dir
 * @returns {number} bytes
 */
function directorySize(dir) {
	return fs.readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
		const full = path.join(dir, entry.name);
		return sum + (entry.isDirectory() ? directorySize(full) : fs.statSync(full).size);
	}, 0);
}

/**
 * @param {N8n} folderWith  an n8n with the package
 * @param {N8n} folderWithout  one without
 */
async function measureLoadTime(folderWith, folderWithout) {
	/** @type {{ with: number[], without: number[] }} */
	const times = { with: [], without: [] };
	for (let round = 0; round < RUNS; round++) {
		for (const [key, instance] of /** @type {const} */ ([['with', folderWith], ['without', folderWithout]])) {
			await instance.start();
			times[key].push(Number(instance.startupMs));
			await instance.stop();
		}
	}
	return { with: median(times.with), without: median(times.without) };
}

const mb = (/** @type {number} */ bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(2)} s`;

/**
 * @param {string} title
 * @param {Phase} phase
 * @param {number} baseMs
 * @param {string} baseLabel
 */
function table(title, phase, baseMs, baseLabel) {
	const lines = [`### ${title}`, '', `| Scenario | Wall time (median) | Ratio to ${baseLabel} | Succeeded | Failed | Peak memory | Requests seen | Duplicates |`, '|---|---|---|---|---|---|---|---|'];
	for (const { key, label } of SCENARIOS) {
		const r = phase[key];
		lines.push(`| ${label} | ${seconds(r.ms)} | ${(r.ms / baseMs).toFixed(2)}x | ${r.ok} | ${r.failed} | ${mb(r.peakRss)} | ${r.requests} | ${r.duplicates} |`);
	}
	return lines.join('\n');
}

async function main() {
	const started = Date.now();
	const work = path.join(scratchRoot, 'bench');
	fs.rmSync(work, { recursive: true, force: true });
	const tarball = packPackage(path.join(work, 'pack'), { build: true });
	const port = await freePort();

	const n8n = await new N8n({ userFolder: path.join(work, 'with-package') }).prepare();
	n8n.installPackage(tarball);
	n8n.installPackage(packPackage(path.join(work, 'pack'), { from: path.join(__dirname, 'compliant-limit') }));
	await n8n.importCredentials([wf.credential('bench', `http://127.0.0.1:${port}`, API_KEY)]);
	for (const workflow of Object.values(benchWorkflows(`http://127.0.0.1:${port}`))) await n8n.importWorkflow(workflow);
	const bare = await new N8n({ version: n8n.version, userFolder: path.join(work, 'without-package') }).prepare();

	const plain = await measurePhase(n8n, port, 0);
	const limited = await measurePhase(n8n, port, RATE_LIMIT);
	const memory = await measureMemory(port);
	const load = await measureLoadTime(n8n, bare);
	await n8n.dispose();
	await bare.dispose();

	const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
	const distBytes = directorySize(path.join(repoRoot, 'dist'));
	const bestHttp = Math.min(plain.httpDefault.ms, plain.httpBatched.ms);
	const idealLimited = (ITEMS / RATE_LIMIT) * 1000;
	const targets = [
		[`No rate limit: node <= 1.15x the compliant limit (${(plain.node.ms / plain.compliant.ms).toFixed(2)}x; ${(plain.node.ms / plain.floor.ms).toFixed(2)}x the raw floor, reported only)`, plain.node.ms <= 1.15 * plain.compliant.ms],
		[`No rate limit: node >= 1.8x faster than the HTTP Request node's best (${(bestHttp / plain.node.ms).toFixed(2)}x: ${seconds(plain.node.ms)} vs ${seconds(bestHttp)})`, bestHttp >= 1.8 * plain.node.ms],
		[`Rate limit ${RATE_LIMIT}/s: ${ITEMS}/${ITEMS} succeed (${limited.node.ok})`, limited.node.ok === ITEMS],
		[`Rate limit ${RATE_LIMIT}/s: node <= 1.15x ${ITEMS}/R s (${(limited.node.ms / idealLimited).toFixed(2)}x of ${seconds(idealLimited)})`, limited.node.ms <= 1.15 * idealLimited],
		[`Rate limit ${RATE_LIMIT}/s: no duplicate request (${limited.node.duplicates})`, limited.node.duplicates === 0 && plain.node.duplicates === 0],
		[
			`Memory flat apart from the outputs: per extra item, the node's live heap grows <= 1.2x the baseline's (${(memory.node.perItem / memory.baseline.perItem).toFixed(2)}x)`,
			memory.node.perItem <= 1.2 * memory.baseline.perItem && memory.node.failed === 0,
		],
		[`No timers left behind by the node (${memory.node.timersLeft})`, memory.node.timersLeft === 0],
		['Zero runtime dependencies', Object.keys(pkg.dependencies ?? {}).length === 0],
		[`dist under 100 KB (${(distBytes / 1024).toFixed(1)} KB)`, distBytes < 100 * 1024],
	];

	const report = [
		'# Benchmark results',
		'',
		`${ITEMS} items, ${RUNS} runs per scenario (median), sandbox latency ${LATENCY_MS} ms, n8n ${n8n.version}, ${new Date().toISOString().slice(0, 10)}.`,
		'Wall time is n8n\'s own execution time of the measured node; the floor is a plain keep-alive client at the same concurrency. Peak memory is the peak RSS of the whole `n8n execute` process (the floor: of its own process).',
		'',
		table('Without rate limit', plain, plain.floor.ms, 'floor'),
		'',
		table(`With rate limit ${RATE_LIMIT} requests/s (429 + Retry-After); ideal ${seconds(idealLimited)}`, limited, idealLimited, `ideal ${ITEMS}/R`),
		'',
		'### Memory in the number of items',
		'',
		`In one process, the node's own code path (router, transport, pacer, from \`dist\`) and a baseline loop that only keeps the same outputs send the same real requests to the sandbox through n8n's HTTP client, at concurrency ${CONCURRENCY}. The live heap is read after a forced GC at 16 points of each run; the table gives the peak growth over the heap before the run (median of ${RUNS} rounds). The outputs themselves are in both; what the node adds on top is the difference.`,
		'',
		memoryTable(memory),
		'',
		'### Package',
		'',
		`| Packed tarball | dist | n8n start with package (median) | without | ratio |`,
		'|---|---|---|---|---|',
		`| ${(fs.statSync(tarball).size / 1024).toFixed(1)} KB | ${(distBytes / 1024).toFixed(1)} KB | ${seconds(load.with)} | ${seconds(load.without)} | ${(load.with / load.without).toFixed(2)}x |`,
		'',
		'### Targets',
		'',
		...targets.map(([label, ok]) => `- ${ok ? 'PASS' : 'FAIL'}: ${label}`),
		'',
	].join('\n');

	fs.mkdirSync(path.join(repoRoot, 'bench'), { recursive: true });
	fs.writeFileSync(path.join(repoRoot, 'bench', 'results.md'), report);
	process.stdout.write(`${report}\nWritten to bench/results.md in ${seconds(Date.now() - started)}.\n`);
	process.exit(targets.every(([, ok]) => ok) ? 0 : 1);
}

main().catch((error) => {
	process.stderr.write(`[bench] ${error.stack}\n`);
	process.exit(1);
});

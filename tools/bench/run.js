#!/usr/bin/env node
'use strict';
// npm run bench: the Video Platform node against the HTTP Request node and a raw client, side
// by side in one run, in a real n8n 2.x, against the sandbox in its own process. Scenarios run
// interleaved (A B … then … B A), in blocks of BLOCK rounds, until the medians of the blocks agree
// within MAX_SPREAD (or MAX_RUNS); every ratio is printed with that spread. Writes
// bench/results.md and checks the targets; memory is measured by `npm run bench:memory` only.
// --focus: only the node against the compliant limits and against itself with Create Once Per
// Key on, no start-up measure, written to bench/node-results.md (about ten minutes of n8n;
// BENCH_MAX_RUNS=6 caps each phase at 6 rounds).
// --profile: each side of the warm chain alone in a warm process under --cpu-prof, where its CPU
// time went, where the node spent more than the compliant limit, and what Create Once Per Key adds.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const { N8n } = require('../n8n/n8n');
const { freePort } = require('../common/ports');
const { packPackage } = require('../common/package');
const { repoRoot, scratchRoot } = require('../common/paths');
const { startSandboxProcess } = require('../sandbox/process');
const wf = require('../n8n/workflows');
const { summarizeProfile, compareProfiles, withinWindows } = require('./profile');
const { RUNS_PER_SIDE, WARM_ITEMS, SIDES, ONCE_PER_KEY, MEASURED_NAME, pairsWorkflow, sideWorkflow, pairsRound } = require('./warmPairs');
const { readUsage, cpuWithin } = require('./usage');
const { median, perRound, pairedRatio, blockSpread, against } = require('./stats');
const { resultsPath, measuredOn } = require('./resultsFile');

const ITEMS = Number(process.env.BENCH_ITEMS || 1000);
/** Rounds per block: each block's median is one repeated median. */
const BLOCK = Number(process.env.BENCH_BLOCK || 3);
/** Blocks are added until their medians' ratios agree within this, up to MAX_RUNS rounds. */
const MAX_SPREAD = 0.03;
const MAX_RUNS = Number(process.env.BENCH_MAX_RUNS || 4 * BLOCK);
const RUNS = 3; // start-up rounds
const FOCUS = process.argv.includes('--focus');
const CONCURRENCY = 10;
const LATENCY_MS = 20;
const RATE_LIMIT = 50;
const API_KEY = 'bench-key';
// tools/bench/compliant-limit: the least any node that follows n8n's rules can cost on this work.
const COMPLIANT_LIMIT_NODE = 'n8n-nodes-bench-compliant-limit.compliantLimit';

/**
 * @typedef {{ ms: number, cpuMs: number, ok: number, failed: number, peakRss: number, requests: number, duplicates: number }} Sample  one run of one scenario (cpuMs: CPU time of its process while the measured work ran)
 * @typedef {Record<string, Sample>} Phase  each scenario's medians (ok: the least, failed and duplicates: the most)
 * @typedef {import('../sandbox/process').SandboxProcess} SandboxProcess
 */

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
	const target = (/** @type {import('./warmPairs').Side} */ key, /** @type {string} */ name) =>
		key === 'node' || key === 'once'
			? wf.createRoom(name, 'bench', { onError: 'continueRegularOutput' }, { maxConcurrentRequests: CONCURRENCY, ...(key === 'once' ? { createOncePerKey: ONCE_PER_KEY } : {}) })
			: wf.node(
					name,
					COMPLIANT_LIMIT_NODE,
					{ name: '={{ $json.name }}', type: '={{ $json.type ?? "conference" }}', answer: key === 'bounded' ? 'boundedStream' : 'json' },
					{ credentials: wf.credentialRef('bench'), onError: 'continueRegularOutput' },
				);
	const leading = [wf.manualTrigger(), ...wf.itemsFrom('Classes', rows)];
	const warmLeading = [wf.manualTrigger(), ...wf.itemsFrom('Classes', rows.slice(0, WARM_ITEMS))];
	return {
		node: wf.workflow('benchNode', [...leading, target('node', 'Target')]),
		compliant: wf.workflow('benchCompliant', [...leading, target('compliant', 'Target')]),
		pairs: pairsWorkflow(wf, warmLeading, target),
		nodeAlone: sideWorkflow(wf, 'benchNodeAlone', warmLeading, target, 'node'),
		compliantAlone: sideWorkflow(wf, 'benchCompliantAlone', warmLeading, target, 'compliant'),
		boundedAlone: sideWorkflow(wf, 'benchBoundedAlone', warmLeading, target, 'bounded'),
		onceAlone: sideWorkflow(wf, 'benchOnceAlone', warmLeading, target, 'once'),
		httpDefault: wf.workflow('benchHttpDefault', [wf.manualTrigger(), ...wf.itemsFrom('Classes', rows), http('Target', {})]),
		httpBatched: wf.workflow('benchHttpBatched', [
			wf.manualTrigger(),
			...wf.itemsFrom('Classes', rows),
			http('Target', { batching: { batch: { batchSize: CONCURRENCY, batchInterval: 0 } } }),
		]),
	};
}

/** @type {{ key: string, label: string, reference?: string, warmOnly?: boolean }[]} */
const ALL_SCENARIOS = [
	{ key: 'node', label: `Video Platform node (concurrency ${CONCURRENCY})` },
	{ key: 'compliant', label: `Compliant limit: a minimal node, same parameters and request (concurrency ${CONCURRENCY})` },
	{ key: 'bounded', label: `Compliant limit with the node's bounded answer: the same, its answer read as a stream up to 10 MiB (concurrency ${CONCURRENCY})`, warmOnly: true },
	{ key: 'once', label: `Video Platform node with Create Once Per Key on, every item a new key (concurrency ${CONCURRENCY})`, warmOnly: true },
	{ key: 'httpDefault', label: 'HTTP Request node, defaults' },
	{ key: 'httpBatched', label: `HTTP Request node, batch of ${CONCURRENCY}` },
	{ key: 'client', label: `n8n's HTTP client alone, outside a workflow (concurrency ${CONCURRENCY}): reference`, reference: 'n8n-client' },
	{ key: 'floor', label: `Raw keep-alive client (concurrency ${CONCURRENCY}): floor`, reference: 'raw' },
];
/** Each in its own process (the rate-limited phase, and without --focus the cold one); the bounded limit is measured warm only. */
const SCENARIOS = ALL_SCENARIOS.filter(({ key, warmOnly }) => !warmOnly && (!FOCUS || key === 'node' || key === 'compliant'));

/** @param {import('../sandbox/server').SandboxState} state */
function serverSummary(state) {
	const duplicates = Object.values(state.counts.createdByBody).reduce((sum, n) => sum + (n > 1 ? n - 1 : 0), 0);
	return { requests: state.counts.total, duplicates };
}

/**
 * `n8n execute` of a workflow with process-usage.js loaded.
 * @param {N8n} n8n
 * @param {string} workflowId
 * @returns {Promise<{ run: any, usage: import('./usage').Usage }>}
 */
async function executeMeasured(n8n, workflowId, nodeOptions = '') {
	const usageFile = path.join(scratchRoot, `bench-usage-${process.pid}`);
	const env = {
		// BENCH_NODE_OPTIONS: V8 settings for n8n's process, to test a hypothesis (e.g. --max-semi-space-size=64).
		NODE_OPTIONS: `--require ${path.join(__dirname, 'process-usage.js')} ${nodeOptions} ${process.env.BENCH_NODE_OPTIONS ?? ''}`,
		BENCH_USAGE_FILE: usageFile,
	};
	const result = await n8n.execute(workflowId, { env });
	if (!result.run) throw new Error(`${workflowId} produced no run data:\n${result.stdout.slice(-1500)}${result.stderr.slice(-1500)}`);
	return { run: result.run, usage: readUsage(usageFile) };
}

/**
 * @param {N8n} n8n
 * @param {SandboxProcess} sandbox
 * @param {string} workflowId
 * @returns {Promise<Sample>}
 */
async function runN8nScenario(n8n, sandbox, workflowId, nodeOptions = '') {
	await sandbox.reset();
	const { run, usage } = await executeMeasured(n8n, workflowId, nodeOptions);
	const output = wf.outputOf(run, 'Target');
	const failed = output.filter((item) => item.json.error !== undefined).length;
	return {
		ms: wf.executionTimeOf(run, 'Target'),
		cpuMs: cpuWithin(usage.cpu, wf.runWindowOf(run, 'Target')),
		ok: output.length - failed,
		failed: failed + (ITEMS - output.length),
		peakRss: usage.peakRss,
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
 * (max − min) / median of the blocks' medians of the per-round ratios subject/base: how far
 * repeated medians of the same measure disagree.
 * @param {number[]} subject  one value per round
 * @param {number[]} base  the same rounds' values of the base (or a constant)
 */
const pairedSpread = (subject, base) => blockSpread(perRound(subject, base), BLOCK);

/**
 * Rounds until the blocks' medians agree within MAX_SPREAD (or MAX_RUNS rounds).
 * @param {number} port  the sandbox's
 * @param {number} rateLimit
 * @param {(samples: Record<string, Sample[]>) => number} spreadOf  the spread that decides when enough rounds ran
 * @param {string[]} keys  the scenarios a round measures
 * @param {(sandbox: SandboxProcess, round: number) => Promise<Record<string, Sample>>} runRound
 * @returns {Promise<Record<string, Sample[]>>} each scenario's samples, one per round
 */
async function measurePhase(port, rateLimit, spreadOf, keys, runRound) {
	const sandbox = await startSandboxProcess({ port, apiKey: API_KEY, latencyMs: LATENCY_MS, rateLimit });
	/** @type {Record<string, Sample[]>} */
	const samples = Object.fromEntries(keys.map((key) => [key, []]));
	try {
		for (let round = 1; round <= MAX_RUNS; round++) {
			const measured = await runRound(sandbox, round);
			for (const key of keys) {
				samples[key].push(measured[key]);
				log(`${rateLimit ? `rate limit ${rateLimit}/s` : 'no rate limit'}, round ${round}: ${key}: ${seconds(measured[key].ms)} (CPU ${seconds(measured[key].cpuMs)}), ${measured[key].ok} ok`);
			}
			if (round % BLOCK === 0 && round >= 2 * BLOCK) {
				const spread = spreadOf(samples);
				log(`after ${round} rounds, the blocks' medians spread ${(spread * 100).toFixed(1)} %`);
				if (spread < MAX_SPREAD) break;
			}
		}
	} finally {
		await sandbox.stop();
	}
	return samples;
}

/**
 * A round of scenarios each in its own process, interleaved, each round in the other order, so
 * that a slow moment of the machine and going first hit every scenario alike.
 * @param {N8n} n8n
 * @param {typeof SCENARIOS} scenarios
 * @returns {(sandbox: SandboxProcess, round: number) => Promise<Record<string, Sample>>}
 */
function interleaved(n8n, scenarios) {
	return async (sandbox, round) => {
		/** @type {Record<string, Sample>} */
		const measured = {};
		for (const { key, reference } of round % 2 ? scenarios : [...scenarios].reverse()) {
			measured[key] = reference ? await runReference(sandbox, reference) : await runN8nScenario(n8n, sandbox, `bench${key[0].toUpperCase()}${key.slice(1)}`);
		}
		return measured;
	};
}

/**
 * A round of the node and the compliant limit in one warm process (warmPairs.js).
 * @param {N8n} n8n
 * @returns {(sandbox: SandboxProcess) => Promise<Record<string, Sample>>}
 */
function warmPairs(n8n) {
	return async (sandbox) => {
		await sandbox.reset();
		const { run, usage } = await executeMeasured(n8n, 'benchPairs');
		return pairsRound(wf, run, usage, WARM_ITEMS, (await sandbox.state()).counts);
	};
}

/**
 * Each scenario's medians (ok: the least, failed and duplicates: the most).
 * @param {Record<string, Sample[]>} samples
 * @returns {Phase}
 */
function summarize(samples) {
	return Object.fromEntries(
		Object.entries(samples).map(([key, list]) => [
			key,
			{
				ms: median(list.map((s) => s.ms)),
				cpuMs: median(list.map((s) => s.cpuMs)),
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
const msOf = (/** @type {Sample[]} */ list) => list.map((s) => s.ms);
const cpuOf = (/** @type {Sample[]} */ list) => list.map((s) => s.cpuMs);

/**
 * A ratio of medians with the spread of the blocks' medians beside it.
 * @param {number[]} subject  per round
 * @param {number[]} base  per round
 */
function ratioText(subject, base) {
	const spread = pairedSpread(subject, base);
	return `${pairedRatio(subject, base).toFixed(2)}x (spread ${Number.isFinite(spread) ? `${(spread * 100).toFixed(1)} %` : 'n/a: one block'})`;
}

/**
 * @param {string} title
 * @param {Record<string, Sample[]>} samples
 * @param {number[]} base  per round: the wall-time ratios' denominator
 * @param {string} baseLabel
 * @param {number[]} [cpuBase]  per round: the CPU-time ratios' denominator; without it no CPU columns
 */
function table(title, samples, base, baseLabel, cpuBase) {
	const phase = summarize(samples);
	const rounds = Object.values(samples)[0].length;
	const cpuHeads = cpuBase ? ' CPU time (median) | CPU ratio (spread) |' : '';
	const lines = [
		`### ${title}`,
		'',
		`${rounds} rounds.`,
		'',
		`| Scenario | Wall time (median) | Ratio to ${baseLabel}: median of the rounds' ratios (spread of the medians of blocks of ${BLOCK} rounds) |${cpuHeads} Succeeded | Failed | Peak memory | Requests seen | Duplicates |`,
		`|---|---|---|${cpuBase ? '---|---|' : ''}---|---|---|---|---|`,
	];
	for (const { key, label } of ALL_SCENARIOS) {
		const r = phase[key];
		if (!r) continue;
		const cpu = cpuBase ? ` ${seconds(r.cpuMs)} | ${ratioText(cpuOf(samples[key]), cpuBase)} |` : '';
		lines.push(`| ${label} | ${seconds(r.ms)} | ${ratioText(msOf(samples[key]), base)} |${cpu} ${r.ok} | ${r.failed} | ${mb(r.peakRss)} | ${r.requests} | ${r.duplicates} |`);
	}
	return lines.join('\n');
}

/**
 * A target's line: PASS, FAIL, or "within noise" where the spread is wider than the gap to the bound.
 * @param {string} label
 * @param {number} value
 * @param {number} bound  value ≤ bound passes
 * @param {number} spread
 */
function boundTarget(label, value, bound, spread) {
	const outcome = against({ value, spread }, bound, value <= bound);
	const verdict = { undecided: 'WITHIN NOISE (spread wider than the gap)', pass: 'PASS', miss: 'FAIL' }[outcome];
	return `- ${verdict}: ${label} (${value.toFixed(2)}x, spread ${(spread * 100).toFixed(1)} %)`;
}

/**
 * --profile: one run each of the node and the compliant limit with `n8n execute` under
 * --cpu-prof; prints where each process's CPU time went, to compare what the node does per item.
 * @param {N8n} n8n
 * @param {number} port
 * @param {string} work
 */
async function profileScenarios(n8n, port, work) {
	const sandbox = await startSandboxProcess({ port, apiKey: API_KEY, latencyMs: LATENCY_MS, rateLimit: 0 });
	/** @type {Record<string, any>} */
	const profiles = {};
	try {
		for (const key of SIDES) {
			const dir = path.join(work, `cpu-${key}`);
			await sandbox.reset();
			const { run, usage } = await executeMeasured(n8n, `bench${key[0].toUpperCase()}${key.slice(1)}Alone`, `--cpu-prof --cpu-prof-dir=${dir}`);
			const largest = fs.readdirSync(dir).map((f) => path.join(dir, f)).sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
			// Only the measured runs: not n8n's start, the item source or the warm-up run.
			const [epochMs, monotonicUs] = usage.clock;
			const toProfileClock = (/** @type {number} */ ms) => monotonicUs + (ms - epochMs) * 1000;
			const windows = Object.keys(run.data.resultData.runData)
				.filter((name) => MEASURED_NAME.test(name))
				.map((name) => /** @type {[number, number]} */ (wf.runWindowOf(run, name).map(toProfileClock)));
			profiles[key] = withinWindows(JSON.parse(fs.readFileSync(largest, 'utf8')), windows);
			const focus = ['execute', 'executeNode', 'runNode', 'getNodeParameter', 'httpRequestWithAuthentication', 'request', 'authenticate', 'runPool'];
			process.stdout.write(`\n## ${key}: ${RUNS_PER_SIDE} runs of ${WARM_ITEMS} items after a warm-up (samples within those runs only)\n${summarizeProfile(profiles[key], focus, 40)}\nProfile: ${largest}\n`);
		}
		process.stdout.write(`\n## node − compliant limit\n${compareProfiles(profiles.node, profiles.compliant, 40)}\n`);
		process.stdout.write(`\n## node − compliant limit with the bounded answer\n${compareProfiles(profiles.node, profiles.bounded, 40)}\n`);
		process.stdout.write(`\n## bounded answer − compliant limit\n${compareProfiles(profiles.bounded, profiles.compliant, 40)}\n`);
		process.stdout.write(`\n## Create Once Per Key on − off\n${compareProfiles(profiles.once, profiles.node, 40)}\n`);
	} finally {
		await sandbox.stop();
	}
}

/** The shortest pause before the node asks n8n again for its keys, as docs/trigger.md gives it. */
const MIN_KEYS_PAUSE_MS = 100;

async function main() {
	const started = Date.now();
	const resultsFile = resultsPath(FOCUS ? 'node-results.md' : 'results.md');
	const work = path.join(scratchRoot, FOCUS ? 'bench-focus' : 'bench');
	fs.rmSync(work, { recursive: true, force: true });
	const tarball = packPackage(path.join(work, 'pack'), { build: !process.argv.includes('--no-build') });
	const port = await freePort();

	const n8n = await new N8n({ userFolder: path.join(work, 'with-package') }).prepare();
	n8n.installPackage(tarball);
	n8n.installPackage(packPackage(path.join(work, 'pack'), { from: path.join(__dirname, 'compliant-limit') }));
	await n8n.importCredentials([wf.credential('bench', `http://127.0.0.1:${port}`, API_KEY)]);
	for (const workflow of Object.values(benchWorkflows(`http://127.0.0.1:${port}`))) await n8n.importWorkflow(workflow);
	if (process.argv.includes('--profile')) {
		await profileScenarios(n8n, port, work);
		await n8n.dispose();
		return;
	}

	const idealLimited = (ITEMS / RATE_LIMIT) * 1000;
	const keysOf = (/** @type {typeof SCENARIOS} */ list) => list.map(({ key }) => key);
	// Without a rate limit the node is judged in one warm process (warmPairs.js); --focus measures only that.
	const warmSpread = (/** @type {Record<string, Sample[]>} */ samples) =>
		Math.max(pairedSpread(msOf(samples.node), msOf(samples.compliant)), pairedSpread(msOf(samples.node), msOf(samples.bounded)));
	const warm = await measurePhase(port, 0, warmSpread, SIDES, warmPairs(n8n));
	const cold = FOCUS ? undefined : await measurePhase(port, 0, (samples) => pairedSpread(msOf(samples.node), msOf(samples.compliant)), keysOf(SCENARIOS), interleaved(n8n, SCENARIOS));
	const ideal = (/** @type {Record<string, Sample[]>} */ samples) => samples.node.map(() => idealLimited);
	// --focus: under the rate limit only the node, whose time against 1000/R is the target.
	const limitedScenarios = FOCUS ? SCENARIOS.filter(({ key }) => key === 'node') : SCENARIOS;
	const limited = await measurePhase(port, RATE_LIMIT, (samples) => pairedSpread(msOf(samples.node), ideal(samples)), keysOf(limitedScenarios), interleaved(n8n, limitedScenarios));
	let load;
	if (!FOCUS) {
		const bare = await new N8n({ version: n8n.version, userFolder: path.join(work, 'without-package') }).prepare();
		load = await measureLoadTime(n8n, bare);
		await bare.dispose();
	}
	await n8n.dispose();

	const summary = { warm: summarize(warm), limited: summarize(limited) };
	const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
	const distBytes = directorySize(path.join(repoRoot, 'dist'));
	const targets = [
		boundTarget('No rate limit, warm: node <= 1.05x the compliant limit in wall time', pairedRatio(msOf(warm.node), msOf(warm.compliant)), 1.05, pairedSpread(msOf(warm.node), msOf(warm.compliant))),
		boundTarget('No rate limit, warm: node <= 1.05x the compliant limit in CPU time', pairedRatio(cpuOf(warm.node), cpuOf(warm.compliant)), 1.05, pairedSpread(cpuOf(warm.node), cpuOf(warm.compliant))),
		`- ${summary.limited.node.ok === ITEMS ? 'PASS' : 'FAIL'}: Rate limit ${RATE_LIMIT}/s: ${ITEMS}/${ITEMS} succeed (${summary.limited.node.ok})`,
		boundTarget(`Rate limit ${RATE_LIMIT}/s: node <= 1.1x ${ITEMS}/R (${seconds(idealLimited)})`, pairedRatio(msOf(limited.node), ideal(limited)), 1.1, pairedSpread(msOf(limited.node), ideal(limited))),
		`- ${summary.limited.node.duplicates === 0 && summary.warm.node.duplicates === 0 ? 'PASS' : 'FAIL'}: Rate limit ${RATE_LIMIT}/s: no duplicate request (${summary.limited.node.duplicates}; without the rate limit ${summary.warm.node.duplicates})`,
	];
	if (!FOCUS) {
		const plain = summarize(/** @type {Record<string, Sample[]>} */ (cold));
		const bestHttp = Math.min(plain.httpDefault.ms, plain.httpBatched.ms);
		const nodeMs = plain.node.ms;
		targets.push(
			`- ${bestHttp >= 1.8 * nodeMs ? 'PASS' : 'FAIL'}: No rate limit: node >= 1.8x faster than the HTTP Request node's best (${(bestHttp / nodeMs).toFixed(2)}x: ${seconds(nodeMs)} vs ${seconds(bestHttp)})`,
			`- ${Object.keys(pkg.dependencies ?? {}).length === 0 ? 'PASS' : 'FAIL'}: Zero runtime dependencies`,
			`- ${distBytes < 100 * 1024 ? 'PASS' : 'FAIL'}: dist under 100 KB (${(distBytes / 1024).toFixed(1)} KB)`,
		);
	}

	const report = [
		FOCUS ? '# Node time against the compliant limit' : '# The last full run (`npm run bench`)',
		'',
		`${ITEMS} items, sandbox latency ${LATENCY_MS} ms, n8n ${n8n.version}, ${measuredOn()}. Rounds are added until the medians of blocks of ${BLOCK} rounds agree within ${MAX_SPREAD * 100} % (at most ${MAX_RUNS} rounds; in the warm phase both the node's ratio to the compliant limit and to the limit with the bounded answer must); the spread is (max − min) / median of the blocks' medians of the per-round ratios. Scenarios each in their own process run interleaved (A B …, the order reversed every other round).`,
		"Wall time is n8n's own execution time of the measured node (median of all rounds); the floor is a plain keep-alive client at the same concurrency. Peak memory is the peak RSS of the whole `n8n execute` process (the floor: of its own process). CPU time is the CPU (all threads) the `n8n execute` process used while the measured node ran, read from samples every 5 ms (the references: their whole loop).",
		'',
		table(`Without rate limit, in one warm process: ${RUNS_PER_SIDE} runs of ${WARM_ITEMS} items of each side per round, in a cycle where each side follows each side equally often, after one each to warm up (means per run of ${WARM_ITEMS} items)`, warm, msOf(warm.compliant), 'the compliant limit', cpuOf(warm.compliant)),
		'',
		'Requests seen: all nodes of the round (one of each side to warm up and the measured ones, one request per item each); duplicates: requests beyond that.',
		'',
		`What the bounded answer costs in n8n (the compliant limit with it against without it): ${ratioText(msOf(warm.bounded), msOf(warm.compliant))} in wall time, ${ratioText(cpuOf(warm.bounded), cpuOf(warm.compliant))} in CPU time. The node against the limit with the bounded answer (information, not a target): ${ratioText(msOf(warm.node), msOf(warm.bounded))} in wall time, ${ratioText(cpuOf(warm.node), cpuOf(warm.bounded))} in CPU time.`,
		'',
		`Create Once Per Key on / off (the node with the option, every item a new key so that every run creates its rooms, against the node without it; information, not a target): ${ratioText(msOf(warm.once), msOf(warm.node))} in wall time, ${ratioText(cpuOf(warm.once), cpuOf(warm.node))} in CPU time. Its wall time includes the pause before it asks n8n again whether its keys were kept (three times its longest check, at least ${MIN_KEYS_PAUSE_MS} ms); the pause itself uses no CPU.`,
		'',
		...(cold ? [table('Without rate limit, each in its own process (cold start)', cold, msOf(cold.compliant), 'the compliant limit', cpuOf(cold.compliant)), ''] : []),
		table(`With rate limit ${RATE_LIMIT} requests/s (429 + Retry-After); ideal ${seconds(idealLimited)}`, limited, ideal(limited), `ideal ${ITEMS}/R`),
		'',
	];
	if (!FOCUS && load) {
		report.push(
			'### Memory',
			'',
			'Measured by `npm run bench:memory` alone, with its targets: [memory-results.md](memory-results.md).',
			'',
			'### Package',
			'',
			`| Packed tarball | dist | n8n start with package (median) | without | ratio |`,
			'|---|---|---|---|---|',
			`| ${(fs.statSync(tarball).size / 1024).toFixed(1)} KB | ${(distBytes / 1024).toFixed(1)} KB | ${seconds(load.with)} | ${seconds(load.without)} | ${(load.with / load.without).toFixed(2)}x |`,
			'',
		);
	}
	report.push('### Targets', '', ...targets, '');
	const text = report.join('\n');
	fs.writeFileSync(resultsFile, text);
	process.stdout.write(`${text}\nWritten to ${resultsFile} in ${seconds(Date.now() - started)}.\n`);
	process.exit(targets.every((line) => line.startsWith('- PASS')) ? 0 : 1);
}

main().catch((error) => {
	process.stderr.write(`[bench] ${error.stack}\n`);
	process.exit(1);
});

#!/usr/bin/env node
'use strict';
// npm run bench:queue: the default n8n 2.x in queue mode (PostgreSQL, Redis, main, two workers at
// concurrency 2, a webhook processor), against the sandbox in its own process with a rate limit
// of R requests per second, side by side in one run: four workflows of 250 rooms started at once,
// and the same 1,000 rooms in one execution. Reports each one's time against the ideal 1000/R
// (from the first execution's start to the last one's end, as n8n recorded them), checks "all
// succeed, no duplicates, at most 1.3x the ideal", and writes bench/queue-results.md.
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { freePort } = require('../common/ports');
const { waitForExecutions } = require('../n8n/api');
const { roomBatchWorkflow, startQueueStack } = require('../queue/stack');
const { defaultVersion } = require('../install/versions');
const { packPackage } = require('../common/package');
const { scratchRoot } = require('../common/paths');
const { startSandboxProcess } = require('../sandbox/process');
const { outputOf } = require('../n8n/workflows');
const { median } = require('./stats');
const { resultsPath, measuredCommit } = require('./resultsFile');

const ITEMS = 1000;
const BATCHES = 4;
const RATE_LIMIT = Number(process.env.BENCH_RATE_LIMIT || 50);
const LATENCY_MS = 20;
const RUNS = Number(process.env.BENCH_RUNS || 1);
const TARGET = 1.3;
const API_KEY = 'bench-queue-key';

/**
 * @typedef {{ ms: number, ok: number, failedExecutions: number, rooms: number, requests: number, duplicates: number, placement: string[] }} Sample
 * @typedef {{ key: string, label: string, workflows: import('../n8n/workflows').Workflow[] }} Scenario
 */

const log = (/** @type {string} */ message) => process.stderr.write(`[bench:queue] ${message}\n`);
const rows = (/** @type {string} */ prefix, /** @type {number} */ count) => Array.from({ length: count }, (_, i) => ({ name: `${prefix} class ${i}` }));

/** @type {Scenario[]} */
const SCENARIOS = [
	{
		key: 'four',
		label: `${BATCHES} workflows of ${ITEMS / BATCHES} rooms, started at once`,
		workflows: Array.from({ length: BATCHES }, (_, b) => roomBatchWorkflow(`benchQueue${b}`, `bench-queue-${b}`, rows(`Batch ${b}`, ITEMS / BATCHES), 'benchQueue')),
	},
	{
		key: 'one',
		label: `${ITEMS} rooms in one execution`,
		workflows: [roomBatchWorkflow('benchQueueOne', 'bench-queue-one', rows('Single', ITEMS), 'benchQueue')],
	},
];
const pathOf = (/** @type {import('../n8n/workflows').Workflow} */ workflow) => workflow.nodes.find((n) => n.name === 'Webhook')?.parameters.path;

/**
 * @param {import('../n8n/n8n').N8n} stack
 * @param {import('../sandbox/process').SandboxProcess} sandbox
 * @param {Scenario} scenario
 * @param {Record<string, number>} done  executions so far, by workflow
 * @returns {Promise<Sample>}
 */
async function runScenario(stack, sandbox, scenario, done) {
	await sandbox.reset();
	const urls = scenario.workflows.map((workflow) => `${stack.webhookUrl}/webhook/${pathOf(workflow)}`);
	const answers = await Promise.all(urls.map((url) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })));
	if (answers.some((answer) => answer.status !== 200)) throw new Error(`A webhook answered ${answers.map((a) => a.status).join(', ')}`);
	const runs = [];
	for (const workflow of scenario.workflows) {
		const expected = (done[workflow.id] ?? 0) + 1;
		const all = await waitForExecutions(stack.baseUrl, stack.api.key, workflow.id, { atLeast: expected, timeoutMs: 15 * 60_000 });
		done[workflow.id] = all.length;
		// The newest first: the one this round started.
		runs.push(all.sort((a, b) => Number(b.id) - Number(a.id))[0]);
	}
	const start = Math.min(...runs.map((r) => Date.parse(r.startedAt)));
	const end = Math.max(...runs.map((r) => Date.parse(r.stoppedAt)));
	const byWorker = stack.executionsByWorker();
	const state = await sandbox.state();
	const items = runs.flatMap((r) => (r.data ? outputOf(r, 'Create rooms') : []));
	return {
		ms: end - start,
		ok: items.filter((item) => item.json.error === undefined).length,
		failedExecutions: runs.filter((r) => r.status !== 'success').length,
		rooms: state.rooms.length,
		requests: state.counts.total,
		duplicates: Object.values(state.counts.createdByBody).reduce((sum, n) => sum + (n > 1 ? n - 1 : 0), 0),
		placement: runs.map((r) => `${r.workflowId}: execution ${r.id} on ${Object.keys(byWorker).find((w) => byWorker[w].includes(r.id)) ?? '?'} (${((Date.parse(r.stoppedAt) - Date.parse(r.startedAt)) / 1000).toFixed(1)} s)`),
	};
}

async function main() {
	const started = Date.now();
	const work = path.join(scratchRoot, 'bench-queue');
	// --no-build packs dist as it is (for a tree whose build is under way elsewhere).
	const { values } = parseArgs({ args: process.argv.slice(2), options: { 'no-build': { type: 'boolean', default: false } } });
	const tarball = packPackage(path.join(work, 'pack'), { build: !values['no-build'] });
	const sandbox = await startSandboxProcess({ port: await freePort(), apiKey: API_KEY, latencyMs: LATENCY_MS, rateLimit: RATE_LIMIT });
	const workflows = SCENARIOS.flatMap((s) => s.workflows);
	/** @type {import('../n8n/n8n').N8n | undefined} */
	let stack;
	/** @type {Record<string, Sample[]>} */
	const samples = Object.fromEntries(SCENARIOS.map(({ key }) => [key, []]));
	try {
		stack = await startQueueStack({
			tarball,
			dir: path.join(work, 'stack'),
			credentials: [{ id: 'benchQueue', name: 'benchQueue', type: 'videoPlatformApi', data: { baseUrl: sandbox.url, apiKey: API_KEY } }],
			workflows,
			activate: workflows.map(({ id }) => id),
			log,
		});
		for (const workflow of workflows) await stack.waitForWebhook(`${stack.webhookUrl}/webhook/${pathOf(workflow)}`);
		/** @type {Record<string, number>} */
		const done = {};
		for (let round = 1; round <= RUNS; round++) {
			for (const scenario of SCENARIOS) {
				log(`round ${round}/${RUNS}: ${scenario.label}`);
				const sample = await runScenario(stack, sandbox, scenario, done);
				log(`  ${(sample.ms / 1000).toFixed(1)} s; ${sample.placement.join('; ')}`);
				samples[scenario.key].push(sample);
			}
		}
	} finally {
		await stack?.stop();
		await sandbox.stop();
	}

	const idealMs = (ITEMS / RATE_LIMIT) * 1000;
	const summary = Object.fromEntries(
		SCENARIOS.map(({ key }) => {
			const list = samples[key];
			return [key, {
				ms: median(list.map((s) => s.ms)),
				ok: Math.min(...list.map((s) => s.ok)),
				rooms: Math.min(...list.map((s) => s.rooms)),
				failedExecutions: Math.max(...list.map((s) => s.failedExecutions)),
				requests: median(list.map((s) => s.requests)),
				duplicates: Math.max(...list.map((s) => s.duplicates)),
				placement: list.at(-1)?.placement ?? [],
			}];
		}),
	);
	const verdict = (/** @type {typeof summary[string]} */ r) => r.ok === ITEMS && r.rooms === ITEMS && r.failedExecutions === 0 && r.duplicates === 0 && r.ms <= TARGET * idealMs;
	const lines = [
		'# Queue mode benchmark',
		'',
		`n8n ${defaultVersion()} in queue mode (PostgreSQL, Redis, main, 2 workers at concurrency 2, a webhook processor), ${ITEMS} rooms, sandbox rate limit R = ${RATE_LIMIT} requests/s (429 + Retry-After), latency ${LATENCY_MS} ms, ${RUNS} run(s) per case (median), the node's default options, ${new Date().toISOString().slice(0, 10)}, ${require('node:os').cpus().length} cores, commit ${measuredCommit()}.`,
		`Time is from the first execution's start to the last one's end, as n8n recorded them. Ideal: ${ITEMS}/R = ${(idealMs / 1000).toFixed(1)} s.`,
		'',
		`| Case | Time | Ratio to ideal | Rooms created | Items succeeded | Failed executions | Requests seen | Duplicates | Executions (last run) |`,
		'|---|---|---|---|---|---|---|---|---|',
		...SCENARIOS.map(({ key, label }) => {
			const r = summary[key];
			return `| ${label} | ${(r.ms / 1000).toFixed(1)} s | ${(r.ms / idealMs).toFixed(2)}x | ${r.rooms} | ${r.ok} | ${r.failedExecutions} | ${r.requests} | ${r.duplicates} | ${r.placement.join('; ')} |`;
		}),
		'',
		'### Target: all succeed, no duplicates, at most 1.3 x 1000/R',
		'',
		...SCENARIOS.map(({ key, label }) => `- ${verdict(summary[key]) ? 'PASS' : 'FAIL'}: ${label} (${(summary[key].ms / idealMs).toFixed(2)}x, ${summary[key].ok}/${ITEMS} succeeded, ${summary[key].duplicates} duplicates)`),
		'',
	].join('\n');
	fs.writeFileSync(resultsPath('queue-results.md'), lines);
	process.stdout.write(`${lines}\nWritten to ${resultsPath('queue-results.md')} in ${((Date.now() - started) / 1000).toFixed(0)} s.\n`);
	process.exit(SCENARIOS.every(({ key }) => verdict(summary[key])) ? 0 : 1);
}

main().catch((error) => {
	process.stderr.write(`[bench:queue] ${error.stack}\n`);
	process.exit(1);
});

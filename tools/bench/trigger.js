#!/usr/bin/env node
'use strict';
// npm run bench:trigger: the Video Platform Trigger against a minimal community trigger
// (tools/bench/minimal-trigger, installed as the package is) and, as a reference, n8n's own Webhook
// node in one started n8n, same workflow shape (trigger → No Op, answering on receipt), same
// payloads, interleaved (A B A B …) at concurrency 1, 10 and 50; and Drop Redelivered against n8n's
// Remove Duplicates, each after the same trigger, with the same key and history size. Reports deliveries/s and p50/p99 to the 2xx, the
// ratios with the spread between rounds beside each, counts executions (each delivery exactly
// one), and writes bench/trigger-results.md (a variant's file is named after what differs:
// triggerResultsName.js). --queue does the same in the project's queue stack (PostgreSQL, Redis,
// main, workers, one webhook processor that takes the deliveries). --profile instead runs the plain pair with n8n under
// --cpu-prof and prints where n8n's CPU time went by function (the webhook processor's with --queue).
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { N8n } = require('../n8n/n8n');
const { listExecutions } = require('../n8n/api');
const { startQueueStack } = require('../queue/stack');
const { packPackage } = require('../common/package');
const { median, quantile, ratio } = require('./stats');
const { rowVerdict, isIsolateExempt, executionTimeLine, pct, EXECUTION_TARGET } = require('./triggerRatios');
const { triggerResultsName, DEFAULT_KEYS, DEFAULT_TRIGGER_VERSION } = require('./triggerResultsName');
const { resultsPath, measuredOn } = require('./resultsFile');
const { scratchRoot } = require('../common/paths');
const wf = require('../n8n/workflows');
const { summarizeProfile } = require('./profile');
const { rememberKeys, rememberedAfter } = require('./rememberedKeys');
const { HISTORY_SIZE, deduplicatingLabels, checkKeysRemembered } = require('./deduplicatingSides');

const DELIVERIES = Number(process.env.BENCH_DELIVERIES || 60);
const ROUNDS = Number(process.env.BENCH_RUNS || 3);
const CONCURRENCIES = (process.env.BENCH_CONCURRENCY || '1,10,50').split(',').map(Number);
const SECRET_HEADER = 'X-Platform-Secret';
const SECRET = 'bench-webhook-secret-7f3a';
/** Another n8n version from tools/install/versions.js (BENCH_N8N_VERSION), e.g. 1.x, whose expressions run without isolates. */
const N8N_VERSION = process.env.BENCH_N8N_VERSION || undefined;
/** n8n settings for the run (BENCH_N8N_ENV="A=1 B=2"), e.g. to see what an n8n option changes; named in the report. */
const N8N_ENV = Object.fromEntries((process.env.BENCH_N8N_ENV || '').split(/\s+/).filter(Boolean).map((pair) => pair.split(/=(.*)/s).slice(0, 2)));
/** The trigger's version in every workflow: the default for new workflows unless BENCH_TRIGGER_VERSION says (1: n8n evaluates an expression per delivery). */
const TRIGGER_VERSION = Number(process.env.BENCH_TRIGGER_VERSION || DEFAULT_TRIGGER_VERSION);
/** Drop Redelivered's Keys Remembered, all remembered before the first delivery (BENCH_KEYS, to see the cost grow with it); as many in each deduplicating side's list. */
const KEYS_REMEMBERED = Number(process.env.BENCH_KEYS || DEFAULT_KEYS);
const LABELS = deduplicatingLabels(KEYS_REMEMBERED);
const MINIMAL_TRIGGER = 'n8n-nodes-bench-minimal-trigger.minimalTrigger';
/** n8n's and the node's functions on a delivery's path, whose inclusive time --profile shows. */
const FOCUS = ['executeWebhook', 'parseRequestBody', 'runWebhook', 'webhook', 'handleDelivery', 'getSimpleParameterValue', 'evaluateResponseOptions', 'run', 'processRunExecutionData', 'saveExecutionProgress', 'parseBody', 'checkProcessedAndRecord', 'findProcessedData', 'handleHashedItems', 'getNodeParameter', 'runNode'];

const noOp = () => wf.node('Done', 'n8n-nodes-base.noOp', {});
const webhookNode = (/** @type {string} */ id, /** @type {object} */ parameters = {}, /** @type {object} */ extra = {}) =>
	wf.node('Webhook', 'n8n-nodes-base.webhook', { httpMethod: 'POST', path: id, responseMode: 'onReceived', options: {}, ...parameters }, { typeVersion: 2, webhookId: `${id}-0000-4000-8000-000000000000`.slice(0, 36), ...extra });
const minimalNode = (/** @type {string} */ webhookId, /** @type {object} */ parameters = {}, /** @type {object} */ extra = {}) =>
	wf.node('Minimal Trigger', MINIMAL_TRIGGER, { authentication: 'none', ...parameters }, { typeVersion: 2, webhookId, ...extra });
/** The package's webhook credential, which the trigger and the minimal trigger check the header with. */
const SECRET_CREDENTIAL = { credentials: { videoPlatformWebhookApi: { id: 'benchSecret', name: 'benchSecret' } } };
/** Trigger (Delivery ID Field set) → a deduplicating node → No Op. */
const filtered = (/** @type {string} */ id, /** @type {string} */ webhookId, /** @type {import('../n8n/workflows').WorkflowNode} */ filter) =>
	wf.workflow(id, [triggerNode(webhookId, { options: { deliveryIdField: 'id' } }), filter, noOp()]);
const triggerNode = (/** @type {string} */ webhookId, /** @type {object} */ parameters = {}, /** @type {object} */ extra = {}) =>
	wf.node('Video Platform Trigger', wf.VIDEO_PLATFORM_TRIGGER, { authentication: 'none', event: '*', options: {}, ...parameters }, { typeVersion: TRIGGER_VERSION, webhookId, ...extra });

/** @typedef {{ key: string, label: string, workflow: import('../n8n/workflows').Workflow }} Side */
/** @type {Record<string, Side>} */
const SIDES = {
	webhook: { key: 'webhook', label: "n8n's Webhook node → No Op", workflow: wf.workflow('benchWebhook', [webhookNode('b0000001'), noOp()]) },
	trigger: { key: 'trigger', label: 'Video Platform Trigger → No Op', workflow: wf.workflow('benchTrigger', [triggerNode('b0000002-0000-4000-8000-000000000000'), noOp()]) },
	webhookAuth: {
		key: 'webhookAuth',
		label: "n8n's Webhook node, Header Auth → No Op",
		workflow: wf.workflow('benchWebhookAuth', [webhookNode('b0000003', { authentication: 'headerAuth' }, { credentials: { httpHeaderAuth: { id: 'benchHeader', name: 'benchHeader' } } }), noOp()]),
	},
	minimal: { key: 'minimal', label: 'Minimal community trigger → No Op', workflow: wf.workflow('benchMinimal', [minimalNode('b0000008-0000-4000-8000-000000000000'), noOp()]) },
	minimalAuth: {
		key: 'minimalAuth',
		label: 'Minimal community trigger, the same header checked → No Op',
		workflow: wf.workflow('benchMinimalAuth', [minimalNode('b0000009-0000-4000-8000-000000000000', { authentication: 'secretHeader' }, SECRET_CREDENTIAL), noOp()]),
	},
	triggerAuth: {
		key: 'triggerAuth',
		label: 'Video Platform Trigger, shared secret → No Op',
		workflow: wf.workflow('benchTriggerAuth', [triggerNode('b0000004-0000-4000-8000-000000000000', { authentication: 'secretHeader' }, SECRET_CREDENTIAL), noOp()]),
	},
	triggerId: {
		key: 'triggerId',
		label: 'Video Platform Trigger, Delivery ID Field set → No Op',
		workflow: wf.workflow('benchTriggerId', [triggerNode('b0000005-0000-4000-8000-000000000000', { options: { deliveryIdField: 'id' } }), noOp()]),
	},
	triggerDrop: {
		key: 'triggerDrop',
		label: LABELS.triggerDrop,
		workflow: filtered('benchTriggerDrop', 'b0000006-0000-4000-8000-000000000000', wf.dropRedelivered('Drop Redelivered', { keysRemembered: KEYS_REMEMBERED })),
	},
	// The pair: the same trigger, key and history size; both lists filled alike before the first delivery.
	triggerDropHistory: {
		key: 'triggerDropHistory',
		label: LABELS.triggerDropHistory,
		workflow: filtered('benchTriggerDropHistory', 'b000000a-0000-4000-8000-000000000000', wf.dropRedelivered('Drop Redelivered', { keysRemembered: HISTORY_SIZE })),
	},
	triggerRemoveDuplicates: {
		key: 'triggerRemoveDuplicates',
		label: LABELS.triggerRemoveDuplicates,
		workflow: filtered('benchTriggerRemoveDuplicates', 'b000000b-0000-4000-8000-000000000000', wf.removeDuplicates('Remove Duplicates', HISTORY_SIZE)),
	},
};

/** Rows: the trigger against its baseline; a Webhook node baseline on n8n 2.x is a reference only (isIsolateExempt). */
const ROWS = [
	{ label: 'Plain, against the minimal trigger', base: 'minimal', subject: 'trigger' },
	{ label: 'Secret checked, against the minimal trigger checking the same header', base: 'minimalAuth', subject: 'triggerAuth' },
	{ label: 'Delivery ID Field set, against the minimal trigger', base: 'minimal', subject: 'triggerId' },
	{ label: "The minimal trigger against n8n's Webhook node", base: 'webhook', subject: 'minimal' },
	{ label: "Plain, against n8n's Webhook node", base: 'webhook', subject: 'trigger' },
	{ label: "Secret checked, against n8n's Webhook node with Header Auth", base: 'webhookAuth', subject: 'triggerAuth' },
	{ label: "Delivery ID Field set, against n8n's Webhook node", base: 'webhook', subject: 'triggerId' },
	{ label: "Delivery ID Field set, → Drop Redelivered, against n8n's Webhook node", base: 'webhook', subject: 'triggerDrop' },
	{ label: 'Drop Redelivered against trigger → No Op (both Delivery ID Field set)', base: 'triggerId', subject: 'triggerDrop' },
];
/** The sides run when --sides is not given; queue mode runs Drop Redelivered on its own (--sides triggerId,triggerDrop). */
const DEFAULT_SIDES = ['webhook', 'minimal', 'trigger', 'webhookAuth', 'minimalAuth', 'triggerAuth', 'triggerId', 'triggerDrop', 'triggerDropHistory', 'triggerRemoveDuplicates'];
const DEDUPLICATING = ['triggerDrop', 'triggerDropHistory', 'triggerRemoveDuplicates'];
const QUEUE_DEFAULT_SIDES = DEFAULT_SIDES.filter((key) => !DEDUPLICATING.includes(key));
const QUEUE_STACK = 'queue mode (PostgreSQL, Redis, a main process, 2 workers at concurrency 2, one webhook processor that takes the deliveries)';
const CREDENTIALS = [
	{ id: 'benchSecret', name: 'benchSecret', type: 'videoPlatformWebhookApi', data: { headerName: SECRET_HEADER, secret: SECRET } },
	{ id: 'benchHeader', name: 'benchHeader', type: 'httpHeaderAuth', data: { name: SECRET_HEADER, value: SECRET } },
];
/** Where each deduplicating side's list is (its second node's), and the ids of the keys each remembers before the first delivery. */
const LISTS = Object.fromEntries(DEDUPLICATING.map((key) => [key, { workflowId: SIDES[key].workflow.id, nodeId: SIDES[key].workflow.nodes[1].id }]));
const EARLIER_ID = 'evt_earlier_';

const log = (/** @type {string} */ message) => process.stderr.write(`[bench:trigger] ${message}\n`);

let sequence = 0;
/** The ids sent to each deduplicating side, each of which n8n must remember afterwards. */
/** @type {Record<string, string[]>} */
const idsSent = Object.fromEntries(DEDUPLICATING.map((key) => [key, []]));
/** A delivery like the platform's: a unique id, so Drop Redelivered lets each one through. */
function payload(/** @type {string[] | undefined} */ ids) {
	sequence += 1;
	ids?.push(`evt_${process.pid}_${sequence}`);
	return JSON.stringify({ id: `evt_${process.pid}_${sequence}`, data: { room: { id: `room_${sequence % 97}`, name: `Class ${sequence}` }, at: new Date().toISOString() } });
}

/**
 * Posts `count` deliveries at `concurrency`, each timed to its answer.
 * @param {string} url
 * @param {Record<string, string>} headers
 * @param {number} count
 * @param {number} concurrency
 * @param {string[]} [ids]  gets the id of each delivery
 * @returns {Promise<{ perSecond: number, p50: number, p99: number, non2xx: number }>}
 */
async function burst(url, headers, count, concurrency, ids) {
	/** @type {number[]} */
	const latencies = [];
	let non2xx = 0;
	let next = 0;
	const started = performance.now();
	const worker = async () => {
		while (next < count) {
			next += 1;
			const sent = performance.now();
			const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: payload(ids) });
			await response.arrayBuffer();
			latencies.push(performance.now() - sent);
			if (response.status < 200 || response.status > 299) non2xx += 1;
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	const seconds = (performance.now() - started) / 1000;
	return { perSecond: count / seconds, p50: median(latencies), p99: quantile(latencies, 0.99), non2xx };
}

/**
 * Waits until a workflow has `expected` finished executions (none running), so that one side's
 * executions do not run into the next side's burst. Returns their count and their run times.
 * @param {N8n} n8n
 * @param {string} apiKey
 * @param {string} workflowId
 * @param {number} expected
 */
async function drain(n8n, apiKey, workflowId, expected) {
	const started = Date.now();
	for (;;) {
		const all = await listExecutions(n8n.baseUrl, apiKey, workflowId);
		const settled = all.every((e) => e.status !== 'running' && e.status !== 'new');
		if ((all.length >= expected && settled) || Date.now() - started > 120_000) return all;
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
}

/**
 * n8n with every side's workflow active, in one process or in queue mode (every process then
 * under --cpu-prof when profiling), and a public API key to count executions with.
 * @param {string} work
 */
async function startN8n(work, { profileDir = '', queue = false } = {}) {
	const tarball = packPackage(path.join(work, 'pack'), { build: !process.argv.includes('--no-build') });
	const minimalTarball = packPackage(path.join(work, 'pack-minimal'), { from: path.join(__dirname, 'minimal-trigger') });
	// A profile is written when n8n exits, not when it is killed: queue mode's webhook processor
	// still waited for "1 active execution" past the 15 s before the kill, every execution ended
	// on the workers, so n8n's own shutdown timeout (which exits) is made shorter.
	/** @type {Record<string, string>} */
	const env = { ...N8N_ENV, ...(profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}`, N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '5' } : {}) };
	const workflows = Object.values(SIDES).map((side) => side.workflow);
	/** @type {N8n} */
	let n8n;
	if (queue) {
		n8n = await startQueueStack({ tarball, moreTarballs: [minimalTarball], version: N8N_VERSION, dir: path.join(work, 'stack'), credentials: CREDENTIALS, workflows, activate: workflows.map((w) => w.id), env, log });
		// Before the first delivery; PostgreSQL takes the row while n8n runs.
		rememberAll(n8n);
	} else {
		n8n = await startSingle(work, [tarball, minimalTarball], env);
	}
	for (const side of Object.values(SIDES)) await n8n.waitForWebhook(urlOf(n8n, side));
	const apiKey = (await n8n.publicApi()).key;
	await proveKeysRemembered(n8n, apiKey);
	return { n8n, apiKey };
}

/** Fills every deduplicating side's list with the same KEYS_REMEMBERED keys. @param {N8n} n8n */
function rememberAll(n8n) {
	for (const list of Object.values(LISTS)) rememberKeys(n8n, { ...list, count: KEYS_REMEMBERED, prefix: EARLIER_ID });
}

/**
 * One n8n process (SQLite), with the deduplicating sides' keys remembered before it starts.
 * @param {string} work
 * @param {string[]} tarballs  the package and the yardsticks
 * @param {Record<string, string>} env
 */
async function startSingle(work, tarballs, env) {
	const n8n = await new N8n({ version: N8N_VERSION, userFolder: path.join(work, 'n8n') }).prepare();
	for (const tarball of tarballs) n8n.installPackage(tarball);
	await n8n.importCredentials(CREDENTIALS);
	for (const { workflow } of Object.values(SIDES)) {
		await n8n.importWorkflow(workflow);
		await n8n.activateWorkflow(workflow.id);
	}
	// SQLite: while n8n is stopped.
	rememberAll(n8n);
	return n8n.start({ env });
}

/**
 * Redelivers the newest of the keys remembered beforehand to each deduplicating side: its filter
 * must drop it, which shows that the node reads the list the bench filled. Each side's one
 * execution is counted in measure().
 * @param {N8n} n8n
 * @param {string} apiKey
 */
async function proveKeysRemembered(n8n, apiKey) {
	for (const key of DEDUPLICATING) {
		const side = SIDES[key];
		const filter = side.workflow.nodes[1].name;
		const response = await fetch(urlOf(n8n, side), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: `${EARLIER_ID}${KEYS_REMEMBERED}` }) });
		if (!response.ok) throw new Error(`The redelivery of a remembered key to ${side.label} got ${response.status}`);
		await drain(n8n, apiKey, side.workflow.id, 1);
		const [execution] = await listExecutions(n8n.baseUrl, apiKey, side.workflow.id, { includeData: true });
		const runData = execution?.data?.resultData?.runData ?? {};
		if (!runData[filter] || runData.Done) {
			throw new Error(`${filter} did not drop a redelivery of a key remembered beforehand (nodes run: ${Object.keys(runData).join(', ')})`);
		}
		log(`${side.label}: a redelivery of one of the ${KEYS_REMEMBERED} keys remembered beforehand was dropped`);
	}
}

/** The Production URL of a side's start node: a trigger's (its webhook id and its path, "webhook") or the Webhook node's path. @param {N8n} n8n @param {Side} side */
function urlOf(n8n, side) {
	const start = side.workflow.nodes[0];
	return start.type === 'n8n-nodes-base.webhook' ? `${n8n.webhookUrl}/webhook/${start.parameters.path}` : `${n8n.webhookUrl}/webhook/${start.webhookId}/webhook`;
}
/** @returns {Record<string, string>} */
const headersOf = (/** @type {Side} */ side) => (side.key.endsWith('Auth') ? { [SECRET_HEADER]: SECRET } : {});

/**
 * @typedef {{ perSecond: number, p50: number, p99: number, non2xx: number, executions: number, execMs: number }} Sample
 * @param {N8n} n8n
 * @param {string} apiKey
 * @param {string[]} keys  the sides, interleaved in this order each round
 */
async function measure(n8n, apiKey, keys) {
	/** @type {Record<string, Record<number, Sample[]>>} */
	const samples = Object.fromEntries(keys.map((key) => [key, Object.fromEntries(CONCURRENCIES.map((c) => [c, []]))]));
	/** @type {Record<string, number>} the probe of proveKeysRemembered() counts as sent */
	const sent = Object.fromEntries(keys.map((key) => [key, DEDUPLICATING.includes(key) ? 1 : 0]));
	for (let round = 1; round <= ROUNDS; round++) {
		for (const concurrency of CONCURRENCIES) {
			// A B A B …, and each round starts with the other one, so that neither always goes first.
			const order = round % 2 ? keys : [...keys].reverse();
			for (const key of order) {
				const side = SIDES[key];
				const result = await burst(urlOf(n8n, side), headersOf(side), DELIVERIES, concurrency, idsSent[key]);
				sent[key] += DELIVERIES;
				const all = await drain(n8n, apiKey, side.workflow.id, sent[key]);
				const newest = all.sort((a, b) => Number(b.id) - Number(a.id)).slice(0, DELIVERIES);
				const execMs = median(newest.map((e) => Date.parse(e.stoppedAt) - Date.parse(e.startedAt)));
				samples[key][concurrency].push({ ...result, executions: all.length - (sent[key] - DELIVERIES), execMs });
				log(`round ${round}/${ROUNDS}, concurrency ${concurrency}, ${side.label}: ${result.perSecond.toFixed(1)}/s, p50 ${result.p50.toFixed(0)} ms, p99 ${result.p99.toFixed(0)} ms, ${all.length - (sent[key] - DELIVERIES)} executions, run ${execMs} ms`);
			}
		}
	}
	return samples;
}

/** Execution times compared: Drop Redelivered against what it adds to, and against n8n's Remove Duplicates. */
const EXECUTION_PAIRS = [
	...['triggerId', 'trigger'].map((base) => ({ subject: 'triggerDrop', base })),
	{ subject: 'triggerDropHistory', base: 'triggerRemoveDuplicates' },
];
/** How many keys a deduplicating side's list keeps. */
const listLength = (/** @type {string} */ key) => (key === 'triggerDrop' ? KEYS_REMEMBERED : HISTORY_SIZE);

/**
 * @param {Record<string, Record<number, Sample[]>>} samples
 * @param {string} version
 * @param {Record<string, { count: number, missing: number }>} [remembered]  each deduplicating side's list after the run
 * @param {{ queue?: boolean, seconds?: number }} [run]  the mode, and how long the whole run took
 */
function report(samples, version, remembered, { queue = false, seconds } = {}) {
	const lines = [
		queue ? '# Trigger benchmark in queue mode' : '# Trigger benchmark',
		'',
		`n8n ${version}, ${queue ? QUEUE_STACK : 'one process (SQLite)'}, ${DELIVERIES} deliveries per side per round, ${ROUNDS} rounds interleaved (A B A B …, the order reversed every other round), the same JSON deliveries (a unique id each), ${measuredOn()}, shared with other work while measured. Video Platform Trigger version ${TRIGGER_VERSION}.${Object.keys(N8N_ENV).length ? ` n8n settings: ${Object.entries(N8N_ENV).map(([k, v]) => `${k}=${v}`).join(' ')}.` : ''}${seconds ? ` The run took ${Math.round(seconds)} s, n8n's start included.` : ''}`,
		`Deliveries/s: deliveries over the time from the first sent to the last answered; p50/p99: time to the 2xx, its median and nearest-rank 99th percentile. Medians of the rounds; the spread is (max − min) / median of the per-round ratios. Every delivery is counted in n8n's executions afterwards${queue ? ' (after each side\'s burst, once every execution has ended on the workers)' : ''}.`,
		'',
		'| Row | Concurrency | Baseline /s | Trigger /s | Ratio (spread) | Baseline p50 / p99 | Trigger p50 / p99 | p99 ratio (spread) | Executions / deliveries | Target /s ≥ 0.95, p99 ≤ 1.1 |',
		'|---|---|---|---|---|---|---|---|---|---|',
	];
	/** @type {string[]} */
	const verdicts = [];
	for (const row of ROWS) {
		if (!samples[row.base] || !samples[row.subject]) continue;
		for (const c of CONCURRENCIES) {
			const base = samples[row.base][c];
			const subject = samples[row.subject][c];
			const rate = ratio(subject.map((s) => s.perSecond), base.map((s) => s.perSecond));
			const p99 = ratio(subject.map((s) => s.p99), base.map((s) => s.p99));
			const executions = [...base, ...subject].reduce((n, s) => n + s.executions, 0);
			const delivered = (base.length + subject.length) * DELIVERIES;
			const failures = [...base, ...subject].reduce((n, s) => n + s.non2xx, 0);
			const m = (/** @type {Sample[]} */ list, /** @type {'perSecond' | 'p50' | 'p99'} */ k) => median(list.map((s) => s[k]));
			const verdict = isIsolateExempt(row.base, version) ? `reference only: n8n ${version} spares its Webhook node the expression isolate` : rowVerdict(rate, p99);
			lines.push(
				`| ${row.label} | ${c} | ${m(base, 'perSecond').toFixed(1)} | ${m(subject, 'perSecond').toFixed(1)} | ${rate.value.toFixed(2)}x (${pct(rate.spread)}) | ${m(base, 'p50').toFixed(0)} / ${m(base, 'p99').toFixed(0)} ms | ${m(subject, 'p50').toFixed(0)} / ${m(subject, 'p99').toFixed(0)} ms | ${p99.value.toFixed(2)}x (${pct(p99.spread)}) | ${executions} / ${delivered}${failures ? `, ${failures} not 2xx` : ''} | ${verdict} |`,
			);
			verdicts.push(verdict);
		}
	}
	for (const { subject, base } of EXECUTION_PAIRS) {
		if (!samples[base] || !samples[subject]) continue;
		lines.push('', `Execution time (n8n's startedAt → stoppedAt, median of each round's deliveries) of ${SIDES[subject].label} against ${SIDES[base].label}; target ≤ ${EXECUTION_TARGET.toFixed(2)}x:`, '');
		const times = (/** @type {string} */ key, /** @type {number} */ c) => samples[key][c].map((s) => s.execMs);
		lines.push(...CONCURRENCIES.map((c) => executionTimeLine(c, times(subject, c), times(base, c))));
	}
	for (const [key, list] of Object.entries(remembered ?? {})) {
		const { label } = SIDES[key];
		const kept = Math.min(listLength(key), idsSent[key].length);
		lines.push('', `Keys remembered by ${label}: ${KEYS_REMEMBERED} before the first delivery (a redelivery of the newest was dropped), ${list.count} after the run; of the ${kept} newest deliveries it let through (those the list's length keeps), ${list.missing} are missing from n8n's list (n8n reads, changes and writes the whole list per execution, so executions at the same time can overwrite each other's keys).`);
	}
	return lines.join('\n');
}

/** @param {boolean} queue */
async function profile(queue) {
	const keys = (process.env.BENCH_SIDES || 'webhook,trigger').split(',');
	checkSides(keys);
	const work = path.join(scratchRoot, `bench-trigger-profile-${queue ? 'queue-' : ''}${keys.join('-')}`);
	fs.rmSync(work, { recursive: true, force: true });
	const profileDir = path.join(work, 'cpu');
	const { n8n, apiKey } = await startN8n(work, { profileDir, queue });
	// In queue mode, the webhook processor's profile: its PID is in the file's name.
	const webhookPid = n8n.webhooks[0]?.pid;
	try {
		await measure(n8n, apiKey, keys);
	} finally {
		await n8n.stop();
	}
	const files = fs.readdirSync(profileDir).filter((f) => !webhookPid || f.includes(`.${webhookPid}.`)).map((f) => path.join(profileDir, f));
	// The main process is the largest profile (n8n's CLI helpers write small ones too).
	const largest = files.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
	process.stdout.write(`${summarizeProfile(JSON.parse(fs.readFileSync(largest, 'utf8')), FOCUS)}\nProfile: ${largest}\n`);
}

/** Throws before n8n starts when a side is unknown. */
function checkSides(/** @type {string[]} */ keys) {
	const unknown = keys.filter((key) => !SIDES[key]);
	if (unknown.length) throw new Error(`Unknown sides ${unknown.join(', ')}; the sides are ${Object.keys(SIDES).join(', ')}`);
	checkKeysRemembered(keys, KEYS_REMEMBERED, ROUNDS * CONCURRENCIES.length * DELIVERIES);
}

async function main() {
	const started = performance.now();
	const { values } = parseArgs({ args: process.argv.slice(2), options: { profile: { type: 'boolean', default: false }, queue: { type: 'boolean', default: false }, 'no-build': { type: 'boolean', default: false }, sides: { type: 'string' } } });
	const { queue } = values;
	if (values.profile) return profile(queue);
	const keys = values.sides ? values.sides.split(',') : queue ? QUEUE_DEFAULT_SIDES : DEFAULT_SIDES;
	checkSides(keys);
	const work = path.join(scratchRoot, queue ? 'bench-trigger-queue' : 'bench-trigger');
	fs.rmSync(work, { recursive: true, force: true });
	const { n8n, apiKey } = await startN8n(work, { queue });
	/** @type {Record<string, Record<number, Sample[]>> | undefined} */
	let samples;
	const readList = () =>
		Object.fromEntries(DEDUPLICATING.filter((key) => samples?.[key]).map((key) => [key, rememberedAfter(n8n, LISTS[key], idsSent[key].slice(-listLength(key)))]));
	let remembered;
	try {
		samples = await measure(n8n, apiKey, keys);
		// PostgreSQL stops with the stack; SQLite is read once n8n has stopped.
		if (queue) remembered = readList();
	} finally {
		await n8n.stop();
	}
	if (!queue) remembered = readList();
	const text = report(samples, n8n.version, remembered, { queue, seconds: (performance.now() - started) / 1000 });
	const file = triggerResultsName({ queue, sides: values.sides ? keys : [], keysRemembered: KEYS_REMEMBERED, n8nVersion: N8N_VERSION, n8nEnv: N8N_ENV, triggerVersion: TRIGGER_VERSION });
	fs.writeFileSync(resultsPath(file), `${text}\n`);
	process.stdout.write(`${text}\nWritten to ${resultsPath(file)}.\n`);
}

main().catch((error) => {
	process.stderr.write(`[bench:trigger] ${error.stack}\n`);
	process.exit(1);
});

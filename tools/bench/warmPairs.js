'use strict';
// The node against the compliant limits, and against itself with Create Once Per Key on, in one
// warm n8n process. One `n8n execute` runs them in a chain on WARM_ITEMS items: once each to warm
// the code (not measured), then RUNS_PER_SIDE short runs of each, in a cycle where every side
// follows every side (itself included) equally often, so that none always runs after another. A
// round's figure is each side's mean over its runs: a slow moment of the machine (seconds, on a
// shared 2-core VM) falls on all alike, which long runs in separate processes, each with its own
// cold start, cannot offer. Each node creates rooms from the items the one before it returned
// (the sandbox answers with the room's name and type).
const { cpuWithin } = require('./usage');

/**
 * node: the Video Platform node; compliant: the compliant limit; bounded: the compliant limit
 * reading its answer as the node must, a stream with a size cap; once: the node with Create Once
 * Per Key on, every item a key no run had before (ONCE_PER_KEY).
 * @typedef {'node' | 'compliant' | 'bounded' | 'once'} Side
 */
/** @type {Side[]} */
const SIDES = ['node', 'compliant', 'bounded', 'once'];
/** @type {Record<Side, string>} */
const PREFIX = { node: 'Node', compliant: 'Limit', bounded: 'Bounded', once: 'Once' };
/**
 * Measured runs of each side per round. The cycle below has SIDES.length² runs, so a multiple of
 * the sides' number keeps it whole: every side then follows every side equally often.
 */
const RUNS_PER_SIDE = Number(process.env.BENCH_RUNS_PER_SIDE || 20);
if (!Number.isInteger(RUNS_PER_SIDE / SIDES.length) || RUNS_PER_SIDE <= 0) {
	throw new Error(`BENCH_RUNS_PER_SIDE must be a positive multiple of ${SIDES.length} (the sides), not ${RUNS_PER_SIDE}`);
}
/** Items per node of the chain: the first 100 (BENCH_WARM_ITEMS) of the run's BENCH_ITEMS, or all of them when fewer. */
const WARM_ITEMS = Math.min(Number(process.env.BENCH_WARM_ITEMS || 100), Number(process.env.BENCH_ITEMS || Infinity));
/**
 * Room → Create's Options → Create Once Per Key for the 'once' side. The execution's id makes every
 * key new in each round (each `n8n execute` is a new execution), and the list is this node's own
 * (each measured node has its own id), so every run takes the create path: a check that records
 * two entries per key, the requests, the removal of the "pending" entries and the confirming check
 * after its pause. No item is skipped.
 */
const ONCE_PER_KEY = { settings: { key: '={{ $execution.id }}-{{ $json.name }}' } };

/**
 * A cycle of the sides in which each ordered pair of sides (a side after itself too) comes once:
 * a de Bruijn sequence, made by the standard recursion on Lyndon words.
 * @param {Side[]} sides
 * @returns {Side[]}
 */
function everyPairOnce(sides) {
	const k = sides.length;
	const n = 2; // pairs
	/** @type {number[]} */
	const sequence = [];
	const word = new Array(n + 1).fill(0);
	const visit = (/** @type {number} */ t, /** @type {number} */ p) => {
		if (t > n) {
			if (n % p === 0) sequence.push(...word.slice(1, p + 1));
			return;
		}
		word[t] = word[t - p];
		visit(t + 1, p);
		for (let j = word[t - p] + 1; j < k; j++) {
			word[t] = j;
			visit(t + 1, t);
		}
	};
	visit(1, 1);
	return sequence.map((i) => sides[i]);
}
const CYCLE = everyPairOnce(SIDES);
const MEASURED = Array.from({ length: RUNS_PER_SIDE * SIDES.length }, (_, i) => CYCLE[i % CYCLE.length]);
const nameOf = (/** @type {Side} */ key, /** @type {number} */ run) => `${PREFIX[key]} ${run}`;
/** Each measured node's name, with its side. */
const TARGETS = MEASURED.map((key, i) => ({ key, name: nameOf(key, MEASURED.slice(0, i + 1).filter((k) => k === key).length) }));
/** A measured node's name, for reading its samples out of a profile. */
const MEASURED_NAME = new RegExp(`^(${Object.values(PREFIX).join('|')}) \\d+$`);

/**
 * @param {typeof import('../n8n/workflows')} wf
 * @param {import('../n8n/workflows').WorkflowNode[]} leadingNodes  trigger and item source
 * @param {(key: Side, name: string) => import('../n8n/workflows').WorkflowNode} target  a measured node of that side
 */
function pairsWorkflow(wf, leadingNodes, target) {
	const warm = SIDES.map((key) => target(key, `Warm ${PREFIX[key]}`));
	return wf.workflow('benchPairs', [...leadingNodes, ...warm, ...TARGETS.map(({ key, name }) => target(key, name))]);
}

/**
 * One side alone, warmed up and then as many runs as a round gives it: for --profile.
 * @param {typeof import('../n8n/workflows')} wf
 * @param {string} id
 * @param {import('../n8n/workflows').WorkflowNode[]} leadingNodes
 * @param {(key: Side, name: string) => import('../n8n/workflows').WorkflowNode} target
 * @param {Side} key
 */
function sideWorkflow(wf, id, leadingNodes, target, key) {
	return wf.workflow(id, [...leadingNodes, target(key, 'Warm'), ...Array.from({ length: RUNS_PER_SIDE }, (_, i) => target(key, nameOf(key, i + 1)))]);
}

/**
 * One round: each side's mean wall and CPU time per run of ITEMS items.
 * @param {typeof import('../n8n/workflows')} wf
 * @param {any} run  the execution's run data
 * @param {import('./usage').Usage} usage  the execute's process usage
 * @param {number} items  per node
 * @param {{ total: number }} seen  the sandbox's request count for the round
 */
function pairsRound(wf, run, usage, items, seen) {
	const side = (/** @type {Side} */ key) => {
		const names = TARGETS.filter((t) => t.key === key).map((t) => t.name);
		const mean = (/** @type {(name: string) => number} */ f) => names.reduce((sum, name) => sum + f(name), 0) / names.length;
		const failedIn = (/** @type {string} */ name) => {
			const output = wf.outputOf(run, name);
			// A skipped item (Create Once Per Key) created no room: for this bench it did not succeed.
			return output.filter((item) => item.json.error !== undefined || item.json.skipped === true).length + (items - output.length);
		};
		const failed = Math.max(...names.map(failedIn));
		return {
			ms: mean((name) => wf.executionTimeOf(run, name)),
			cpuMs: mean((name) => cpuWithin(usage.cpu, wf.runWindowOf(run, name))),
			ok: items - failed,
			failed,
			peakRss: usage.peakRss,
			// Every node of the chain sends one request per item; more would be re-sent requests.
			requests: seen.total,
			duplicates: seen.total - (TARGETS.length + SIDES.length) * items,
		};
	};
	return /** @type {Record<Side, ReturnType<typeof side>>} */ (Object.fromEntries(SIDES.map((key) => [key, side(key)])));
}

module.exports = { RUNS_PER_SIDE, WARM_ITEMS, SIDES, ONCE_PER_KEY, MEASURED_NAME, pairsWorkflow, sideWorkflow, pairsRound };

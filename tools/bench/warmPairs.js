'use strict';
// The node against the compliant limits in one warm n8n process. One `n8n execute` runs them in a
// chain on WARM_ITEMS items: once each to warm the code (not measured), then PAIRS short runs of
// each, every run of PAIRS in another order of the sides (all orders in turn), so that none always
// follows another. A round's figure is each side's mean over its runs: a slow moment of the
// machine (seconds, on a shared 2-core VM) falls on all alike, which long runs in separate
// processes, each with its own cold start, cannot offer. Each node creates rooms from the items
// the one before it returned (the sandbox answers with the room's name and type).
const { cpuWithin } = require('./usage');

const PAIRS = Number(process.env.BENCH_PAIRS || 20);
const WARM_ITEMS = Number(process.env.BENCH_WARM_ITEMS || 100);
/**
 * node: the Video Platform node; compliant: the compliant limit; bounded: the compliant limit
 * reading its answer as the node must, a stream with a size cap.
 * @typedef {'node' | 'compliant' | 'bounded'} Side
 */
/** @type {Side[]} */
const SIDES = ['node', 'compliant', 'bounded'];
/** @type {Record<Side, string>} */
const PREFIX = { node: 'Node', compliant: 'Limit', bounded: 'Bounded' };

/** @param {Side[]} sides @returns {Side[][]} */
const orders = (sides) => (sides.length <= 1 ? [sides] : sides.flatMap((first) => orders(sides.filter((s) => s !== first)).map((rest) => [first, ...rest])));
const ORDERS = orders(SIDES);
const MEASURED = Array.from({ length: PAIRS }, (_, i) => ORDERS[i % ORDERS.length]).flat();
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
 * One side alone, warmed up and then as many runs as a round of pairs gives it: for --profile.
 * @param {typeof import('../n8n/workflows')} wf
 * @param {string} id
 * @param {import('../n8n/workflows').WorkflowNode[]} leadingNodes
 * @param {(key: Side, name: string) => import('../n8n/workflows').WorkflowNode} target
 * @param {Side} key
 */
function sideWorkflow(wf, id, leadingNodes, target, key) {
	return wf.workflow(id, [...leadingNodes, target(key, 'Warm'), ...Array.from({ length: PAIRS }, (_, i) => target(key, nameOf(key, i + 1)))]);
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
			return output.filter((item) => item.json.error !== undefined).length + (items - output.length);
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
	return { node: side('node'), compliant: side('compliant'), bounded: side('bounded') };
}

module.exports = { PAIRS, WARM_ITEMS, SIDES, MEASURED_NAME, pairsWorkflow, sideWorkflow, pairsRound };

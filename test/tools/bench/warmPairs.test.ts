import * as wf from '../../../tools/n8n/workflows';
import { MEASURED_NAME, RUNS_PER_SIDE, SIDES, pairsRound, pairsWorkflow } from '../../../tools/bench/warmPairs';

type Side = (typeof SIDES)[number];
const target = (key: Side, name: string) => wf.node(name, `bench.${key}`, {});
const chain = pairsWorkflow(wf, [wf.manualTrigger()], target);
const measured = chain.nodes.filter((n) => MEASURED_NAME.test(n.name));
const sideOf = (type: string) => type.replace('bench.', '') as Side;

describe('the warm chain of the node and the compliant limits', () => {
	it('warms each side once, then runs each side RUNS_PER_SIDE times under unique names', () => {
		const warm = chain.nodes.filter((n) => n.name.startsWith('Warm '));
		expect(warm.map((n) => sideOf(n.type)).sort()).toEqual([...SIDES].sort());
		for (const side of SIDES) expect(measured.filter((n) => sideOf(n.type) === side)).toHaveLength(RUNS_PER_SIDE);
		expect(new Set(chain.nodes.map((n) => n.name)).size).toBe(chain.nodes.length);
	});

	it('runs every side after every side, itself included, equally often', () => {
		const after = new Map<string, number>();
		const sides = measured.map((n) => sideOf(n.type));
		// The measured runs as a cycle: the last is followed by the first.
		sides.forEach((side, i) => {
			const pair = `${side}>${sides[(i + 1) % sides.length]}`;
			after.set(pair, (after.get(pair) ?? 0) + 1);
		});
		expect(after.size).toBe(SIDES.length * SIDES.length);
		expect(new Set(after.values())).toEqual(new Set([sides.length / (SIDES.length * SIDES.length)]));
	});

	it("reads each side's mean time, failures and re-sent requests from one execution", () => {
		const items = 2;
		const runData: Record<string, unknown> = {};
		measured.forEach((n, i) => {
			const side = sideOf(n.type);
			const output = side === 'bounded' && i < 6 ? [{ json: { id: 'a' } }, { json: { error: 'boom' } }] : [{ json: { id: 'a' } }, { json: { id: 'b' } }];
			runData[n.name] = [{ startTime: 1000 * i, executionTime: side === 'node' ? 30 : 20, data: { main: [output] } }];
		});
		const run = { data: { resultData: { runData } } };
		const usage = { peakRss: 1, clock: [0, 0] as [number, number], cpu: [[0, 0], [1_000_000, 1_000_000_000]] as Array<[number, number]> };
		const requests = (measured.length + SIDES.length) * items;
		const round = pairsRound(wf, run, usage, items, { total: requests + 1 });
		expect(round.node).toMatchObject({ ms: 30, ok: 2, failed: 0, duplicates: 1 });
		expect(round.compliant).toMatchObject({ ms: 20, ok: 2, failed: 0 });
		expect(round.bounded).toMatchObject({ ms: 20, ok: 1, failed: 1 });
		expect(round.node.cpuMs).toBeCloseTo(30);
	});
});

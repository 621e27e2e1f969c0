import * as wf from '../../../tools/n8n/workflows';
import { MEASURED_NAME, ONCE_PER_KEY, RUNS_PER_SIDE, SIDES, WARM_ITEMS, pairsRound, pairsWorkflow } from '../../../tools/bench/warmPairs';
import { KEY_PARAMETER } from '../../../nodes/VideoPlatform/actions/room/oncePerKey/option';

type Side = (typeof SIDES)[number];
const target = (key: Side, name: string) => wf.node(name, `bench.${key}`, {});
const chain = pairsWorkflow(wf, [wf.manualTrigger()], target);
const measured = chain.nodes.filter((n) => MEASURED_NAME.test(n.name));
const sideOf = (type: string) => type.replace('bench.', '') as Side;

describe('the warm chain of the node, the compliant limits and the node with Create Once Per Key', () => {
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
			const second = side === 'bounded' && i < 6 ? { error: 'boom' } : side === 'once' && i > 40 ? { skipped: true, reason: 'created-before' } : { id: 'b' };
			const output = [{ json: { id: 'a' } }, { json: second }];
			runData[n.name] = [{ startTime: 1000 * i, executionTime: side === 'node' ? 30 : side === 'once' ? 45 : 20, data: { main: [output] } }];
		});
		const run = { data: { resultData: { runData } } };
		const usage = { peakRss: 1, clock: [0, 0] as [number, number], cpu: [[0, 0], [1_000_000, 1_000_000_000]] as Array<[number, number]> };
		const requests = (measured.length + SIDES.length) * items;
		const round = pairsRound(wf, run, usage, items, { total: requests + 1 });
		expect(round.node).toMatchObject({ ms: 30, ok: 2, failed: 0, duplicates: 1 });
		expect(round.compliant).toMatchObject({ ms: 20, ok: 2, failed: 0 });
		expect(round.bounded).toMatchObject({ ms: 20, ok: 1, failed: 1 });
		// A skipped item created no room: the once side must take the create path on every item.
		expect(round.once).toMatchObject({ ms: 45, ok: 1, failed: 1 });
		expect(round.node.cpuMs).toBeCloseTo(30);
	});

	it('measures the node with Create Once Per Key on, under a key new in every execution', () => {
		expect(SIDES).toEqual(expect.arrayContaining(['node', 'once']));
		const createRoom = wf.createRoom('Once 1', 'bench', {}, { createOncePerKey: ONCE_PER_KEY });
		// Where the node reads the key (n8n's parameter path), not only where this test looks.
		const key = KEY_PARAMETER.split('.').reduce<unknown>((at, field) => (at as Record<string, unknown> | undefined)?.[field], createRoom.parameters);
		expect(key).toEqual(expect.stringMatching(/^=.*\{\{ \$execution\.id \}\}.*\$json\.name/));
	});

	it('refuses a number of runs per side that would leave the cycle incomplete', () => {
		const load = (runs: string) => {
			process.env.BENCH_RUNS_PER_SIDE = runs;
			try {
				jest.isolateModules(() => jest.requireActual('../../../tools/bench/warmPairs'));
			} finally {
				delete process.env.BENCH_RUNS_PER_SIDE;
			}
		};
		expect(() => load(String(SIDES.length * 5 + 1))).toThrow(`BENCH_RUNS_PER_SIDE must be a positive multiple of ${SIDES.length}`);
		expect(() => load(String(SIDES.length * 5))).not.toThrow();
	});
});

describe('the warm chain with fewer items than WARM_ITEMS (BENCH_ITEMS below it)', () => {
	type WarmPairs = typeof import('../../../tools/bench/warmPairs');
	const loadWith = (items: string): WarmPairs => {
		process.env.BENCH_ITEMS = items;
		try {
			let loaded: WarmPairs | undefined;
			jest.isolateModules(() => {
				loaded = jest.requireActual<WarmPairs>('../../../tools/bench/warmPairs');
			});
			return loaded!;
		} finally {
			delete process.env.BENCH_ITEMS;
		}
	};

	it('runs each node on the items there are, and counts no duplicate where every item was sent once', () => {
		const items = 40;
		const small = loadWith(String(items));
		expect(small.WARM_ITEMS).toBe(items);
		const chain = small.pairsWorkflow(wf, [wf.manualTrigger()], target);
		const runData: Record<string, unknown> = {};
		for (const n of chain.nodes) {
			const output = Array.from({ length: items }, (_, i) => ({ json: { id: `r${i}` } }));
			runData[n.name] = [{ startTime: 0, executionTime: 10, data: { main: [output] } }];
		}
		const usage = { peakRss: 1, clock: [0, 0] as [number, number], cpu: [[0, 0]] as Array<[number, number]> };
		const nodesSending = chain.nodes.filter((n) => n.type.startsWith('bench.')).length;
		const round = small.pairsRound(wf, { data: { resultData: { runData } } }, usage, small.WARM_ITEMS, { total: nodesSending * items });
		for (const side of small.SIDES) expect(round[side]).toMatchObject({ ok: items, failed: 0, duplicates: 0 });
	});

	it('keeps WARM_ITEMS when there are more items', () => {
		expect(loadWith('1000').WARM_ITEMS).toBe(WARM_ITEMS);
	});
});

import { executionTimeLine, isIsolateExempt, rowVerdict } from '../../../tools/bench/triggerRatios';

describe("a row's verdict", () => {
	const steady = (value: number) => ({ value, spread: 0.01 });

	it('passes at ≥ 0.95 × the deliveries/s and ≤ 1.1 × the p99', () => {
		expect(rowVerdict(steady(0.96), steady(1.05))).toBe('pass');
	});

	it('misses when either misses', () => {
		expect(rowVerdict(steady(0.8), steady(1))).toBe('miss');
		expect(rowVerdict(steady(1), steady(1.3))).toBe('miss');
		expect(rowVerdict(steady(0.8), { value: 1.1, spread: 0.5 })).toBe('miss');
	});

	it('is within noise when neither misses and one is undecided', () => {
		expect(rowVerdict({ value: 0.9, spread: 0.2 }, steady(1))).toMatch(/within noise/);
	});
});

describe('which baselines are only a reference', () => {
	it("is n8n's Webhook node on n8n 2.x, not on 1.x, and never the minimal trigger", () => {
		expect(isIsolateExempt('webhook', '2.41.1')).toBe(true);
		expect(isIsolateExempt('webhookAuth', '2.41.1')).toBe(true);
		expect(isIsolateExempt('webhook', '1.123.50')).toBe(false);
		expect(isIsolateExempt('minimal', '2.41.1')).toBe(false);
	});
});

describe('an execution-time line', () => {
	it('gives the subject\'s median first, as "subject against base" reads, then their ratio', () => {
		expect(executionTimeLine(10, [1600, 1650, 1620], [400, 410, 405])).toBe('- concurrency 10: 1620 ms against 405 ms: 4.00x (spread 1 %), miss');
	});

	it('passes at most 1.1 × the baseline, and is within noise when the spread is wider than the gap', () => {
		expect(executionTimeLine(1, [100, 101, 102], [100, 100, 100])).toMatch(/: 1\.01x \(spread 2 %\), pass$/);
		expect(executionTimeLine(50, [100, 150, 120], [100, 100, 100])).toMatch(/: 1\.20x \(spread 42 %\), within noise: spread wider than the gap$/);
	});
});

import { isIsolateExempt, rowVerdict } from '../../../tools/bench/triggerRatios';

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

import fc from 'fast-check';

import { against, isIsolateExempt, median, quantile, ratio, rowVerdict, spread } from '../../../tools/bench/triggerRatios';

describe("the trigger bench's arithmetic", () => {
	it('takes the middle value, or the mean of the two middle ones', () => {
		expect(median([3, 1, 2])).toBe(2);
		expect(median([4, 1, 3, 2])).toBe(2.5);
	});

	it('takes the value at or above the quantile', () => {
		const values = Array.from({ length: 100 }, (_, i) => 100 - i);
		expect(quantile(values, 0.99)).toBe(99);
		expect(quantile(values, 0.5)).toBe(50);
		expect(quantile([7], 0.99)).toBe(7);
	});

	it('spreads by (max − min) / median', () => {
		expect(spread([1, 1.2, 0.9])).toBeCloseTo(0.3);
		expect(spread([2, 2])).toBe(0);
	});

	it('divides the medians, and spreads the per-round ratios, not the medians', () => {
		const r = ratio([10, 20, 30], [10, 10, 10]);
		expect(r.value).toBe(2);
		expect(r.spread).toBe(1);
		// Both sides slow in the same round: the round's ratio is steady.
		expect(ratio([1, 2], [2, 4]).spread).toBe(0);
	});

	it('is undecided exactly when the gap to the target is narrower than the spread', () => {
		fc.assert(
			fc.property(fc.double({ min: 0.1, max: 10, noNaN: true }), fc.double({ min: 0, max: 2, noNaN: true }), (value, s) => {
				const outcome = against({ value, spread: s }, 1, value <= 1);
				if (Math.abs(value - 1) / value < s) expect(outcome).toBe('undecided');
				else expect(outcome).toBe(value <= 1 ? 'pass' : 'miss');
			}),
		);
	});
});

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

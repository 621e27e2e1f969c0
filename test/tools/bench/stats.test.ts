import fc from 'fast-check';

import { against, blockSpread, median, pairedRatio, perRound, quantile, ratio, spread } from '../../../tools/bench/stats';

const values = fc.array(fc.double({ min: 0.001, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 40 });

describe('median', () => {
	it('takes the middle value, or the mean of the two middle ones', () => {
		expect(median([3, 1, 2])).toBe(2);
		expect(median([4, 1, 3, 2])).toBe(2.5);
		// Neither the lower (2) nor the upper (10) middle value.
		expect(median([10, 1, 2, 30])).toBe(6);
	});

	it('has as many values at or below it as at or above it, whatever their order', () => {
		fc.assert(
			fc.property(values, (list) => {
				const m = median(list);
				expect(list.filter((v) => v <= m).length).toBeGreaterThanOrEqual(list.length / 2);
				expect(list.filter((v) => v >= m).length).toBeGreaterThanOrEqual(list.length / 2);
				expect(median([...list].reverse())).toBe(m);
			}),
		);
	});

	it('leaves its input in its order', () => {
		const list = [3, 1, 2];
		median(list);
		expect(list).toEqual([3, 1, 2]);
	});
});

describe('quantile', () => {
	it('takes the nearest rank at or above the quantile', () => {
		const list = Array.from({ length: 100 }, (_, i) => 100 - i);
		expect(quantile(list, 0.99)).toBe(99);
		expect(quantile(list, 0.5)).toBe(50);
		expect(quantile([7], 0.99)).toBe(7);
	});

	it('is a value of the list with at least that share of the values at or below it, and the least such', () => {
		fc.assert(
			fc.property(values, fc.double({ min: 0.01, max: 1, noNaN: true }), (list, q) => {
				const p = quantile(list, q);
				expect(list).toContain(p);
				expect(list.filter((v) => v <= p).length).toBeGreaterThanOrEqual(q * list.length);
				expect(list.filter((v) => v < p).length).toBeLessThan(q * list.length);
			}),
		);
	});
});

describe('spread', () => {
	it('is (max − min) / median', () => {
		expect(spread([1, 1.2, 0.9])).toBeCloseTo(0.3);
		expect(spread([2, 2])).toBe(0);
		expect(spread([1, 2, 3, 4])).toBeCloseTo(3 / 2.5);
	});
});

describe('ratios of one side to another', () => {
	it('divides the medians, and spreads the per-round ratios, not the medians', () => {
		const r = ratio([10, 20, 30], [10, 10, 10]);
		expect(r.value).toBe(2);
		expect(r.spread).toBe(1);
		// Both sides slow in the same round: the round's ratio is steady.
		expect(ratio([1, 2], [2, 4]).spread).toBe(0);
	});

	it('pairs rounds: the median of the per-round ratios, which can differ from the ratio of the medians', () => {
		expect(perRound([1, 10, 3], [1, 5, 1])).toEqual([1, 2, 3]);
		expect(pairedRatio([1, 10, 3], [1, 5, 1])).toBe(2);
		expect(ratio([1, 10, 3], [1, 5, 1]).value).toBe(3);
	});

	it('is 1 for a side against itself, both ways', () => {
		fc.assert(
			fc.property(values, (list) => {
				expect(pairedRatio(list, list)).toBe(1);
				expect(ratio(list, list)).toEqual({ value: 1, spread: 0 });
			}),
		);
	});
});

describe('blockSpread', () => {
	it('spreads the medians of consecutive blocks', () => {
		expect(blockSpread([1, 9, 1, 2, 2, 0], 3)).toBeCloseTo((2 - 1) / 1.5);
	});

	it('leaves out a last block that is not whole', () => {
		expect(blockSpread([1, 1, 1, 2, 2, 2, 100], 3)).toBeCloseTo(1 / 1.5);
	});

	it('is infinite with fewer than two whole blocks', () => {
		expect(blockSpread([1, 2, 3, 4, 5], 3)).toBe(Infinity);
	});
});

describe('against a target', () => {
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

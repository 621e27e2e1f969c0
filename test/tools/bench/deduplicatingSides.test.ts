import { HISTORY_SIZE, checkKeysRemembered, deduplicatingLabels } from '../../../tools/bench/deduplicatingSides';

describe("the trigger bench's deduplicating sides", () => {
	it.each([100, 10_000])('name the %i keys each list was given, beside the 20,000 both keep', (keys) => {
		const labels = deduplicatingLabels(keys);
		const given = `${keys.toLocaleString('en-US')} keys remembered before the first delivery`;
		expect(HISTORY_SIZE).toBe(20_000);
		expect(labels.triggerDrop).toContain(`(${given})`);
		expect(labels.triggerDropHistory).toContain(`(Keys Remembered 20,000, ${given})`);
		expect(labels.triggerRemoveDuplicates).toContain(`(previous executions, History Size 20,000, ${given})`);
	});

	it('refuses the pair with more keys than its lists keep, and allows Drop Redelivered alone any number', () => {
		expect(() => checkKeysRemembered(['triggerRemoveDuplicates'], 20_001)).toThrow('BENCH_KEYS 20001 is more than the 20,000 keys');
		expect(() => checkKeysRemembered(['triggerDropHistory'], 20_001)).toThrow('BENCH_KEYS 20001');
		expect(() => checkKeysRemembered(['triggerDropHistory', 'triggerRemoveDuplicates'], 20_000)).not.toThrow();
		expect(() => checkKeysRemembered(['triggerId', 'triggerDrop'], 50_000)).not.toThrow();
	});
});

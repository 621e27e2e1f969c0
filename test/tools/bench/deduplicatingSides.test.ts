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

	it('refuses the pair when its lists would overflow, which Remove Duplicates would answer with a refusal per execution', () => {
		// Remove Duplicates refuses once stored + new > history size: 19,460 + 540 fit, one more does not.
		expect(() => checkKeysRemembered(['triggerDropHistory', 'triggerRemoveDuplicates'], 19_460, 540)).not.toThrow();
		expect(() => checkKeysRemembered(['triggerRemoveDuplicates'], 19_461, 540)).toThrow('BENCH_KEYS 19461 and 540 deliveries per side are more than the 20,000 keys');
		expect(() => checkKeysRemembered(['triggerDropHistory'], 19_461, 540)).toThrow('BENCH_KEYS 19461');
		// The redelivery that proves the list read is one more execution.
		expect(() => checkKeysRemembered(['triggerRemoveDuplicates'], 20_000, 0)).toThrow('BENCH_KEYS 20000');
		expect(() => checkKeysRemembered(['triggerRemoveDuplicates'], 19_999, 0)).not.toThrow();
	});

	it("allows Drop Redelivered's own side, whose list is BENCH_KEYS long, any number", () => {
		expect(() => checkKeysRemembered(['triggerId', 'triggerDrop'], 50_000, 540)).not.toThrow();
	});
});

'use strict';
// The trigger bench's deduplicating sides as its report names them: the list each keeps, and how
// many keys it was given before the first delivery (BENCH_KEYS), so that a run at 100 keys is
// not read as one at 10,000 or 20,000.

/** Drop Redelivered's Keys Remembered and Remove Duplicates' History Size when the two are compared: Remove Duplicates refuses a run once its stored keys plus the new ones exceed it. */
const HISTORY_SIZE = 20_000;
/** The sides whose lists both hold HISTORY_SIZE keys. */
const PAIR = ['triggerDropHistory', 'triggerRemoveDuplicates'];

const count = (/** @type {number} */ n) => n.toLocaleString('en-US');

/**
 * Each deduplicating side's label.
 * @param {number} keysRemembered  the keys in each list before the first delivery
 */
function deduplicatingLabels(keysRemembered) {
	const before = `${count(keysRemembered)} keys remembered before the first delivery`;
	return {
		triggerDrop: `Video Platform Trigger → Drop Redelivered (${before}) → No Op`,
		triggerDropHistory: `Video Platform Trigger → Drop Redelivered (Keys Remembered ${count(HISTORY_SIZE)}, ${before}) → No Op`,
		triggerRemoveDuplicates: `Video Platform Trigger → n8n's Remove Duplicates (previous executions, History Size ${count(HISTORY_SIZE)}, ${before}) → No Op`,
	};
}

/**
 * Throws before n8n starts when the pair's lists would overflow: Remove Duplicates refuses an
 * execution once its stored keys plus the new one exceed HISTORY_SIZE, and the bench would count
 * that refusal as a dropped delivery (the first one is the redelivery that proves the list read).
 * @param {string[]} sides
 * @param {number} keysRemembered  in each list before the first delivery
 * @param {number} deliveries  new deliveries each side gets in the run
 */
function checkKeysRemembered(sides, keysRemembered, deliveries) {
	if (keysRemembered + Math.max(deliveries, 1) > HISTORY_SIZE && sides.some((side) => PAIR.includes(side))) {
		throw new Error(
			`BENCH_KEYS ${keysRemembered} and ${deliveries} deliveries per side are more than the ${count(HISTORY_SIZE)} keys ${PAIR.join(' and ')} keep; pick fewer, or other sides with --sides`,
		);
	}
}

module.exports = { HISTORY_SIZE, deduplicatingLabels, checkKeysRemembered };

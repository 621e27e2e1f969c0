'use strict';
// The benches' arithmetic, one definition each: medians, percentiles, spreads, ratios of one side
// to another, and a ratio's verdict against a target given its spread.

/** The middle value, or the mean of the two middle ones for an even count. */
const median = (/** @type {number[]} */ values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** The nearest-rank percentile: the least value with at least q of the values at or below it (p99 of latencies). */
const quantile = (/** @type {number[]} */ values, /** @type {number} */ q) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1))];
};

/** (max − min) / median of repeated values: the spread printed beside a ratio. */
const spread = (/** @type {number[]} */ values) => (Math.max(...values) - Math.min(...values)) / median(values);

/** Each round's subject / base: the rounds were taken side by side, so a slow round divides out. */
const perRound = (/** @type {number[]} */ subject, /** @type {number[]} */ base) => subject.map((value, i) => value / base[i]);

/**
 * The ratio of the medians, with the spread of the per-round ratios beside it.
 * @param {number[]} subject  one value per round
 * @param {number[]} base  the same rounds, in the same order
 */
function ratio(subject, base) {
	return { value: median(subject) / median(base), spread: spread(perRound(subject, base)) };
}

/**
 * The median of the per-round ratios (`npm run bench`, whose rounds pair the sides more tightly).
 * @param {number[]} subject  one value per round
 * @param {number[]} base  the same rounds' values of the base
 */
const pairedRatio = (subject, base) => median(perRound(subject, base));

/**
 * The spread of the medians of consecutive blocks of `block` values (a shorter last block left
 * out): how far repeated medians of the same measure disagree. Infinity with fewer than two blocks.
 * @param {number[]} values  e.g. per-round ratios
 * @param {number} block
 */
function blockSpread(values, block) {
	const medians = [];
	for (let start = 0; start + block <= values.length; start += block) medians.push(median(values.slice(start, start + block)));
	return medians.length < 2 ? Infinity : spread(medians);
}

/**
 * A ratio against its target: undecided when the gap to the target, relative to the ratio as the
 * spread is, is narrower than the spread, whichever side of the target the ratio is on.
 * @param {{ value: number, spread: number }} measured
 * @param {number} target
 * @param {boolean} met
 * @returns {'pass' | 'miss' | 'undecided'}
 */
function against(measured, target, met) {
	if (Math.abs(measured.value - target) / measured.value < measured.spread) return 'undecided';
	return met ? 'pass' : 'miss';
}

module.exports = { median, quantile, spread, perRound, ratio, pairedRatio, blockSpread, against };

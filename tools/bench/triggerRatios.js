'use strict';
// The trigger bench's arithmetic: medians, spreads, ratios of one side to another and their
// verdicts against a target.

const median = (/** @type {number[]} */ values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const quantile = (/** @type {number[]} */ values, /** @type {number} */ q) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
/** (max − min) / median of repeated values, the spread printed beside a ratio. */
const spread = (/** @type {number[]} */ values) => (Math.max(...values) - Math.min(...values)) / median(values);

/**
 * A ratio of medians with the spread of the per-round ratios beside it.
 * @param {number[]} subject
 * @param {number[]} base  the same rounds, in the same order
 */
function ratio(subject, base) {
	const perRound = subject.map((value, i) => value / base[i]);
	return { value: median(subject) / median(base), spread: spread(perRound) };
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

/** The rows' targets: deliveries/s at least 0.95 × the baseline's, p99 at most 1.1 ×. */
const RATE_TARGET = 0.95;
const P99_TARGET = 1.1;

/**
 * A row's verdict from its two ratios: a miss if either misses, undecided if either is.
 * @param {{ value: number, spread: number }} rate
 * @param {{ value: number, spread: number }} p99
 */
function rowVerdict(rate, p99) {
	const outcomes = [against(rate, RATE_TARGET, rate.value >= RATE_TARGET), against(p99, P99_TARGET, p99.value <= P99_TARGET)];
	return outcomes.includes('miss') ? 'miss' : outcomes.includes('undecided') ? 'within noise: spread wider than the gap' : 'pass';
}

/**
 * Whether a row's baseline is n8n's Webhook node on an n8n that spares that node alone the
 * expression isolate on the webhook path (2.x), which makes it a reference there, not a target.
 * @param {string} baseKey  the baseline side's key
 * @param {string} n8nVersion
 */
function isIsolateExempt(baseKey, n8nVersion) {
	return baseKey.startsWith('webhook') && Number(n8nVersion.split('.')[0]) >= 2;
}

module.exports = { median, quantile, spread, ratio, against, rowVerdict, isIsolateExempt, RATE_TARGET, P99_TARGET };

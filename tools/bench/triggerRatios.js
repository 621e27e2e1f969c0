'use strict';
// The trigger bench's verdicts: a row against its targets, and which baselines are a reference only.
const { against } = require('./stats');

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

module.exports = { rowVerdict, isIsolateExempt, RATE_TARGET, P99_TARGET };

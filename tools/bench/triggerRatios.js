'use strict';
// The trigger bench's verdicts: a row against its targets, which baselines are a reference only,
// and execution times against their target.
const { median, ratio, against } = require('./stats');

/** The rows' targets: deliveries/s at least 0.95 × the baseline's, p99 at most 1.1 ×. */
const RATE_TARGET = 0.95;
const P99_TARGET = 1.1;
/** A deduplicating side's execution time at most 1.1 × its baseline's. */
const EXECUTION_TARGET = 1.1;

const pct = (/** @type {number} */ x) => `${(x * 100).toFixed(0)} %`;

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

/**
 * A line of the execution times compared, the subject's median first as in "subject against base".
 * @param {number} concurrency
 * @param {number[]} subject  the subject's execution time per round, in ms
 * @param {number[]} base  the baseline's, the same rounds
 */
function executionTimeLine(concurrency, subject, base) {
	const times = ratio(subject, base);
	const verdict = against(times, EXECUTION_TARGET, times.value <= EXECUTION_TARGET);
	return `- concurrency ${concurrency}: ${median(subject)} ms against ${median(base)} ms: ${times.value.toFixed(2)}x (spread ${pct(times.spread)}), ${verdict === 'undecided' ? 'within noise: spread wider than the gap' : verdict}`;
}

module.exports = { rowVerdict, isIsolateExempt, executionTimeLine, pct, RATE_TARGET, P99_TARGET, EXECUTION_TARGET };

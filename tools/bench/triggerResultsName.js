'use strict';
// The trigger bench's results file name: the default run's is trigger-results.md; whatever differs
// from it (queue mode, the sides picked, the keys remembered, n8n's version and settings, the
// trigger's version) is named in it, so that a variant never replaces the default run's file.

/** Drop Redelivered's Keys Remembered unless BENCH_KEYS says otherwise. */
const DEFAULT_KEYS = 10_000;
/** The trigger's version for new workflows, unless BENCH_TRIGGER_VERSION says otherwise. */
const DEFAULT_TRIGGER_VERSION = 1.1;

/**
 * @param {{ queue?: boolean, sides?: string[], keysRemembered?: number, n8nVersion?: string, n8nEnv?: Record<string, string>, triggerVersion?: number }} run  `sides` only when picked (--sides)
 */
function triggerResultsName({ queue = false, sides = [], keysRemembered = DEFAULT_KEYS, n8nVersion, n8nEnv = {}, triggerVersion = DEFAULT_TRIGGER_VERSION }) {
	const parts = [
		queue ? 'queue' : '',
		...sides,
		keysRemembered === DEFAULT_KEYS ? '' : `${keysRemembered}-keys`,
		n8nVersion ? `n8n-${n8nVersion}` : '',
		...Object.keys(n8nEnv).map((name) => name.replace(/^N8N_/, '').toLowerCase()),
		triggerVersion === DEFAULT_TRIGGER_VERSION ? '' : `trigger-v${triggerVersion}`,
	];
	return `${['trigger-results', ...parts.filter(Boolean)].join('-')}.md`;
}

module.exports = { triggerResultsName, DEFAULT_KEYS, DEFAULT_TRIGGER_VERSION };

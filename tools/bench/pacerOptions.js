'use strict';
// The command-line options pacer.js and pacer-sim.js share: the same run, in n8n's client or in simulated time.

/** parseArgs options for the rate limit, the items, the concurrency and the sandbox's latency. */
const RUN_OPTIONS = /** @type {const} */ ({
	rate: { type: 'string', default: '50' },
	items: { type: 'string', default: '1000' },
	concurrency: { type: 'string', default: '10' },
	latency: { type: 'string', default: '20' },
});

module.exports = { RUN_OPTIONS };

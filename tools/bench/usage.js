'use strict';
// Reads what process-usage.js wrote for one measured `n8n execute`.
const fs = require('node:fs');

/**
 * @typedef {{ peakRss: number, cpu: [number, number][], clock: [number, number] }} Usage
 *   cpu: [epoch ms, CPU µs] in time order; clock: an epoch ms and the same instant on the monotonic clock (µs)
 */

/** @returns {Usage} */
function readUsage(/** @type {string} */ file) {
	return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/**
 * CPU ms the process used within a window, read linearly between its nearest samples.
 * @param {Usage['cpu']} samples
 * @param {[number, number]} window  epoch ms
 */
function cpuWithin(samples, [from, to]) {
	const at = (/** @type {number} */ t) => {
		const after = samples.findIndex(([time]) => time >= t);
		if (after <= 0) return samples[after === 0 ? 0 : samples.length - 1][1];
		const [[t0, c0], [t1, c1]] = [samples[after - 1], samples[after]];
		return c0 + ((c1 - c0) * (t - t0)) / (t1 - t0);
	};
	return (at(to) - at(from)) / 1000;
}

module.exports = { readUsage, cpuWithin };

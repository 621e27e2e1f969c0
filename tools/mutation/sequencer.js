'use strict';
// The order of a mutant's test files. Stryker runs them in one process, and once a test fails the
// rest are skipped (bailEnvironment.js), so the sooner the killing file runs, the shorter the run.
// Jest's own order (slowest first, to keep parallel workers busy) suits a full run, not this one.
const path = require('node:path');

const Sequencer = require('@jest/test-sequencer').default;

/** The test file named after the mutated file, set by testFileRunner.mjs for each mutant. */
const MIRROR_ENV = 'VIDEOPLATFORM_MUTANT_TEST_FILE';

/**
 * First the files that failed in the last run (they killed the mutant before, which is often this
 * one's neighbour), then the file named after the mutated file, then the quickest.
 * @template {{ path: string }} T
 * @param {T[]} files
 * @param {{ failed: (file: T) => boolean, duration: (file: T) => number | undefined, mirror?: string }} known
 * @returns {T[]}
 */
function runOrder(files, { failed, duration, mirror }) {
	const rank = (/** @type {T} */ file) => [failed(file) ? 0 : 1, file.path === mirror ? 0 : 1, duration(file) ?? Number.MAX_VALUE];
	const ranked = files.map((file) => ({ file, rank: rank(file) }));
	ranked.sort((a, b) => compare(a.rank, b.rank) || a.file.path.localeCompare(b.file.path));
	return ranked.map(({ file }) => file);
}

/** @param {number[]} a @param {number[]} b */
function compare(a, b) {
	for (let at = 0; at < a.length; at++) if (a[at] !== b[at]) return a[at] - b[at];
	return 0;
}

/** The test file named after a source file: `test/` and the same path, `.test.ts` for `.ts` (test/crossModule/testsMirrorSource.test.ts). */
function mirrorTestFile(/** @type {string} */ root, /** @type {string} */ sourceFile) {
	return path.join(root, 'test', path.relative(root, sourceFile).replace(/\.ts$/, '.test.ts'));
}

class MutantSequencer extends Sequencer {
	/** @param {Parameters<Sequencer['sort']>[0]} tests */
	sort(tests) {
		// Jest's reading of its results cache, public in its code, private in its types.
		const cache = /** @type {{ hasFailed(test: object): boolean, time(test: object): number | undefined }} */ (/** @type {unknown} */ (this));
		return runOrder(tests, { failed: (test) => cache.hasFailed(test), duration: (test) => cache.time(test), mirror: process.env[MIRROR_ENV] });
	}
}

module.exports = MutantSequencer;
module.exports.runOrder = runOrder;
module.exports.MIRROR_ENV = MIRROR_ENV;
module.exports.mirrorTestFile = mirrorTestFile;

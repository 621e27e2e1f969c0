'use strict';
// Jest's node environment that, in a mutation run, skips a mutant's remaining tests once one has failed:
// the mutant is killed, and jest cannot be told to bail from code. Without it a mutant of the redaction
// runs all of its hundred covering tests, property tests of hundreds of runs among them, every time.
// Stryker names the mutant being run in this variable; in its first run (no mutant), every test runs.
const { TestEnvironment } = require('jest-environment-node');

const ACTIVE_MUTANT = '__STRYKER_ACTIVE_MUTANT__';
/** The mutant a test has failed for. Module state: Stryker runs every test file in this one process. */
/** @type {string | undefined} */
let killed;

class BailEnvironment extends TestEnvironment {
	/** @param {{ name: string, test?: { mode?: string } }} event */
	async handleTestEvent(event) {
		const mutant = process.env[ACTIVE_MUTANT];
		if (mutant === undefined) return;
		if (event.name === 'test_fn_failure' || event.name === 'hook_failure') killed = mutant;
		else if (event.name === 'test_start' && killed === mutant && event.test) event.test.mode = 'skip';
	}
}

module.exports = BailEnvironment;

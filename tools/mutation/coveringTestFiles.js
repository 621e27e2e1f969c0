'use strict';
// The test files a mutant's run needs: those holding the tests that cover it, or for a static mutant
// its own file's test file first (testFileRunner.mjs).

const escaped = (/** @type {string} */ text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const exactPath = (/** @type {string} */ file) => `^${escaped(file)}$`;

/**
 * @param {string[] | undefined} testIds  the tests that cover the mutant (undefined: all of them)
 * @param {Map<string, string>} fileOf  test id → its file, as the first run found them
 * @returns {string[] | undefined}  each file once, as the exact pattern jest reads a path argument as;
 *   undefined when a test's file is not known, so that the mutant runs the usual way
 */
function coveringTestFiles(testIds, fileOf) {
	if (!testIds) return undefined;
	const files = testIds.map((id) => fileOf.get(id));
	if (!files.every((file) => file !== undefined)) return undefined;
	return [...new Set(files)].map((file) => exactPath(String(file)));
}

/**
 * Runs a mutant with the test files it needs (`run(undefined)`: every test file that imports its
 * file, Stryker's way). A static mutant (a module-level constant, run as its module loads) has no
 * covering tests, and every test file importing its file is 40 or more, minutes: it runs its own
 * file's test file first, and the others only if that file does not notice it.
 * @template {{ status: string }} R
 * @param {(testFiles: string[] | undefined) => Promise<R>} run
 * @param {string[] | undefined} testIds  the tests that cover the mutant (undefined: a static mutant, or no coverage known)
 * @param {Map<string, string>} fileOf  test id → its file
 * @param {string | undefined} ownTestFile  the test file named after the mutated file, when there is one
 * @returns {Promise<R>}
 */
async function runMutant(run, testIds, fileOf, ownTestFile) {
	if (testIds !== undefined || ownTestFile === undefined) return await run(coveringTestFiles(testIds, fileOf));
	const result = await run([exactPath(ownTestFile)]);
	return result.status === 'survived' ? await run(undefined) : result;
}

module.exports = { coveringTestFiles, runMutant };

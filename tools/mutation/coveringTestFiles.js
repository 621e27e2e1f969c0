'use strict';
// The test files a mutant's run needs: those holding the tests that cover it, or for a static mutant
// its own file's test file (testFileRunner.mjs).

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
 * A static mutant (a module-level constant, run as its module loads) has no covering tests, and
 * Stryker would run every test file that imports its file: 40 or more, for minutes. It runs its
 * file's own test file only: a mutant that file does not notice survives, never the reverse.
 * @param {string[] | undefined} testIds  the tests that cover the mutant (undefined: a static mutant, or no coverage known)
 * @param {Map<string, string>} fileOf  test id → its file
 * @param {string | undefined} ownTestFile  the test file named after the mutated file, when there is one
 * @returns {string[] | undefined}  as coveringTestFiles
 */
function mutantTestFiles(testIds, fileOf, ownTestFile) {
	if (testIds === undefined && ownTestFile !== undefined) return [exactPath(ownTestFile)];
	return coveringTestFiles(testIds, fileOf);
}

module.exports = { coveringTestFiles, mutantTestFiles };

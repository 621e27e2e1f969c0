'use strict';
// The test files a mutant's run needs: those holding the tests that cover it (testFileRunner.mjs).

const escaped = (/** @type {string} */ text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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
	return [...new Set(files)].map((file) => `^${escaped(String(file))}$`);
}

module.exports = { coveringTestFiles };

'use strict';
const path = require('node:path');

const { mutantKey } = require('./changed');

// The test files a mutant's run needs: those holding the tests that cover it, or for a static mutant
// its own file's test file and the test files that can change its last result first (testFileRunner.mjs).

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
 * A static mutant's last result, with the test files that can change it: those whose tests killed
 * it, and every test file of the first run changed since (absolute, as jest reads them).
 * @param {import('./changed').PriorStatic} prior  changed.js `priorStaticResults`
 * @param {{ fileName: string, mutatorName: string, replacement?: string, location: { start: Position, end: Position } }} mutant
 *   as Stryker gives it to a test runner, its file absolute, lines and columns counted from 0
 * @param {string} root  the folder the results' paths are relative to
 * @param {Iterable<string>} testFiles  every test file of the first run, absolute
 * @returns {{ status: string, testFiles: string[] } | undefined}  undefined when nothing is known of it
 * @typedef {{ line: number, column: number }} Position
 */
function lastResultOf(prior, mutant, root, testFiles) {
	// Stryker counts from 0 here and from 1 in its reports, where the results come from.
	const fromOne = (/** @type {Position} */ { line, column }) => ({ line: line + 1, column: column + 1 });
	const location = { start: fromOne(mutant.location.start), end: fromOne(mutant.location.end) };
	const found = prior.mutants[mutantKey(path.relative(root, mutant.fileName), { ...mutant, location })];
	if (!found) return undefined;
	const all = [...new Set(testFiles)];
	const unchanged = new Set(prior.unchangedTestFiles);
	const killers = found.killerFiles.map((file) => path.join(root, file)).filter((file) => all.includes(file));
	const changedSince = all.filter((file) => !unchanged.has(path.relative(root, file)));
	return { status: found.status, testFiles: [...new Set([...killers, ...changedSince])] };
}

/**
 * Runs a mutant with the test files it needs (`run(undefined)`: every test file that imports its
 * file, Stryker's way). A static mutant (a module-level constant, run as its module loads) has no
 * covering tests, and every test file importing its file is 40 or more, minutes: it runs first its
 * own file's test file and, when its file is unchanged since its last result (`prior`), the test files
 * likeliest to kill it: those that killed it and those changed since. Only if they do not notice it
 * does it run the others. (A survivor of them all last time runs them all again: what else changed
 * since, helpers or other product files, is not recorded, so it cannot be told unchanged.)
 * @template {{ status: string }} R
 * @param {(testFiles: string[] | undefined) => Promise<R>} run
 * @param {string[] | undefined} testIds  the tests that cover the mutant (undefined: a static mutant, or no coverage known)
 * @param {Map<string, string>} fileOf  test id → its file
 * @param {string | undefined} ownTestFile  the test file named after the mutated file, when there is one
 * @param {{ status: string, testFiles: string[] }} [prior]  a static mutant's last result and the test files that can change it
 * @returns {Promise<R>}
 */
async function runMutant(run, testIds, fileOf, ownTestFile, prior) {
	if (testIds !== undefined) return await run(coveringTestFiles(testIds, fileOf));
	const first = [...new Set([...(ownTestFile === undefined ? [] : [ownTestFile]), ...(prior?.testFiles ?? [])])];
	if (first.length === 0) return await run(undefined);
	const result = await run(first.map(exactPath));
	return result.status === 'survived' ? await run(undefined) : result;
}

module.exports = { coveringTestFiles, lastResultOf, runMutant };

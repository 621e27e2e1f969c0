'use strict';
// What a mutation run has found so far, in the form of Stryker's incremental report, so that a run
// stopped part-way (a session's end, a machine's restart) is resumed where it was: run.js merges it
// into the incremental file the next run starts from, and Stryker reuses each result whose code and
// covering tests are unchanged. Stryker itself writes its report only once every mutant is tested.
const path = require('node:path');

/**
 * @typedef {{ line: number, column: number }} Position
 * @typedef {{ id: string, name: string, fileName?: string, startPosition?: Position }} DryRunTest  0-based, as runners give it
 * @typedef {{ fileName: string, id: string, location: { start: Position, end: Position }, coveredBy?: string[], killedBy?: string[] }} TestedMutant
 * @typedef {{ files: Record<string, { language: string, source: string, mutants: Omit<TestedMutant, "fileName">[] }>, testFiles: Record<string, { source?: string, tests: { id: string, name: string, location?: { start: Position } }[] }>, schemaVersion: string, thresholds: object, planned: Record<string, number>, mutated: string[] }} ProgressReport
 *   planned: how many mutants of each file the run was to test or reuse; mutated: the files it mutates (not Stryker's: run.js reads them)
 */

const relative = (/** @type {string} */ root, /** @type {string} */ file) => path.relative(root, file).split(path.sep).join('/');

/**
 * @param {{ root: string, sources: Map<string, string>, planned: Map<string, number>, tests: DryRunTest[], testSources: Map<string, string>, tested: TestedMutant[], mutated: Set<string> }} run
 *   sources and testSources by absolute file name, as the run read them when it began; mutated: the
 *   files the run mutates, by absolute file name (a file mutated in part counts: --changed never does that)
 * @returns {ProgressReport}
 */
function progressReport({ root, sources, planned, tests, testSources, tested, mutated }) {
	/** @type {ProgressReport['files']} */
	const files = {};
	for (const { fileName, ...mutant } of tested) {
		const source = sources.get(fileName);
		// A result for a file whose text the run did not keep cannot be matched to that text later.
		if (source === undefined) continue;
		// Stryker also reports the results it carries over for the files it does not mutate, without their
		// static flag and naming tests it did not run: kept, they would turn good results stale.
		if (!mutated.has(fileName)) continue;
		const name = relative(root, fileName);
		files[name] ??= { language: path.extname(fileName) === '.ts' ? 'typescript' : 'javascript', source, mutants: [] };
		files[name].mutants.push(mutant);
	}
	/** @type {ProgressReport['testFiles']} */
	const testFiles = {};
	for (const { id, name, fileName = '', startPosition } of tests) {
		const file = fileName === '' ? '' : relative(root, fileName);
		testFiles[file] ??= { source: testSources.get(fileName), tests: [] };
		// Runners count lines and columns from 0, the report from 1.
		const location = startPosition && { start: { line: startPosition.line + 1, column: startPosition.column + 1 } };
		testFiles[file].tests.push({ id, name, ...(location && { location }) });
	}
	const plannedByName = Object.fromEntries([...planned].filter(([file]) => mutated.has(file)).map(([file, count]) => [relative(root, file), count]));
	const mutatedByName = [...mutated].map((file) => relative(root, file)).sort();
	return { schemaVersion: '1.0', thresholds: { high: 80, low: 60, break: null }, files, testFiles, planned: plannedByName, mutated: mutatedByName };
}

module.exports = { progressReport };

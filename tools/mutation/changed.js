'use strict';
// Which guarantee files a partial mutation run (`--changed`) must test: those whose text is not the
// text the incremental file last tested, and those whose covering test files changed since (a change
// that only weakens or removes tests is the usual way a suite stops biting), and those a saved run
// stopped part-way in (fewer results than it was to test: their text alone does not show it), and
// those holding a stale result (below); a run that keeps nothing (`--changed` without `--save`: CI's)
// leaves the last two to a saved run. Compared by content, not by commit, so that committing the
// incremental file after a partial run hides no other changed file. Only the guarantee files and the
// test files covering their mutants are read: a change to a helper, or to a product file they import,
// is not noticed (docs/development.md says how to re-test after one).

/**
 * @typedef {{ line: number, column: number }} Position
 * @typedef {{ status?: string, coveredBy?: string[], killedBy?: string[], static?: boolean, statusReason?: string,
 *   mutatorName?: string, replacement?: string, location?: { start: Position, end: Position } }} MutantEntry
 * @typedef {{
 *   files?: Record<string, { source?: string, mutants?: MutantEntry[] }>,
 *   testFiles?: Record<string, { source?: string, tests?: { id: string }[] }>,
 * }} Incremental
 * @typedef {{ unchangedTestFiles: string[], mutants: Record<string, { status: string, killerFiles: string[] }> }} PriorStatic
 *   the last results of static mutants by mutantKey, and the test files whose text is the text last tested
 */

/**
 * A result Stryker would not give today but reuses as long as the code is unchanged:
 * - a test ran the mutant, yet no test covers it and it is not static: a module-level constant's
 *   mutant tested when a test reloaded its module, a test since changed or gone. Such a "survived" is
 *   no survivor: the mutant is tested afresh.
 * - a kill by jest's default time limit of 5 s per test, given before these runs raised it: a test
 *   slowed by the load of two runs on two cores failed it as readily as one a mutant made hang.
 */
const staleResult = (/** @type {MutantEntry} */ { status, coveredBy = [], static: isStatic, statusReason = '' }) =>
	(['Killed', 'Survived', 'Timeout'].includes(String(status)) && coveredBy.length === 0 && !isStatic) ||
	(status === 'Killed' && /^Error: thrown: "Exceeded timeout of 5000 ms for a test/.test(statusReason));

/**
 * A static mutant that survived: it was tested with every test file importing its file, and Stryker
 * reuses the result as long as its file is unchanged, whatever tests were added since (a static
 * mutant has no covering tests to compare). It is tested again whenever its file is tested.
 */
const staticSurvivor = (/** @type {MutantEntry} */ { status, static: isStatic }) => isStatic === true && status === 'Survived';

/**
 * The incremental report without the stale results and static survivors of the files a run tests,
 * for Stryker to test those mutants afresh. Other files keep theirs: Stryker carries a file it does
 * not test over as it was given, and a result dropped there would be lost when the run is saved.
 * @template {Incremental} T
 * @param {T} incremental
 * @param {(file: string) => boolean} [tested]  whether the run tests the file whole (a full run: every file)
 * @returns {T}
 */
function withoutStaleResults(incremental, tested = () => true) {
	const fresh = (/** @type {string} */ file, /** @type {MutantEntry} */ mutant) => !tested(file) || (!staleResult(mutant) && !staticSurvivor(mutant));
	const files = Object.entries(incremental.files ?? {}).map(([file, entry]) => [file, { ...entry, mutants: (entry.mutants ?? []).filter((mutant) => fresh(file, mutant)) }]);
	return { ...incremental, files: Object.fromEntries(files) };
}

/**
 * @param {string[]} files  the guarantee files, relative to the repository
 * @param {Incremental | undefined} incremental  mutation/incremental.json, parsed (undefined: none yet)
 * @param {(file: string) => string | undefined} read  a file's text now (undefined: the file is gone)
 * @param {Record<string, number>} [planned]  mutation/unfinished.json: how many mutants a file stopped part-way was to test
 * @param {{ changedOnly?: boolean }} [options]  changedOnly: only the files a change can have broken (their text or
 *   covering tests changed), not those part-way or holding a stale result, whose text and tests are as last tested:
 *   a run that keeps nothing (CI's) would test those again every time and learn nothing new
 * @returns {string[]}
 */
function untestedFiles(files, incremental, read, planned = {}, { changedOnly = false } = {}) {
	const tested = new Map(Object.entries(incremental?.files ?? {}));
	/** @type {Map<string, string>} a test's id to its file */
	const fileOfTest = new Map();
	const changedTestFiles = new Set();
	for (const [testFile, { source, tests = [] }] of Object.entries(incremental?.testFiles ?? {})) {
		for (const { id } of tests) fileOfTest.set(id, testFile);
		if (source !== read(testFile)) changedTestFiles.add(testFile);
	}
	const testsChanged = (/** @type {string} */ file) =>
		(tested.get(file)?.mutants ?? []).some(({ coveredBy = [] }) => coveredBy.some((id) => changedTestFiles.has(fileOfTest.get(id))));
	const partWay = (/** @type {string} */ file) => (tested.get(file)?.mutants?.length ?? 0) < (planned[file] ?? 0);
	const stale = (/** @type {string} */ file) => (tested.get(file)?.mutants ?? []).some(staleResult);
	const changed = (/** @type {string} */ file) => tested.get(file)?.source !== read(file) || testsChanged(file);
	return files.filter((file) => changed(file) || (!changedOnly && (partWay(file) || stale(file))));
}

/**
 * A mutant's name across runs (Stryker numbers mutants anew in each): its file, mutator, replacement and place.
 * @param {string} file
 * @param {MutantEntry} mutant
 */
const mutantKey = (file, { mutatorName, replacement, location }) =>
	JSON.stringify([file, mutatorName, replacement, location?.start.line, location?.start.column, location?.end.line, location?.end.column]);

/**
 * What the last results say of each static mutant whose file is unchanged since, for the run to test
 * it first with the test files that can change that result (coveringTestFiles.js `runMutant`): the
 * files of the tests that killed it, and the test files whose text is not the text last tested.
 * @param {Incremental} incremental  the results the run starts from
 * @param {(file: string) => string | undefined} read  a file's text now
 * @param {Incremental['testFiles']} [testedWith]  the test files' texts the oldest of these results were tested with
 *   (a resumed run merges newer results into older ones, and keeps only the newer texts)
 * @returns {PriorStatic}
 */
function priorStaticResults(incremental, read, testedWith = incremental.testFiles) {
	/** @type {Map<string, string>} */
	const fileOfTest = new Map();
	const unchangedTestFiles = [];
	for (const [testFile, { tests = [] }] of Object.entries(incremental.testFiles ?? {})) for (const { id } of tests) fileOfTest.set(id, testFile);
	for (const [testFile, { source }] of Object.entries(testedWith ?? {})) if (source !== undefined && source === read(testFile)) unchangedTestFiles.push(testFile);
	/** @type {Record<string, { status: string, killerFiles: string[] }>} */
	const mutants = {};
	for (const [file, { source, mutants: list = [] }] of Object.entries(incremental.files ?? {})) {
		if (source === undefined || source !== read(file)) continue;
		for (const mutant of list) {
			if (!mutant.static || staleResult(mutant) || !['Killed', 'Survived', 'Timeout'].includes(String(mutant.status))) continue;
			const killerFiles = (mutant.killedBy ?? []).flatMap((id) => fileOfTest.get(id) ?? []);
			mutants[mutantKey(file, mutant)] = { status: String(mutant.status), killerFiles: [...new Set(killerFiles)] };
		}
	}
	return { unchangedTestFiles, mutants };
}

/**
 * The files with fewer results than planned: a stopped run's files, its plan kept in
 * mutation/unfinished.json, or carried over by the run that resumed it.
 * @param {Incremental} report
 * @param {Record<string, number>} planned
 * @returns {{ file: string, tested: number, planned: number }[]}
 */
function unfinishedIn(report, planned) {
	return Object.entries(planned)
		.map(([file, count]) => ({ file, tested: report.files?.[file]?.mutants?.length ?? 0, planned: Number(count) }))
		.filter(({ tested, planned: all }) => tested < all);
}

/**
 * What is still to test once a run ended: the plans kept before it, but for the files it tested to
 * the end (their results are whole, whatever their count was before a change), and the plan of a
 * stopped run it resumed for the files it did not test itself.
 * @param {Record<string, number>} kept  mutation/unfinished.json as the run found it
 * @param {Record<string, number>} resumed  the resumed run's plan for the files this run did not test
 * @param {(file: string) => boolean} testedToTheEnd  a file this run tested
 * @returns {Record<string, number>}
 */
function planAfterRun(kept, resumed, testedToTheEnd) {
	return { ...Object.fromEntries(Object.entries(kept).filter(([file]) => !testedToTheEnd(file))), ...resumed };
}

module.exports = { mutantKey, planAfterRun, priorStaticResults, unfinishedIn, untestedFiles, withoutStaleResults };

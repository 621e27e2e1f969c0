'use strict';
// Keeps a partial run's results (`--save`): its files replace theirs in the kept incremental report,
// the other files stay. Stryker numbers the tests of each report anew, so the tests of both are
// matched by test file and name and numbered once more; a result that names a test the newer run
// no longer has loses that test, and Stryker then runs that mutant again. A test file covering kept
// mutants that the run did not test again keeps its older text: those mutants were tested against it,
// so a change of it still shows (`--changed`, Stryker's own reuse); its tests keep their places in
// that text, since Stryker compares each test's text to tell which changed.

/**
 * @typedef {{ id: string, name: string, location?: { start: { line: number, column: number } } }} Test
 * @typedef {{ id: string, coveredBy?: string[], killedBy?: string[], static?: boolean }} Mutant
 * @typedef {{ files: Record<string, { mutants: Mutant[] }>, testFiles?: Record<string, { source?: string, tests: Test[] }> }} Report
 */

/** A report's test ids → test file and name. */
function testKeys(/** @type {Report} */ report) {
	const keys = new Map();
	for (const [file, { tests }] of Object.entries(report.testFiles ?? {})) for (const test of tests) keys.set(test.id, `${file}\0${test.name}`);
	return keys;
}

/**
 * A test file's newer tests read against its older text: each test at its place in that text, a test
 * the older text lacks without a place (Stryker then takes it to span the file). With the newer
 * places, Stryker would read every test as changed, and test again every mutant they cover.
 * @param {{ source?: string, tests: Test[] }} newer
 * @param {{ source?: string, tests: Test[] }} older
 */
function withOlderText(newer, older) {
	const olderPlaces = new Map(older.tests.map((test) => [test.name, test.location]));
	const tests = newer.tests.map((test) => {
		const unplaced = /** @type {Test} */ (Object.fromEntries(Object.entries(test).filter(([key]) => key !== 'location')));
		const location = olderPlaces.get(test.name);
		return location ? { ...unplaced, location } : unplaced;
	});
	return { ...newer, source: older.source, tests };
}

/**
 * @param {Report} kept  the committed incremental report
 * @param {Report} run  the partial run's report: its files and test files win
 * @param {(file: string) => boolean} stillTested  whether a kept file is still a guarantee file that exists
 * @param {(file: string) => boolean} [mutatedByRun]  whether the run mutated a file: Stryker's report carries
 *   the others over without their static flag (progress.js), so the kept results stay for those, and
 *   a file only the run holds but did not mutate (a resumed run's carried over) is left to a later run
 * @returns {Report}
 */
function mergeReports(kept, run, stillTested, mutatedByRun = () => true) {
	/** @type {Map<string, string>} */
	const ids = new Map();
	/** @type {Record<string, { source?: string, tests: Test[] }>} */
	const testFiles = {};
	const runFiles = Object.keys(run.files).filter(mutatedByRun);
	const keptOnly = Object.keys(kept.files).filter((file) => !runFiles.includes(file) && stillTested(file));
	const keptKeys = testKeys(kept);
	const coveringKept = new Set(
		keptOnly.flatMap((file) => kept.files[file].mutants.flatMap(({ coveredBy = [] }) => coveredBy.map((id) => String(keptKeys.get(id) ?? '').split('\0')[0]))),
	);
	for (const [file, newer] of Object.entries({ ...kept.testFiles, ...run.testFiles })) {
		const older = kept.testFiles?.[file];
		const entry = older && coveringKept.has(file) ? withOlderText(newer, older) : newer;
		const tests = [];
		for (const test of entry.tests) {
			const key = `${file}\0${test.name}`;
			if (ids.has(key)) continue;
			ids.set(key, String(ids.size));
			tests.push({ ...test, id: String(ids.get(key)) });
		}
		testFiles[file] = { ...entry, tests };
	}

	let mutantId = 0;
	const renumbered = (/** @type {Report} */ report, /** @type {string[]} */ names) => {
		const keys = testKeys(report);
		/** @param {string[] | undefined} list */
		const mapped = (list) => list && list.map((id) => ids.get(keys.get(id) ?? '')).filter((id) => id !== undefined);
		return names.map((file) => {
			const entry = report.files[file];
			const mutants = entry.mutants.map((mutant) => ({ ...mutant, id: String(mutantId++), coveredBy: mapped(mutant.coveredBy), killedBy: mapped(mutant.killedBy) }));
			return [file, { ...entry, mutants }];
		});
	};
	const files = Object.fromEntries([...renumbered(kept, keptOnly), ...renumbered(run, runFiles)].sort(([a], [b]) => String(a).localeCompare(String(b))));
	return { ...kept, ...run, files, testFiles };
}

module.exports = { mergeReports };

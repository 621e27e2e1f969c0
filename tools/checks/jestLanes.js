'use strict';
// The jest phase of `npm test`, as lanes side by side (test/sequencer.js says which file runs in
// which): two that keep the two cores busy, and one for the files that mostly wait on a real clock.
// Lane 2, the fast projects and then most light end-to-end files, starts at once and prints as it
// goes. Lanes 1 (the end-to-end files that load the machine) and 3 (those that wait) start once the
// first npm start running in the background has ended, so that no end-to-end file installs n8n
// before that start has met the cold cache (test/e2e/start.e2e.test.ts checks that it did); their
// output goes to logs, printed when every lane has ended. Their results become one file.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { repoRoot, scratchRoot } = require('../common/paths');
const { recordPhase } = require('./phases');

const JEST = path.join(repoRoot, 'node_modules', 'jest', 'bin', 'jest.js');
const PROJECTS = ['--selectProjects', 'unit', 'workflows', 'package', 'e2e'];
const LANES = {
	1: 'jest lane 1: the heavy end-to-end files',
	2: 'jest lane 2: unit, workflows, package, the light end-to-end files',
	3: "jest lane 3: the end-to-end files that wait on n8n's clock",
};
const LANE_COUNT = Object.keys(LANES).length;
/** The lanes that start once the first npm start has ended, their output in a log each. */
const LATER_LANES = /** @type {const} */ ([1, 3]);

/** The counts the summary reads, zero when no lane wrote results. */
const COUNTS = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0, numTotalTests: 0, numRuntimeErrorTestSuites: 0 };

const resultsOf = (/** @type {number} */ lane) => path.join(scratchRoot, `jest-results-lane-${lane}.json`);
const logOf = (/** @type {number} */ lane) => path.join(scratchRoot, `jest-lane-${lane}.log`);

/**
 * Runs one lane; resolves with its exit code once it has ended, its time recorded.
 * @param {1 | 2 | 3} lane
 * @param {'inherit' | number} output  where its output goes
 * @returns {Promise<number>}
 */
function runLane(lane, output) {
	const started = performance.now();
	fs.rmSync(resultsOf(lane), { force: true });
	// One test file at a time in each lane, whatever the number of cores.
	const args = [JEST, ...PROJECTS, `--shard=${lane}/${LANE_COUNT}`, '--maxWorkers=1', '--json', `--outputFile=${resultsOf(lane)}`];
	const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', output, output] });
	// A stopped `npm test` stops its lanes (tools/checks/test.js turns SIGTERM and SIGINT into an exit).
	const stop = () => child.exitCode === null && child.kill();
	process.on('exit', stop);
	return new Promise((resolve) => {
		child.on('close', (code, signal) => {
			process.off('exit', stop);
			recordPhase(LANES[lane], (performance.now() - started) / 1000);
			resolve(code ?? (signal ? 1 : 0));
		});
	});
}

/**
 * The lanes' `jest --json` results as one: counts added up, the files listed together; a success
 * only when every lane wrote its results and succeeded.
 * @param {Array<Record<string, any> | undefined>} lanes
 */
function mergeResults(lanes) {
	const written = /** @type {Record<string, any>[]} */ (lanes.filter(Boolean));
	/** @type {Record<string, any>} */
	const merged = { ...COUNTS, ...written[0], testResults: written.flatMap((results) => results.testResults ?? []) };
	for (const key of Object.keys(merged).filter((name) => name.startsWith('num'))) {
		merged[key] = written.reduce((sum, results) => sum + (Number(results[key]) || 0), 0);
	}
	if (written.length) merged.startTime = Math.min(...written.map((results) => results.startTime));
	merged.success = written.length === lanes.length && written.every((results) => results.success === true);
	if (written.length < lanes.length) merged.numRuntimeErrorTestSuites = (merged.numRuntimeErrorTestSuites ?? 0) + lanes.length - written.length;
	return merged;
}

/** @param {string} file */
const readResults = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined);

/**
 * Runs every lane, lanes 1 and 3 once `laterLanesMayStart` has settled; writes the merged results
 * to `resultsFile` and resolves with 0 when every lane passed.
 * @param {{ laterLanesMayStart: Promise<unknown>, resultsFile: string }} options
 * @returns {Promise<number>}
 */
async function runJestLanes({ laterLanesMayStart, resultsFile }) {
	const started = performance.now();
	fs.rmSync(resultsFile, { force: true });
	for (const lane of LATER_LANES) {
		process.stdout.write(`[test] ${LANES[lane]} start once the first npm start has ended (output: ${path.relative(repoRoot, logOf(lane))}, printed at the end)\n`);
	}
	const light = runLane(2, 'inherit');
	const later = LATER_LANES.map((lane) => {
		const run = () => {
			const output = fs.openSync(logOf(lane), 'w');
			return runLane(lane, output).finally(() => fs.closeSync(output));
		};
		return laterLanesMayStart.then(run, run);
	});
	const codes = await Promise.all([light, ...later]);
	for (const lane of LATER_LANES) process.stdout.write(`\n[test] ${LANES[lane]}, its output:\n${fs.readFileSync(logOf(lane), 'utf8')}\n`);
	recordPhase('jest (all lanes)', (performance.now() - started) / 1000);
	fs.writeFileSync(resultsFile, JSON.stringify(mergeResults(Object.keys(LANES).map((lane) => readResults(resultsOf(Number(lane)))))));
	return codes.every((code) => code === 0) ? 0 : 1;
}

module.exports = { runJestLanes, mergeResults };

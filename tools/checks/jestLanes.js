'use strict';
// The jest phase of `npm test`, as two lanes side by side, one per core (test/sequencer.js says
// which file runs in which). Lane 2, the fast projects and then most light end-to-end files, starts
// at once and prints as it goes. Lane 1, the end-to-end files that load the machine, starts once the
// first npm start running in the background has ended, so that no end-to-end file installs n8n
// before that start has met the cold cache (test/e2e/start.e2e.test.ts checks that it did); its
// output goes to a log, printed when both lanes have ended. Their results become one file.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { repoRoot, scratchRoot } = require('../common/paths');
const { recordPhase } = require('./phases');

const JEST = path.join(repoRoot, 'node_modules', 'jest', 'bin', 'jest.js');
const PROJECTS = ['--selectProjects', 'unit', 'workflows', 'package', 'e2e'];
const LANES = { 1: 'jest lane 1: the heavy end-to-end files', 2: 'jest lane 2: unit, workflows, package, the light end-to-end files' };

/** The counts the summary reads, zero when no lane wrote results. */
const COUNTS = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0, numTotalTests: 0, numRuntimeErrorTestSuites: 0 };

const resultsOf = (/** @type {number} */ lane) => path.join(scratchRoot, `jest-results-lane-${lane}.json`);

/**
 * Runs one lane; resolves with its exit code once it has ended, its time recorded.
 * @param {1 | 2} lane
 * @param {'inherit' | number} output  where its output goes
 * @returns {Promise<number>}
 */
function runLane(lane, output) {
	const started = performance.now();
	fs.rmSync(resultsOf(lane), { force: true });
	// One test file at a time in each lane, whatever the number of cores.
	const args = [JEST, ...PROJECTS, `--shard=${lane}/2`, '--maxWorkers=1', '--json', `--outputFile=${resultsOf(lane)}`];
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
	if (written.length < lanes.length) merged.numRuntimeErrorTestSuites += lanes.length - written.length;
	return merged;
}

/** @param {string} file */
const readResults = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined);

/**
 * Runs both lanes, lane 1 once `heavyLaneMayStart` has settled; writes the merged results to
 * `resultsFile` and resolves with 0 when both lanes passed.
 * @param {{ heavyLaneMayStart: Promise<unknown>, resultsFile: string }} options
 * @returns {Promise<number>}
 */
async function runJestLanes({ heavyLaneMayStart, resultsFile }) {
	const started = performance.now();
	fs.rmSync(resultsFile, { force: true });
	const log = path.join(scratchRoot, 'jest-lane-1.log');
	process.stdout.write(`[test] ${LANES[1]} start once the first npm start has ended (output: ${path.relative(repoRoot, log)}, printed at the end)\n`);
	const light = runLane(2, 'inherit');
	const runHeavyLane = () => {
		const output = fs.openSync(log, 'w');
		return runLane(1, output).finally(() => fs.closeSync(output));
	};
	const heavy = heavyLaneMayStart.then(runHeavyLane, runHeavyLane);
	const codes = await Promise.all([light, heavy]);
	process.stdout.write(`\n[test] ${LANES[1]}, its output:\n${fs.readFileSync(log, 'utf8')}\n`);
	recordPhase('jest (both lanes)', (performance.now() - started) / 1000);
	fs.writeFileSync(resultsFile, JSON.stringify(mergeResults([1, 2].map((lane) => readResults(resultsOf(lane))))));
	return codes.every((code) => code === 0) ? 0 : 1;
}

module.exports = { runJestLanes, mergeResults };

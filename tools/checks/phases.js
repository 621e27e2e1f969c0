'use strict';
// Where a test run's time goes: each phase records its seconds as it ends, and the run's summary
// lists them with each jest project and each end-to-end file, so the next slow step shows in CI's output.
const fs = require('node:fs');
const path = require('node:path');

const { phasesFile } = require('../common/paths');

/** Appends one finished phase. */
function recordPhase(/** @type {string} */ name, /** @type {number} */ seconds) {
	fs.mkdirSync(path.dirname(phasesFile), { recursive: true });
	fs.appendFileSync(phasesFile, `${JSON.stringify({ name, seconds: Math.round(seconds) })}\n`);
}

/**
 * Appends one of many short steps of the same kind (an n8n CLI command, an n8n start), when the
 * run records its phases; the summary shows each kind once, with its count and total seconds,
 * since these steps are where end-to-end files spend their time.
 */
function tallyStep(/** @type {string} */ kind, /** @type {number} */ seconds) {
	if (process.env.VIDEOPLATFORM_RECORD_PHASES !== '1') return;
	fs.mkdirSync(path.dirname(phasesFile), { recursive: true });
	fs.appendFileSync(phasesFile, `${JSON.stringify({ name: kind, seconds: Math.round(seconds * 10) / 10, tally: true })}\n`);
}

/** @typedef {{ name: string, seconds: number, tally?: boolean }} Phase */

/** The phases recorded so far, in order. */
function recordedPhases() {
	if (!fs.existsSync(phasesFile)) return [];
	return fs
		.readFileSync(phasesFile, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => /** @type {Phase} */ (JSON.parse(line)));
}

/** The jest project a test file belongs to, by its folder (jest.config.js). */
function projectOf(/** @type {string} */ file) {
	const folder = /\/test\/(e2e|workflows|package|load)\//.exec(file.split(path.sep).join('/'));
	return folder ? folder[1] : 'unit';
}

/**
 * Rows of the summary: every recorded phase, then each jest project's wall time (its first file's
 * start to its last file's end), then each end-to-end file, slowest first, then each kind of
 * tallied step with its count, most seconds first.
 * @param {Phase[]} phases
 * @param {{ testResults?: { name: string, startTime: number, endTime: number }[] }} jestResults
 * @returns {[string, number][]}
 */
function phaseRows(phases, jestResults) {
	const rows = /** @type {[string, number][]} */ (phases.filter(({ tally }) => !tally).map(({ name, seconds }) => [name, seconds]));
	/** @type {Map<string, { start: number, end: number }>} */
	const projects = new Map();
	const e2eFiles = /** @type {[string, number][]} */ ([]);
	for (const { name, startTime, endTime } of jestResults.testResults ?? []) {
		const project = projectOf(name);
		const span = projects.get(project) ?? { start: startTime, end: endTime };
		projects.set(project, { start: Math.min(span.start, startTime), end: Math.max(span.end, endTime) });
		if (project === 'e2e') e2eFiles.push([`  ${path.basename(name)}`, Math.round((endTime - startTime) / 1000)]);
	}
	for (const [project, { start, end }] of projects) {
		rows.push([`jest ${project}`, Math.round((end - start) / 1000)]);
		if (project === 'e2e') rows.push(...e2eFiles.sort((a, b) => b[1] - a[1]));
	}
	return [...rows, ...tallyRows(phases)];
}

/** One row per kind of tallied step: "<kind> (×count)" and the seconds they took together. */
function tallyRows(/** @type {Phase[]} */ phases) {
	/** @type {Map<string, { count: number, seconds: number }>} */
	const kinds = new Map();
	for (const { name, seconds, tally } of phases) {
		if (!tally) continue;
		const kind = kinds.get(name) ?? { count: 0, seconds: 0 };
		kinds.set(name, { count: kind.count + 1, seconds: kind.seconds + seconds });
	}
	/** @type {[string, number][]} */
	const rows = [...kinds].map(([name, { count, seconds }]) => [`${name} (×${count})`, Math.round(seconds)]);
	return rows.sort((a, b) => b[1] - a[1]);
}

/** The rows as a plain table for a log. */
const phaseTable = (/** @type {[string, number][]} */ rows) =>
	rows.map(([name, seconds]) => `${name.padEnd(48)} ${String(seconds).padStart(6)} s`).join('\n');

module.exports = { recordPhase, tallyStep, recordedPhases, phaseRows, phaseTable };

#!/usr/bin/env node
'use strict';
// `npm run test:mutation`: Stryker over the guarantee files (stryker.config.mjs), incremental against
// mutation/incremental.json, then mutation/results.md from its report, timed. With `--changed` (CI)
// or `--mutate <files>`, a partial run: it starts from a copy of that file and writes both to .scratch/mutation;
// with `--save` too, its results are merged into the committed ones (a full run takes hours on 2 cores).
// A partial run stopped part-way is resumed by the next partial run: what it found is in PROGRESS;
// `--save-progress` keeps that in the committed files too, for a run that cannot end in one sitting.
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const fg = require('fast-glob');

const { repoRoot } = require('../common/paths');
const { planAfterRun, priorStaticResults, unfinishedIn, untestedFiles, withoutStaleResults } = require('./changed');
const { mergeReports } = require('./merge');
const { equivalentsIn, resultsMarkdown, shortfall } = require('./results');

const scratch = path.join(repoRoot, '.scratch', 'mutation');
const REPORT = path.join(scratch, 'report.json');
const PROGRESS = path.join(scratch, 'progress.json');
/** What the run starts from knows of each static mutant (testFileRunner.mjs reads it). */
const PRIOR_STATIC = path.join(scratch, 'prior-static.json');
const INCREMENTAL = 'mutation/incremental.json';
/** The files a saved run stopped part-way in, with how many mutants each was to test (`--changed` tests them until they have that many results). */
const UNFINISHED = path.join(repoRoot, 'mutation', 'unfinished.json');
/** The exit code of a run that leaves a survivor neither killed nor listed (.ci/run fails on it alone). */
const SURVIVORS_LEFT = 3;
const git = (/** @type {string[]} */ args) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();

/**
 * The commit whose code and tests the run tests, read as it starts (a run takes hours, and commits
 * may follow meanwhile), marked when the files Stryker reads differ from it.
 */
const TESTED_COMMIT = `${git(['rev-parse', '--short', 'HEAD'])}${git(['status', '--porcelain', '--', 'nodes', 'credentials', 'test']) ? ' with uncommitted changes' : ''}`;

/** A file's text now, relative to the repository; undefined when it is gone. */
const readNow = (/** @type {string} */ name) => (fs.existsSync(path.join(repoRoot, name)) ? fs.readFileSync(path.join(repoRoot, name), 'utf8') : undefined);

/**
 * The committed results (undefined: none yet), read once, and the guarantee files whose text, or whose
 * covering tests' text, they have not tested (changed or new); in `all`, also those a saved run left
 * part-way or with a stale result.
 */
async function changedGuaranteeFiles() {
	const { GUARANTEE_FILES } = await import('./stryker.config.mjs');
	const file = path.join(repoRoot, INCREMENTAL);
	const incremental = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
	const untested = (/** @type {boolean} */ changedOnly) => untestedFiles(fg.sync(GUARANTEE_FILES, { cwd: repoRoot }), incremental, readNow, readUnfinished(), { changedOnly });
	return { incremental, changed: untested(true), all: untested(false) };
}

/** @returns {Record<string, number>} */
const readUnfinished = () => (fs.existsSync(UNFINISHED) ? JSON.parse(fs.readFileSync(UNFINISHED, 'utf8')) : {});

/**
 * The files of the committed results with fewer results than planned, kept in UNFINISHED (removed
 * when none is left), so that the next `--changed` run and the results file both see them.
 * @param {import('./merge').Report} report  the committed results
 * @param {Record<string, number>} planned
 */
function keepUnfinished(report, planned) {
	const unfinished = unfinishedIn(report, planned);
	if (unfinished.length === 0) fs.rmSync(UNFINISHED, { force: true });
	else fs.writeFileSync(UNFINISHED, `${JSON.stringify(Object.fromEntries(unfinished.map(({ file, planned: all }) => [file, all])), null, 2)}\n`);
	return unfinished;
}

/** The files a partial run's arguments name after `--mutate` (`whole`: only those named without a line range). */
function filesNamedBy(/** @type {string[]} */ args, { whole = false } = {}) {
	const at = args.indexOf('--mutate');
	const patterns = at === -1 ? [] : String(args[at + 1] ?? '').split(',');
	return patterns.filter((pattern) => !whole || !pattern.includes(':')).map((pattern) => pattern.split(':')[0]);
}

/** A stopped run's results, how many mutants of each file it was to test, and which files it mutates (not Stryker's: left out of the report). */
function readProgress() {
	const { planned = {}, mutated = [], ...report } = JSON.parse(fs.readFileSync(PROGRESS, 'utf8'));
	return { planned, mutated: /** @type {string[]} */ (mutated), report };
}

/** Merges a stopped run's results into the committed ones, without running anything. */
async function saveProgress() {
	if (!fs.existsSync(PROGRESS)) {
		process.stdout.write(`[mutation] no run stopped part-way (${path.relative(repoRoot, PROGRESS)}): nothing to save\n`);
		return;
	}
	const { planned, report: progress } = readProgress();
	const report = await keep(progress);
	writeResults(report, { seconds: 0, merged: true, stopped: true, unfinished: keepUnfinished(report, { ...readUnfinished(), ...planned }) });
}

/**
 * The committed incremental file with a run's files in place of theirs.
 * @param {import('./merge').Report} run
 * @param {(file: string) => boolean} [mutatedByRun]  the files the run mutated (merge.js)
 */
async function keep(run, mutatedByRun) {
	const { GUARANTEE_FILES } = await import('./stryker.config.mjs');
	const stillTested = new Set(fg.sync(GUARANTEE_FILES, { cwd: repoRoot }));
	const kept = path.join(repoRoot, INCREMENTAL);
	const merged = mergeReports(fs.existsSync(kept) ? JSON.parse(fs.readFileSync(kept, 'utf8')) : { files: {} }, run, (file) => stillTested.has(file), mutatedByRun);
	fs.writeFileSync(kept, JSON.stringify(merged, null, 2));
	return merged;
}

/**
 * mutation/results.md from a report (or, for a partial run not saved, .scratch/mutation/results.md).
 * @param {import('./merge').Report} report
 * @param {{ seconds: number, merged: boolean, stopped?: boolean, unfinished?: { file: string, tested: number, planned: number }[], scratchOnly?: boolean }} run
 */
function writeResults(report, { scratchOnly = false, ...run }) {
	const equivalents = readEquivalents();
	const markdown = resultsMarkdown(/** @type {any} */ (report), equivalents, {
		command: ['npm run test:mutation', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
		date: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
		commit: TESTED_COMMIT,
		...run,
	});
	const results = scratchOnly ? path.join(scratch, 'results.md') : path.join(repoRoot, 'mutation', 'results.md');
	fs.writeFileSync(results, markdown);
	process.stdout.write(`\n${markdown}\n(${path.relative(repoRoot, results)})\n`);
	failOnShortfall(report, equivalents);
}

/** The equivalents table of docs/development.md. */
const readEquivalents = () => equivalentsIn(fs.readFileSync(path.join(repoRoot, 'docs', 'development.md'), 'utf8'));

/** A survivor nobody has killed or explained fails the run (and CI): the suite no longer defends a guarantee. */
function failOnShortfall(/** @type {import('./merge').Report} */ report, equivalents = readEquivalents(), /** @type {string} */ whose = 'this run') {
	const short = shortfall(/** @type {any} */ (report), equivalents);
	if (short) {
		process.stderr.write(`[mutation] failed, in ${whose}: ${short}. Kill each with a test that states the behaviour, or list it in docs/development.md's equivalents table with why no input tells it apart; then record the results with \`npm run test:mutation -- --changed --save\`.\n`);
		process.exitCode = SURVIVORS_LEFT;
	}
}

async function main() {
	if (process.argv.includes('--save-progress')) return await saveProgress();
	const save = process.argv.includes('--save');
	let args = process.argv.slice(2).filter((arg) => arg !== '--save');
	if (args.includes('--changed')) {
		// Without --save nothing is kept, so only what a change can have broken is tested: files left
		// part-way, or with a result Stryker would not give today, are the next saved run's to finish.
		const { incremental: committed, changed, all } = await changedGuaranteeFiles();
		const files = save ? all : changed;
		const leftToASavedRun = all.filter((file) => !files.includes(file));
		if (leftToASavedRun.length > 0) {
			process.stdout.write(`[mutation] not tested by a run without --save, their text and tests being as last tested: ${leftToASavedRun.join(', ')} (left part-way, or holding a result to test again; \`npm run test:mutation -- --changed --save\` finishes them)\n`);
		}
		// The committed results meet the bar only if the table lists every survivor (a row removed fails
		// here). Checked first, and ending the run at once when they fail, so that neither CI's cap nor
		// Stryker failing can hide it; a run with --save that tests something writes new ones, and is judged by those.
		if ((!save || files.length === 0) && committed) {
			failOnShortfall(committed, readEquivalents(), `the committed results (${INCREMENTAL})`);
			if (process.exitCode === SURVIVORS_LEFT) return;
		}
		if (files.length === 0) {
			process.stdout.write(`[mutation] no guarantee file, nor a test file covering one, changed since the results in ${INCREMENTAL}: nothing to test\n`);
			return;
		}
		args = ['--mutate', files.join(','), ...args.filter((arg) => arg !== '--changed')];
	}
	const partial = args.length > 0;
	fs.mkdirSync(scratch, { recursive: true });
	const incremental = partial ? path.join(scratch, 'incremental.json') : path.join(repoRoot, INCREMENTAL);
	if (partial && fs.existsSync(path.join(repoRoot, INCREMENTAL))) fs.copyFileSync(path.join(repoRoot, INCREMENTAL), incremental);
	/** @type {Record<string, number>} what a resumed run was to test in the files this run does not test again: they stay part-way until a run tests them */
	let resumedPlanned = {};
	/** @type {import('./changed').Incremental | undefined} the results a resumed run's are merged into, tested with older test texts */
	let before;
	if (partial && fs.existsSync(PROGRESS)) {
		const kept = fs.existsSync(incremental) ? JSON.parse(fs.readFileSync(incremental, 'utf8')) : { files: {} };
		before = kept;
		const { planned, report: progress } = readProgress();
		fs.writeFileSync(incremental, JSON.stringify(mergeReports(kept, progress, () => true)));
		const mutating = new Set(filesNamedBy(args));
		resumedPlanned = Object.fromEntries(Object.entries(planned).filter(([file]) => !mutating.has(file)));
		process.stdout.write(`[mutation] resuming: the results of a run stopped part-way (${path.relative(repoRoot, PROGRESS)}) are reused where their code and tests are unchanged\n`);
	}
	const testedWhole = new Set(filesNamedBy(args, { whole: true }));
	const tested = partial ? (/** @type {string} */ file) => testedWhole.has(file) : () => true;
	fs.rmSync(PRIOR_STATIC, { force: true });
	if (fs.existsSync(incremental)) {
		const given = JSON.parse(fs.readFileSync(incremental, 'utf8'));
		// Read by testFileRunner.mjs: what is known of each static mutant before the run drops the survivors.
		// A test file counts as changed if it changed since the older results, since some were tested with it.
		fs.writeFileSync(PRIOR_STATIC, JSON.stringify(priorStaticResults(given, readNow, before?.testFiles)));
		fs.writeFileSync(incremental, JSON.stringify(withoutStaleResults(given, tested)));
	}
	fs.rmSync(REPORT, { force: true });

	const started = performance.now();
	const stryker = ['stryker', 'run', 'tools/mutation/stryker.config.mjs', '--incrementalFile', path.relative(repoRoot, incremental), ...args];
	const { status } = spawnSync('npx', stryker, { cwd: repoRoot, stdio: 'inherit' });
	if (status !== 0 || !fs.existsSync(REPORT)) process.exit(status || 1);
	// The files the run mutated (none known: the committed results stay); then the run ended, its report holds all of it.
	const mutatedByRun = new Set(fs.existsSync(PROGRESS) ? readProgress().mutated : []);
	fs.rmSync(PROGRESS, { force: true });

	const seconds = (performance.now() - started) / 1000;
	const report = JSON.parse(fs.readFileSync(REPORT, 'utf8'));
	if (partial && save) {
		const kept = await keep(JSON.parse(fs.readFileSync(incremental, 'utf8')), (file) => mutatedByRun.has(file));
		writeResults(kept, { seconds, merged: true, unfinished: keepUnfinished(kept, planAfterRun(readUnfinished(), resumedPlanned, tested)) });
	}
	else if (!partial) writeResults(report, { seconds, merged: false, unfinished: keepUnfinished(report, planAfterRun(readUnfinished(), {}, tested)) });
	else writeResults(report, { seconds, merged: false, scratchOnly: true, unfinished: unfinishedIn(report, resumedPlanned) });
}

main().catch((error) => {
	process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
	process.exit(1);
});

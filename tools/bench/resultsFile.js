'use strict';
// Where a bench writes its results file, and the date, machine and commit its figures were measured on.
// BENCH_RESULTS_DIR sends the file elsewhere than bench/ (a smoke run's, under /tmp), so that
// a short run never replaces the figures the docs link.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const { repoRoot } = require('../common/paths');

/** The results file's path (its folder made). @param {string} name */
function resultsPath(name) {
	const dir = path.resolve(process.env.BENCH_RESULTS_DIR || path.join(repoRoot, 'bench'));
	fs.mkdirSync(dir, { recursive: true });
	return path.join(dir, name);
}

/** The short commit measured, marked when tracked files differ from it. */
function measuredCommit(repository = repoRoot) {
	const git = (/** @type {string[]} */ args) => execFileSync('git', args, { cwd: repository, encoding: 'utf8' }).trim();
	const changed = git(['status', '--porcelain', '--untracked-files=no']) !== '';
	return `${git(['rev-parse', '--short', 'HEAD'])}${changed ? ' with uncommitted changes' : ''}`;
}

/** The line every results file carries: the day, the machine and the commit measured. */
function measuredOn(repository = repoRoot) {
	const cpus = os.cpus();
	const machine = `${cpus.length} cores (${cpus[0]?.model.trim()}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB`;
	return `${new Date().toISOString().slice(0, 10)}, ${machine}, commit ${measuredCommit(repository)}`;
}

module.exports = { resultsPath, measuredCommit, measuredOn };

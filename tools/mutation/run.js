#!/usr/bin/env node
'use strict';
// `npm run test:mutation`: Stryker over the guarantee files (stryker.config.mjs), incremental against
// mutation/incremental.json, then mutation/results.md from its report, timed. With `--changed` (CI)
// or `--mutate <files>`, a partial run: it starts from a copy of that file and writes both to .scratch/mutation;
// with `--save` too, its results are merged into the committed ones (a full run takes hours on 2 cores).
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const fg = require('fast-glob');

const { repoRoot } = require('../common/paths');
const { untestedFiles } = require('./changed');
const { mergeReports } = require('./merge');
const { equivalentsIn, resultsMarkdown } = require('./results');

const scratch = path.join(repoRoot, '.scratch', 'mutation');
const REPORT = path.join(scratch, 'report.json');
const INCREMENTAL = 'mutation/incremental.json';
const git = (/** @type {string[]} */ args) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();

/** The guarantee files whose text the committed incremental file has not tested (changed or new). */
async function changedGuaranteeFiles() {
	const { GUARANTEE_FILES } = await import('./stryker.config.mjs');
	const file = path.join(repoRoot, INCREMENTAL);
	const incremental = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
	const read = (/** @type {string} */ name) => fs.readFileSync(path.join(repoRoot, name), 'utf8');
	return untestedFiles(fg.sync(GUARANTEE_FILES, { cwd: repoRoot }), incremental, read);
}

async function main() {
	const save = process.argv.includes('--save');
	let args = process.argv.slice(2).filter((arg) => arg !== '--save');
	if (args[0] === '--changed') {
		const files = await changedGuaranteeFiles();
		if (files.length === 0) {
			process.stdout.write(`[mutation] every guarantee file is as ${INCREMENTAL} last tested it: nothing to test\n`);
			return;
		}
		args = ['--mutate', files.join(','), ...args.slice(1)];
	}
	const partial = args.length > 0;
	fs.mkdirSync(scratch, { recursive: true });
	const incremental = partial ? path.join(scratch, 'incremental.json') : path.join(repoRoot, INCREMENTAL);
	if (partial && fs.existsSync(path.join(repoRoot, INCREMENTAL))) fs.copyFileSync(path.join(repoRoot, INCREMENTAL), incremental);
	fs.rmSync(REPORT, { force: true });

	const started = performance.now();
	const stryker = ['stryker', 'run', 'tools/mutation/stryker.config.mjs', '--incrementalFile', path.relative(repoRoot, incremental), ...args];
	const { status } = spawnSync('npx', stryker, { cwd: repoRoot, stdio: 'inherit' });
	if (status !== 0 || !fs.existsSync(REPORT)) process.exit(status || 1);

	let report = JSON.parse(fs.readFileSync(REPORT, 'utf8'));
	if (partial && save) {
		const { GUARANTEE_FILES } = await import('./stryker.config.mjs');
		const stillTested = new Set(fg.sync(GUARANTEE_FILES, { cwd: repoRoot }));
		const kept = path.join(repoRoot, INCREMENTAL);
		const merged = mergeReports(fs.existsSync(kept) ? JSON.parse(fs.readFileSync(kept, 'utf8')) : { files: {} }, JSON.parse(fs.readFileSync(incremental, 'utf8')), (file) => stillTested.has(file));
		fs.writeFileSync(kept, JSON.stringify(merged, null, 2));
		report = merged;
	}
	const markdown = resultsMarkdown(report, equivalentsIn(fs.readFileSync(path.join(repoRoot, 'docs', 'development.md'), 'utf8')), {
		command: ['npm run test:mutation', ...(partial ? ['--', ...process.argv.slice(2)] : [])].join(' '),
		date: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
		commit: git(['rev-parse', '--short', 'HEAD']),
		seconds: (performance.now() - started) / 1000,
		merged: partial && save,
	});
	const results = partial && !save ? path.join(scratch, 'results.md') : path.join(repoRoot, 'mutation', 'results.md');
	fs.writeFileSync(results, markdown);
	process.stdout.write(`\n${markdown}\n(${path.relative(repoRoot, results)})\n`);
}

main().catch((error) => {
	process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
	process.exit(1);
});

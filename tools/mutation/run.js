#!/usr/bin/env node
'use strict';
// `npm run test:mutation`: Stryker over the guarantee files (stryker.config.mjs), incremental against
// mutation/incremental.json, then mutation/results.md from its report, timed. With `--changed` (CI)
// or `--mutate <files>`, a partial run: it starts from a copy of that file and writes both to .scratch/mutation.
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const fg = require('fast-glob');

const { repoRoot } = require('../common/paths');
const { untestedFiles } = require('./changed');
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
	let args = process.argv.slice(2);
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

	const markdown = resultsMarkdown(JSON.parse(fs.readFileSync(REPORT, 'utf8')), equivalentsIn(fs.readFileSync(path.join(repoRoot, 'docs', 'development.md'), 'utf8')), {
		command: ['npm run test:mutation', ...(partial ? ['--', ...process.argv.slice(2)] : [])].join(' '),
		date: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
		commit: git(['rev-parse', '--short', 'HEAD']),
		seconds: (performance.now() - started) / 1000,
	});
	const results = partial ? path.join(scratch, 'results.md') : path.join(repoRoot, 'mutation', 'results.md');
	fs.writeFileSync(results, markdown);
	process.stdout.write(`\n${markdown}\n(${path.relative(repoRoot, results)})\n`);
}

main().catch((error) => {
	process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
	process.exit(1);
});

#!/usr/bin/env node
'use strict';
// `npm test`: lint, types, build, then every jest project but the load runs, each phase timed
// (tools/checks/phases.js). Stops at the first phase that fails, as `a && b` would.
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { phasesFile, repoRoot, scratchRoot } = require('../common/paths');
const { installableVersions, versionSpec } = require('../install/versions');
const { recordPhase } = require('./phases');

/** @type {[string, string, string[]][]} */
const PHASES = [
	['lint', 'npm', ['run', 'lint']],
	['typecheck', 'npm', ['run', 'typecheck']],
	['build', 'npm', ['run', 'build']],
	['jest (unit, workflows, package, e2e)', 'npx', ['jest', '--selectProjects', 'unit', 'workflows', 'package', 'e2e', '--json', '--outputFile=.scratch/jest-results.json']],
];

// Installs that the end-to-end tests start record their time too (tools/install/n8n.js).
fs.rmSync(phasesFile, { force: true });
fs.mkdirSync(scratchRoot, { recursive: true });
process.env.VIDEOPLATFORM_RECORD_PHASES = '1';

/**
 * The n8n versions that run on this Node install on the core that lint and the one jest worker leave
 * idle. Node 24 and what needs it are left to the first end-to-end test, which proves that a user's
 * first `npm start` installs them (VIDEOPLATFORM_EXPECT_COLD_CACHE). A test that needs a version
 * still installing waits for it (the install's lock).
 */
const early = installableVersions().filter((version) => versionSpec(version).node === 20);
const earlyLog = path.join(scratchRoot, 'early-installs.log');
const installs = spawn(process.execPath, [path.join(repoRoot, 'tools/install/cli.js'), ...early], {
	cwd: repoRoot,
	stdio: ['ignore', fs.openSync(earlyLog, 'w'), fs.openSync(earlyLog, 'a')],
});
process.stdout.write(`[test] installing n8n ${early.join(', ')} beside lint and the fast tests (output: ${path.relative(repoRoot, earlyLog)})\n`);
// A run that stops early leaves no install behind; an install cut short is redone by the next run.
process.on('exit', () => installs.exitCode === null && installs.kill());

for (const [name, command, args] of PHASES) {
	const started = performance.now();
	const { status } = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit' });
	recordPhase(name, (performance.now() - started) / 1000);
	if (status !== 0) process.exit(status ?? 1);
}

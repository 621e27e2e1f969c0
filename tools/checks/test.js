#!/usr/bin/env node
'use strict';
// `npm test`: lint, types, build, then every jest project but the load runs, each phase timed
// (tools/checks/phases.js). Stops at the first phase that fails, as `a && b` would.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');

const { phasesFile, repoRoot } = require('../common/paths');
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
process.env.VIDEOPLATFORM_RECORD_PHASES = '1';

for (const [name, command, args] of PHASES) {
	const started = performance.now();
	const { status } = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit' });
	recordPhase(name, (performance.now() - started) / 1000);
	if (status !== 0) process.exit(status ?? 1);
}

#!/usr/bin/env node
'use strict';
// `npm test`: build, lint, types, then every jest project but the load runs, in two lanes
// (tools/checks/jestLanes.js), each phase timed (tools/checks/phases.js). Stops at the first phase
// that fails, as `a && b` would.
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { PACKED_TARBALL_ENV, packPackage } = require('../common/package');
const { phasesFile, repoRoot, scratchRoot } = require('../common/paths');
const { RECORD_ENV, earlyVersions, laterVersions, recordFiles, recordedStart } = require('./first-start');
const { runJestLanes } = require('./jestLanes');
const { recordPhase } = require('./phases');

/** @type {[string, string, string[]]} */
const BUILD = ['build', 'npm', ['run', 'build']];
/** @type {[string, string, string[]][]} */
const PHASES = [
	['lint', 'npm', ['run', 'lint']],
	['typecheck', 'npm', ['run', 'typecheck']],
];

/** Runs one phase, records its time, and ends the run if it fails. */
function runPhase(/** @type {[string, string, string[]]} */ [name, command, args]) {
	const started = performance.now();
	const { status, signal } = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit' });
	recordPhase(name, (performance.now() - started) / 1000);
	// A phase stopped by a signal (Ctrl-C) ends the run as the signal would: 128 + its number.
	if (status !== 0) process.exit(status ?? (signal ? 128 + os.constants.signals[signal] : 1));
}

// A stopped run (Ctrl-C, SIGTERM) exits, so that the exit handlers below stop what it started.
process.once('SIGINT', () => process.exit(130));
process.once('SIGTERM', () => process.exit(143));

// Installs that the end-to-end tests start record their time too (tools/install/n8n.js).
fs.rmSync(phasesFile, { force: true });
fs.mkdirSync(scratchRoot, { recursive: true });
process.env.VIDEOPLATFORM_RECORD_PHASES = '1';
// The migrated databases too (tools/n8n/migratedDatabase.js): this run's n8n installs make them anew.
for (const stale of fs.readdirSync(scratchRoot).filter((name) => name.startsWith('first-npm-start-') || name.startsWith('migrated-database-'))) {
	fs.rmSync(path.join(scratchRoot, stale), { recursive: true, force: true });
}

/**
 * Three install chains run in the background, beside lint, types and the fast tests (installs wait
 * on the network and the disk as much as on the CPU):
 * - Debian's Chromium, when missing (tools/install/chromium.js), for the browser test;
 * - the fully tested n8n versions that run on this Node;
 * - a user's first `npm start` (tools/checks/first-start.js), which installs Node 24 and the default
 *   n8n when the cache is empty; test/e2e/start.e2e.test.ts checks its record
 *   (VIDEOPLATFORM_EXPECT_COLD_CACHE). Then the other versions (the smoke test's).
 * A test that needs a version still installing waits for it (the install's lock).
 * @param {string} name
 * @param {string[]} args
 */
function inBackground(name, args) {
	const log = path.join(scratchRoot, `${name}.log`);
	// One descriptor for both streams, so that neither writes over what the other wrote.
	const output = fs.openSync(log, 'w');
	const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', output, output] });
	fs.closeSync(output);
	// A run that stops early leaves no install behind; an install cut short is redone by the next run.
	process.on('exit', () => child.exitCode === null && child.kill());
	const ended = new Promise((resolve) => child.on('close', resolve));
	return { log: path.relative(repoRoot, log), ended };
}

const { log: chromiumLog } = inBackground('chromium-install', [path.join(repoRoot, 'tools/install/chromium.js')]);
process.stdout.write(`[test] installing Chromium for the browser test, when missing, beside lint and the fast tests (output: ${chromiumLog})\n`);

const early = earlyVersions();
const { log: earlyLog } = inBackground('early-installs', [path.join(repoRoot, 'tools/install/cli.js'), ...early]);
process.stdout.write(`[test] installing n8n ${early.join(', ')} beside lint and the fast tests (output: ${earlyLog})\n`);

// Built and packed before the background npm start builds too, so that no build empties dist
// while a pack reads it; every end-to-end file installs this one tarball (test/e2e/packedTarball.ts).
runPhase(BUILD);
const packStarted = performance.now();
process.env[PACKED_TARBALL_ENV] = packPackage(path.join(scratchRoot, `pack-${process.pid}`));
recordPhase('pack', (performance.now() - packStarted) / 1000);
const record = path.join(scratchRoot, `first-npm-start-${process.pid}.json`);
process.env[RECORD_ENV] = record;
const { log: startLog, ended: startChainEnded } = inBackground(`first-npm-start-${process.pid}-then-installs`, [path.join(repoRoot, 'tools/checks/first-start.js'), record]);
process.stdout.write(`[test] a first npm start (output: ${path.relative(repoRoot, recordFiles(record).log)}), then n8n ${laterVersions().join(', ')}, beside the fast tests (output: ${startLog})\n`);

for (const phase of PHASES) runPhase(phase);

// The heavy lane waits for the start's record, or for its chain to end without one (start.e2e then says why).
const startEnded = Promise.race([recordedStart(record, 30 * 60_000).catch(() => undefined), startChainEnded]);
runJestLanes({ heavyLaneMayStart: startEnded, resultsFile: path.join(scratchRoot, 'jest-results.json') }).then((status) => process.exit(status));

#!/usr/bin/env node
'use strict';
// A user's first `npm start`, run by `npm test` in the background and recorded, so that the
// installs it makes (Node 24, the default n8n) overlap the fast tests; test/e2e/start.e2e.test.ts
// then checks the recorded run instead of waiting for a second one. Afterwards the other Node-24
// versions install, still in the background. Usage: node tools/checks/first-start.js <record.json>
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { repoRoot } = require('../common/paths');
const { defaultVersion, installableVersions, versionSpec } = require('../install/versions');
const { recordPhase } = require('./phases');

/** @typedef {{ code: number | null, output: string, seconds: number }} StartRun */

/** Where `npm test` has the record of its background start (set for the jest it runs). */
const RECORD_ENV = 'VIDEOPLATFORM_FIRST_START_RECORD';

/**
 * The files of one recorded start: the record, the output as it comes, and the n8n data it uses.
 * @param {string} record  a .json file
 */
const recordFiles = (record) => ({ record, log: record.replace(/\.json$/, '.log'), dataDir: record.replace(/\.json$/, '-data') });

/**
 * `npm start` exactly as a user types it, to check that it gets ready and stops; with everything
 * it prints (also appended to `logFile`, as it comes), its exit code and its seconds.
 * @param {string} dataDir
 * @param {{ logFile?: string, signal?: AbortSignal }} [options]  signal: stops it (npm passes SIGTERM on, and npm start stops what it started)
 * @returns {Promise<StartRun>}
 */
function npmStart(dataDir, { logFile, signal } = {}) {
	const started = Date.now();
	const args = ['start', '--', '--exit-when-ready', '--port', '0', '--sandbox-port', '0', '--data', dataDir];
	return new Promise((resolve) => {
		const child = spawn('npm', args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], signal });
		let output = '';
		const take = (/** @type {Buffer} */ chunk) => {
			output += chunk;
			if (logFile) fs.appendFileSync(logFile, chunk);
		};
		child.stdout.on('data', take);
		child.stderr.on('data', take);
		const seconds = () => Math.round((Date.now() - started) / 1000);
		child.on('error', (error) => {
			// Stopped on purpose: 'close' follows.
			if (error.name !== 'AbortError') resolve({ code: null, output: `${output}\n"npm start" could not be started: ${error.message}\n`, seconds: seconds() });
		});
		child.on('close', (code) => resolve({ code, output, seconds: seconds() }));
	});
}

/**
 * What `npm test` installs at once, beside the first npm start: the fully tested versions that run
 * on this Node. The others wait for that start, so that the install every end-to-end file waits
 * for has the cores to itself but for lint and the fast tests.
 */
const earlyVersions = () => installableVersions().filter((version) => versionSpec(version).node === 20 && versionSpec(version).role === 'full');
/** The versions left after the early ones and the one `npm start` installs (smoke.e2e's, used late), installed after that start. */
const laterVersions = () => installableVersions().filter((version) => version !== defaultVersion() && !earlyVersions().includes(version));

/**
 * Writes the record whole (a reader never sees half of it).
 * @param {string} record
 * @param {StartRun} run
 */
function writeRecord(record, run) {
	fs.writeFileSync(`${record}.partial`, JSON.stringify(run));
	fs.renameSync(`${record}.partial`, record);
}

/**
 * The recorded start, as soon as it is written (an event, not a poll); fails after `timeoutMs`.
 * @param {string} record
 * @param {number} timeoutMs
 * @returns {Promise<StartRun>}
 */
function recordedStart(record, timeoutMs) {
	return new Promise((resolve, reject) => {
		const watcher = fs.watch(path.dirname(record));
		const done = (/** @type {() => void} */ settle) => {
			clearTimeout(timer);
			watcher.close();
			settle();
		};
		const check = () => {
			if (!fs.existsSync(record)) return;
			const { code, output, seconds } = JSON.parse(fs.readFileSync(record, 'utf8'));
			done(() => resolve({ code, output, seconds }));
		};
		const timer = setTimeout(
			() => done(() => reject(new Error(`The first npm start that npm test runs in the background had not finished after ${Math.round(timeoutMs / 60_000)} minutes (no ${record}); its output so far: ${recordFiles(record).log}`))),
			timeoutMs,
		);
		watcher.on('change', check);
		check();
	});
}

/**
 * The background chain: the first npm start, recorded, then the later Node-24 installs.
 * @param {string} record
 */
async function main(record) {
	const { log, dataDir } = recordFiles(record);
	// A stopped `npm test` (SIGTERM) stops the start, and installs nothing more.
	const stopping = new AbortController();
	const stop = () => stopping.abort();
	process.once('SIGTERM', stop);
	const run = await npmStart(dataDir, { logFile: log, signal: stopping.signal });
	process.off('SIGTERM', stop);
	writeRecord(record, run);
	if (stopping.signal.aborted) process.exit(143);
	if (process.env.VIDEOPLATFORM_RECORD_PHASES === '1') recordPhase('first npm start (background)', run.seconds);
	const later = laterVersions();
	process.stderr.write(`[test] the first npm start ended with exit code ${run.code} in ${run.seconds} s; installing n8n ${later.join(', ')}\n`);
	const { ensureN8n } = require('../install/n8n');
	for (const version of later) await ensureN8n(version);
}

if (require.main === module) {
	main(path.resolve(process.argv[2])).catch((error) => {
		process.stderr.write(`[test] ${error.message}\n`);
		process.exit(1);
	});
}

module.exports = { RECORD_ENV, recordFiles, npmStart, earlyVersions, laterVersions, writeRecord, recordedStart };

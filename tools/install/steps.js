'use strict';
// The building blocks of the installer: a clean npm environment, steps whose output goes to a
// log file while the terminal shows a label, the elapsed time and a heartbeat, and a lock so
// that two runs (npm start and npm test at once) never install into the same folder.
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { cacheRoot } = require('../common/paths');

const installLog = path.join(cacheRoot, 'install.log');
const HEARTBEAT_MS = 30_000;

// Settings of the caller's npm worth keeping: where packages come from and where they are cached.
// Everything else npm hands to scripts as npm_config_* (our .npmrc's ignore-scripts, a user's
// nodedir...) would silently change what the nested installs do.
const KEPT_NPM_SETTINGS = new Set([
	'cache', 'registry', 'cafile', 'ca', 'proxy', 'https_proxy', 'noproxy', 'strict_ssl', 'userconfig', 'globalconfig',
]);

/**
 * The caller's environment without npm's hand-down, plus exactly `settings` as npm_config_*.
 * @param {Record<string, string | boolean | undefined>} settings
 * @param {NodeJS.ProcessEnv} [base]
 * @returns {NodeJS.ProcessEnv}
 */
function npmEnv(settings, base = process.env) {
	/** @type {NodeJS.ProcessEnv} */
	const env = {};
	for (const [name, value] of Object.entries(base)) {
		const lower = name.toLowerCase();
		if (lower.startsWith('npm_config_') && !KEPT_NPM_SETTINGS.has(lower.slice('npm_config_'.length))) continue;
		if (lower.startsWith('npm_lifecycle_') || lower.startsWith('npm_package_')) continue;
		env[name] = value;
	}
	for (const [name, value] of Object.entries({ audit: false, fund: false, update_notifier: false, ...settings })) {
		if (value !== undefined) env[`npm_config_${name}`] = String(value);
	}
	return env;
}

/** @param {number} ms */
function elapsed(ms) {
	const s = Math.round(ms / 1000);
	return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** @param {string} message */
function say(message) {
	process.stderr.write(`[install] ${message}\n`);
}

class InstallError extends Error {}

/**
 * Runs one install step with its output in the install log. The terminal gets the label, a
 * heartbeat while it runs and the time it took. Rejects with a plain sentence on failure.
 * @param {string} label
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, env: NodeJS.ProcessEnv }} options
 * @returns {Promise<void>}
 */
function runStep(label, command, args, { cwd, env }) {
	fs.mkdirSync(cacheRoot, { recursive: true });
	fs.appendFileSync(installLog, `\n=== ${new Date().toISOString()} ${label}\n=== ${cwd}$ ${command} ${args.join(' ')}\n`);
	const started = Date.now();
	say(`${label}...`);
	return new Promise((/** @type {(value?: void) => void} */ resolve, reject) => {
		const out = fs.openSync(installLog, 'a');
		const child = spawn(command, args, { cwd, env, stdio: ['ignore', out, out] });
		fs.closeSync(out);
		const heartbeat = setInterval(() => say(`  ...still working on it (${elapsed(Date.now() - started)})`), HEARTBEAT_MS);
		const fail = (/** @type {string} */ what) => {
			clearInterval(heartbeat);
			reject(new InstallError(`${label} failed: ${what}. Read ${installLog} for the details`));
		};
		child.once('error', (/** @type {NodeJS.ErrnoException} */ error) => fail(`"${command}" could not be started (${error.code || error.message})`));
		child.once('close', (code, signal) => {
			if (code !== 0) return fail(`"${command} ${args.join(' ')}" ended with ${signal || `exit code ${code}`}`);
			clearInterval(heartbeat);
			say(`  done in ${elapsed(Date.now() - started)}`);
			resolve();
		});
	});
}

/** @param {number} pid */
function isAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
	}
}

/**
 * The PID in a lock folder; undefined while its owner is still writing it, 0 when left half-made.
 * @param {string} lockDir
 */
function lockOwner(lockDir) {
	let text = '';
	try {
		text = fs.readFileSync(path.join(lockDir, 'pid'), 'utf8');
	} catch {
		// not written yet
	}
	if (Number(text)) return Number(text);
	const ageMs = Date.now() - (fs.statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs ?? NaN);
	return ageMs > 10_000 ? 0 : undefined;
}

/**
 * Runs `work` while holding a lock folder; a lock left by a process that died is taken over.
 * @template T
 * @param {string} lockDir
 * @param {() => Promise<T>} work
 * @param {string} [what]  what the holder does, for the message while waiting
 * @returns {Promise<T>}
 */
async function withLock(lockDir, work, what = 'install') {
	fs.mkdirSync(path.dirname(lockDir), { recursive: true });
	let told = false;
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
			break;
		} catch (error) {
			if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
			const owner = lockOwner(lockDir);
			if (owner === 0 || (owner && !isAlive(owner))) {
				fs.rmSync(lockDir, { recursive: true, force: true });
				continue;
			}
			if (!told) say(`waiting for another ${what} (process ${owner}) to finish...`);
			told = true;
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	}
	try {
		return await work();
	} finally {
		fs.rmSync(lockDir, { recursive: true, force: true });
	}
}

module.exports = { npmEnv, runStep, withLock, say, elapsed, installLog, InstallError, isAlive };

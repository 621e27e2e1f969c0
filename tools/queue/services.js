'use strict';
// PostgreSQL and Redis for n8n's queue mode, from Debian's packages: installed with apt-get when
// missing (as root), each started on 127.0.0.1 on a free port with a data folder of its own, and
// stopped by PID. Nothing here uses the system services the packages come with.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { runStep, say, installLog, InstallError } = require('../install/steps');
const { freePort } = require('../common/ports');
const { aptLock } = require('../common/paths');

const PG_ROOT = '/usr/lib/postgresql';
const DB = { database: 'n8n', user: 'n8n', password: 'n8n-queue-local' };
const HAND_INSTALL = 'sudo apt-get install postgresql redis-server';

/**
 * @typedef {{ uid: number, gid: number }} RunAs  the postgres system user, when running as root
 * @typedef {{ add(pid: number, options?: { group?: boolean }): void, remove(pid: number): void }} PidRegistry  a watchdog's list (watchdog.js)
 * @typedef {{ dir: string, registry?: PidRegistry, log?: (message: string) => void }} ServiceOptions
 * @typedef {object} Service  a server started here, on 127.0.0.1, stopped by PID
 * @property {string} name
 * @property {string} host
 * @property {number} port
 * @property {number} pid
 * @property {string} dir
 * @property {string} logFile
 * @property {(options?: { remove?: boolean }) => Promise<void>} stop  removes `dir` unless told not to
 * @typedef {Service & { database: string, user: string, password: string, query(sql: string): string }} Postgres
 * @typedef {Service & { command(...args: string[]): string }} Redis
 */

/** The newest PostgreSQL's bin folder under /usr/lib/postgresql, or undefined. */
function postgresBin() {
	const versions = fs.existsSync(PG_ROOT) ? fs.readdirSync(PG_ROOT).filter((v) => /^\d+$/.test(v)) : [];
	const bins = versions
		.sort((a, b) => Number(b) - Number(a))
		.map((v) => path.join(PG_ROOT, v, 'bin'))
		.filter((bin) => ['postgres', 'initdb', 'createdb'].every((name) => fs.existsSync(path.join(bin, name))));
	return bins[0];
}

function redisBin() {
	for (const dir of (process.env.PATH || '').split(path.delimiter).concat('/usr/bin', '/usr/sbin')) {
		const candidate = path.join(dir, 'redis-server');
		if (dir && fs.existsSync(candidate)) return candidate;
	}
	return undefined;
}

const isRoot = () => process.getuid?.() === 0;

/**
 * Installs Debian's postgresql and redis-server when either is missing. The packages would start
 * their own system services; a policy-rc.d that refuses service starts keeps them from doing so
 * during the install (only when the machine has none of its own).
 */
async function ensureQueueServices() {
	const missing = /** @type {string[]} */ ([postgresBin() ? undefined : 'postgresql', redisBin() ? undefined : 'redis-server'].filter(Boolean));
	if (missing.length === 0) return { postgres: postgresBin(), redis: redisBin() };
	if (!isRoot()) {
		throw new InstallError(`Queue mode needs PostgreSQL and Redis, and ${missing.join(' and ')} cannot be installed without root: install them with \`${HAND_INSTALL}\`, then run this again.`);
	}
	say(`Queue mode needs ${missing.join(' and ')}: installing it from Debian's packages. apt-get's output goes to ${installLog}`);
	const policy = '/usr/sbin/policy-rc.d';
	const ownPolicy = !fs.existsSync(policy);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	try {
		if (ownPolicy) fs.writeFileSync(policy, '#!/bin/sh\n# Written by n8n-nodes-videoplatform during its apt-get install: no service starts.\nexit 101\n', { mode: 0o755 });
		// After another apt-get of the tools (npm test installs Chromium in the background), never beside it.
		fs.mkdirSync(path.dirname(aptLock), { recursive: true });
		await runStep('apt-get update', 'flock', [aptLock, 'apt-get', 'update'], { cwd: '/', env });
		await runStep(`apt-get install ${missing.join(' ')}`, 'flock', [aptLock, 'apt-get', 'install', '-y', '--no-install-recommends', 'postgresql', 'redis-server'], { cwd: '/', env });
	} catch (error) {
		throw new InstallError(`Installing ${missing.join(' and ')} with apt-get failed (${/** @type {Error} */ (error).message.split('. Read')[0]}): install them by hand with \`${HAND_INSTALL}\`, then run this again; apt-get's output is in ${installLog}.`);
	} finally {
		if (ownPolicy) fs.rmSync(policy, { force: true });
	}
	if (!postgresBin() || !redisBin()) {
		throw new InstallError(`apt-get finished but ${!postgresBin() ? `no PostgreSQL server is under ${PG_ROOT}` : 'redis-server is not on the PATH'}: install them by hand with \`${HAND_INSTALL}\`; apt-get's output is in ${installLog}.`);
	}
	return { postgres: postgresBin(), redis: redisBin() };
}

/** The postgres system user's uid and gid when running as root (PostgreSQL refuses root). */
function postgresUser() {
	if (!isRoot()) return undefined;
	const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout);
	const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout);
	if (!uid) throw new InstallError(`There is no "postgres" system user to run PostgreSQL as (it refuses to run as root): reinstall it with \`${HAND_INSTALL}\`.`);
	return { uid, gid };
}

/**
 * A folder for PostgreSQL's data under `preferred`, when the postgres user can reach it; else a
 * private folder under the system's temporary folder (a home such as /root is closed to it).
 * @param {string} preferred
 * @param {RunAs | undefined} user
 */
function postgresFolder(preferred, user) {
	fs.mkdirSync(preferred, { recursive: true });
	let dir = preferred;
	if (user) {
		const reachable = spawnSync('test', ['-x', preferred], { uid: user.uid, gid: user.gid }).status === 0;
		if (!reachable) {
			fs.rmSync(preferred, { recursive: true, force: true });
			dir = fs.mkdtempSync(path.join(os.tmpdir(), 'videoplatform-postgres-'));
		}
		fs.chownSync(dir, user.uid, user.gid);
	}
	fs.chmodSync(dir, 0o700);
	return dir;
}

/**
 * Runs a command to completion as `user` (or as this process); returns its output, or throws with its end.
 * @param {RunAs | undefined} user
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string }} [options]
 */
function runAs(user, command, args, options = {}) {
	const result = spawnSync(command, args, { encoding: 'utf8', timeout: 120_000, ...(user ?? {}), ...options });
	if (result.status !== 0) {
		throw new Error(`${path.basename(command)} ${args.join(' ')} failed (${/** @type {NodeJS.ErrnoException | undefined} */ (result.error)?.code ?? `exit ${result.status}`}): ${(result.stderr || result.stdout || '').trim().slice(-1500)}`);
	}
	return result.stdout;
}

/**
 * Waits until `ready()` is true; throws with the log's end when the process ends or time is up.
 * @param {string} what
 * @param {import('node:child_process').ChildProcess} child
 * @param {string} logFile
 * @param {() => boolean | Promise<boolean>} ready
 */
async function waitUntil(what, child, logFile, ready, timeoutMs = 60_000) {
	const started = Date.now();
	while (Date.now() - started < timeoutMs) {
		if (await ready()) return;
		if (child.exitCode !== null || child.signalCode !== null) break;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-2000) : '';
	const state = child.exitCode !== null || child.signalCode !== null ? `stopped (${child.signalCode || `exit ${child.exitCode}`})` : `was not ready within ${timeoutMs / 1000} s`;
	throw new Error(`${what} ${state}; its log is ${logFile}.\n${log}`);
}

/**
 * Sends `first`, then SIGKILL after `graceMs`, and waits for the child to exit.
 * @param {import('node:child_process').ChildProcess} child
 * @param {NodeJS.Signals} [first]
 */
async function stopChild(child, first = 'SIGTERM', graceMs = 15_000) {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise((resolve) => child.once('exit', resolve));
	child.kill(first);
	const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
	await exited;
	clearTimeout(timer);
}

/**
 * The PID of a child that was started; a child that could not be started has none.
 * @param {import('node:child_process').ChildProcess} child
 * @param {string} what
 */
function pidOf(child, what) {
	if (child.pid === undefined) throw new Error(`${what} could not be started`);
	return child.pid;
}

/**
 * PostgreSQL on 127.0.0.1 with a fresh cluster in `dir` (its socket there too), a database and a
 * user for n8n. `registry` (tools/queue/watchdog.js) is told the PID.
 * @param {ServiceOptions} options
 * @returns {Promise<Postgres>}
 */
async function startPostgres({ dir, registry, log = () => {} }) {
	const bin = postgresBin();
	if (!bin) throw new InstallError(`No PostgreSQL server is under ${PG_ROOT}: install it with \`${HAND_INSTALL}\`.`);
	const user = postgresUser();
	const root = postgresFolder(dir, user);
	const data = path.join(root, 'data');
	const socketDir = path.join(root, 'socket');
	const logFile = path.join(root, 'postgres.log');
	const passwordFile = path.join(root, 'password');
	fs.writeFileSync(passwordFile, DB.password);
	fs.mkdirSync(socketDir);
	if (user) for (const file of [passwordFile, socketDir]) fs.chownSync(file, user.uid, user.gid);
	runAs(user, path.join(bin, 'initdb'), ['-D', data, '-U', DB.user, `--pwfile=${passwordFile}`, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--no-locale', '--no-sync'], { cwd: root });

	const port = await freePort();
	const out = fs.openSync(logFile, 'a');
	if (user) fs.fchownSync(out, user.uid, user.gid);
	// A throw-away database for tests and local runs: durability settings off for speed.
	const args = ['-D', data, '-h', '127.0.0.1', '-p', String(port), '-k', socketDir, '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];
	const child = spawn(path.join(bin, 'postgres'), args, { cwd: root, stdio: ['ignore', out, out], ...(user ?? {}) });
	const pid = pidOf(child, 'PostgreSQL');
	fs.closeSync(out);
	registry?.add(pid);
	const probe = () => spawnSync(path.join(bin, 'pg_isready'), ['-h', socketDir, '-p', String(port)], { ...(user ?? {}) }).status === 0;
	await waitUntil(`PostgreSQL (${path.basename(path.dirname(bin))})`, child, logFile, probe);
	runAs(user, path.join(bin, 'createdb'), ['-h', socketDir, '-p', String(port), '-U', DB.user, DB.database], { cwd: root });
	log(`PostgreSQL ${path.basename(path.dirname(bin))} on 127.0.0.1:${port} (PID ${pid}, data in ${data})`);
	return {
		name: 'postgres',
		host: '127.0.0.1',
		port,
		pid,
		dir: root,
		logFile,
		...DB,
		/** psql as the n8n user over the socket; returns its unaligned output. */
		query(/** @type {string} */ sql) {
			return runAs(user, path.join(bin, 'psql'), ['-h', socketDir, '-p', String(port), '-U', DB.user, '-d', DB.database, '-At', '-c', sql]);
		},
		async stop({ remove = true } = {}) {
			// SIGINT is PostgreSQL's fast shutdown: open connections are ended, not waited for.
			await stopChild(child, 'SIGINT');
			registry?.remove(pid);
			if (remove) fs.rmSync(root, { recursive: true, force: true });
		},
	};
}

/**
 * Redis on 127.0.0.1, nothing saved to disk, its working folder `dir`.
 * @param {ServiceOptions} options
 * @returns {Promise<Redis>}
 */
async function startRedis({ dir, registry, log = () => {} }) {
	const bin = redisBin();
	if (!bin) throw new InstallError(`redis-server is not on the PATH: install it with \`${HAND_INSTALL}\`.`);
	fs.mkdirSync(dir, { recursive: true });
	const port = await freePort();
	const logFile = path.join(dir, 'redis.log');
	const out = fs.openSync(logFile, 'a');
	const args = ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'];
	const child = spawn(bin, args, { cwd: dir, stdio: ['ignore', out, out] });
	fs.closeSync(out);
	const pid = pidOf(child, 'Redis');
	registry?.add(pid);
	await waitUntil('Redis', child, logFile, () => /Ready to accept connections/.test(fs.readFileSync(logFile, 'utf8')));
	log(`Redis on 127.0.0.1:${port} (PID ${pid})`);
	return {
		name: 'redis',
		host: '127.0.0.1',
		port,
		pid,
		dir,
		logFile,
		/** A command through redis-cli (installed beside redis-server); returns its raw output. */
		command(/** @type {string[]} */ ...args) {
			return runAs(undefined, path.join(path.dirname(bin), 'redis-cli'), ['-h', '127.0.0.1', '-p', String(port), '--raw', ...args]);
		},
		async stop({ remove = true } = {}) {
			await stopChild(child, 'SIGTERM');
			registry?.remove(pid);
			if (remove) fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

module.exports = { ensureQueueServices, startPostgres, startRedis, postgresBin, redisBin, stopChild, HAND_INSTALL };

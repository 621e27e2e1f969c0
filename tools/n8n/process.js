'use strict';
// One n8n process of an N8n (n8n.js): its user folder, ports, environment, CLI commands and
// long-running command, stopped by process group. N8n owns one (a single process) or several
// (queue mode); only the long-running command and its ready line differ by role.
const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { freePort } = require('../common/ports');
const { cacheRoot, n8nDir } = require('../common/paths');
const { nodeFor } = require('../install/n8n');
const { tallyStep } = require('../checks/phases');

const ENCRYPTION_KEY = 'videoplatform-local-encryption-key';

/**
 * @typedef {'single' | 'main' | 'worker' | 'webhook'} Role
 * @typedef {Record<string, string | undefined>} Env
 * @typedef {{ status: number | null, signal?: string | null, timedOutMs?: number, stdout: string, stderr: string }} CliResult
 *   signal: what ended the command, if a signal did; timedOutMs: set when cli() killed it at its time limit
 * @typedef {object} Owner  what a process reads from the N8n it belongs to
 * @property {string} version
 * @property {import('../install/versions').Capabilities} capabilities
 * @property {Env} sharedEnv  set on every process of the N8n (queue mode: database, Redis, webhook URL)
 * @property {{ add(pid: number, options?: { group?: boolean }): void, remove(pid: number): void }} [registry]  the watchdog's list
 */

/** The long-running command of each role, and the log line that says it is ready. */
const ROLES = {
	single: { command: () => ['start'], ready: /Editor is now accessible/ },
	main: { command: () => ['start'], ready: /Editor is now accessible/ },
	worker: { command: (/** @type {N8nProcess} */ p) => ['worker', `--concurrency=${p.concurrency}`], ready: /n8n worker is now ready/ },
	webhook: { command: () => ['webhook'], ready: /Webhook listener waiting for requests/ },
};

/**
 * How a CLI command ended, in words: its exit code, the signal, or the time limit that killed it.
 * @param {CliResult} result
 */
function howCliEnded({ status, signal, timedOutMs }) {
	if (timedOutMs) return `was killed after ${timedOutMs / 1000} s, the time limit the tools give a CLI command`;
	return signal ? `was ended by ${signal}` : `exited with code ${status}`;
}

/** @param {import('node:child_process').ChildProcess} child */
const hasExited = (child) => child.exitCode !== null || child.signalCode !== null;

class N8nProcess {
	/**
	 * @param {object} options
	 * @param {Owner} options.owner
	 * @param {string} options.name  "n8n", "main", "worker-1", "webhook-1"...
	 * @param {Role} options.role
	 * @param {string} options.userFolder  created if missing
	 * @param {number} [options.port]  a free one when left out
	 * @param {number} [options.concurrency]  a worker's
	 */
	constructor({ owner, name, role, userFolder, port, concurrency = 1 }) {
		this.owner = owner;
		this.name = name;
		this.role = role;
		this.userFolder = path.resolve(userFolder);
		this.port = port;
		this.concurrency = concurrency;
		/** @type {number | undefined} */
		this.brokerPort = undefined;
		/** @type {string} */
		this.node = process.execPath;
		this.bin = path.join(n8nDir(owner.version), 'node_modules', 'n8n', 'bin', 'n8n');
		/** @type {import('node:child_process').ChildProcess[]} children running now: the long-running one and CLI commands */
		this.children = [];
		/** @type {import('node:child_process').ChildProcess | undefined} */
		this.child = undefined;
		/** @type {string | undefined} */
		this.logFile = undefined;
		/** @type {string[]} logs of earlier runs, kept on a restart */
		this.pastLogs = [];
		/** @type {number | undefined} */
		this.startupMs = undefined;
	}

	/** The Node that runs this version, the ports, and the community nodes folder. */
	async prepare() {
		this.node = await nodeFor(this.owner.version);
		this.port = this.port ?? (await freePort());
		if (this.owner.capabilities.taskBroker) this.brokerPort = this.brokerPort ?? (await freePort());
		fs.mkdirSync(path.join(this.userFolder, '.n8n', 'nodes'), { recursive: true });
		return this;
	}

	get baseUrl() {
		return `http://127.0.0.1:${this.port}`;
	}

	get pid() {
		return this.child?.pid;
	}

	/** Whether the long-running command is up. */
	get running() {
		return this.child !== undefined && !hasExited(this.child);
	}

	/**
	 * The environment of this process: the shell's, n8n's headless settings, the owner's shared
	 * settings, then `extra`.
	 * @param {Env} [extra]
	 * @returns {Env}
	 */
	env(extra = {}) {
		const inherited = { ...process.env };
		// A custom extension folder from the shell would load a second copy; only `extra` may set one.
		delete inherited.N8N_CUSTOM_EXTENSIONS;
		// Nor may another SQLite file: the database is the user folder's (migratedDatabase.js, start.js).
		delete inherited.DB_SQLITE_DATABASE;
		/** @type {Env} */
		const env = {
			...inherited,
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
			N8N_PORT: String(this.port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			...(this.brokerPort ? { N8N_RUNNERS_BROKER_PORT: String(this.brokerPort) } : {}),
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			DB_TYPE: 'sqlite',
			N8N_LOG_LEVEL: 'info',
			// Node 24 keeps the compiled code of n8n's thousands of modules for the next start (the
			// Node-20 versions run on the tools' Node 20, which has no such cache); nothing n8n does
			// changes. 2.41.1 got ready in 12.3 and 12.7 s against 14.6 and 17.5 s without it (2026-12-02).
			NODE_COMPILE_CACHE: path.join(cacheRoot, 'node-compile-cache'),
			...this.owner.sharedEnv,
			...extra,
		};
		const { modulesToDisable } = this.owner.capabilities;
		if (modulesToDisable.length) env.N8N_DISABLED_MODULES = modulesToDisable.join(',');
		// A test runner's NODE_ENV=test makes n8n keep its database in memory, losing imports.
		env.NODE_ENV = 'production';
		return env;
	}

	/**
	 * Tracks a child until it exits, and tells the watchdog (queue mode) its process group.
	 * @param {import('node:child_process').ChildProcess} child
	 */
	track(child) {
		this.children.push(child);
		const { registry } = this.owner;
		if (registry && child.pid) {
			registry.add(child.pid, { group: true });
			child.once('exit', () => child.pid && registry.remove(child.pid));
		}
	}

	/**
	 * Runs an n8n CLI command to completion. Asynchronous on purpose: a synchronous child would
	 * block this process, and with it any local server the command has to reach.
	 * @param {string[]} args
	 * @param {{ allowFailure?: boolean, timeoutMs?: number, env?: Env }} [options]
	 * @returns {Promise<CliResult>}
	 */
	cli(args, { allowFailure = false, timeoutMs = 5 * 60_000, env = {} } = {}) {
		const started = performance.now();
		return new Promise((resolve, reject) => {
			const child = spawn(this.node, [this.bin, ...args], { env: this.env(env), detached: true });
			this.track(child);
			let stdout = '';
			let stderr = '';
			child.stdout.on('data', (chunk) => (stdout += chunk));
			child.stderr.on('data', (chunk) => (stderr += chunk));
			child.once('error', (/** @type {NodeJS.ErrnoException} */ error) =>
				reject(new Error(`n8n ${args[0]} could not be started with ${this.node} (${error.code || error.message})`)),
			);
			let timedOut = false;
			const timer = setTimeout(() => {
				timedOut = true;
				if (child.pid) process.kill(-child.pid, 'SIGKILL');
			}, timeoutMs);
			child.on('close', (status, signal) => {
				clearTimeout(timer);
				tallyStep(`n8n CLI ${args[0]}, each a cold start`, (performance.now() - started) / 1000);
				this.children = this.children.filter((p) => p !== child);
				const result = { status, signal, ...(timedOut ? { timedOutMs: timeoutMs } : {}), stdout, stderr };
				if (status !== 0 && !allowFailure) {
					reject(new Error(`n8n ${args.join(' ')} ${howCliEnded(result)}:\n${stdout}\n${stderr}`.slice(-4000)));
				} else resolve(result);
			});
		});
	}

	/**
	 * Installs the packed package into this user folder, as n8n's community nodes do.
	 * @param {string} tarball
	 */
	installPackage(tarball) {
		const started = performance.now();
		const nodesDir = path.join(this.userFolder, '.n8n', 'nodes');
		const manifest = path.join(nodesDir, 'package.json');
		if (!fs.existsSync(manifest)) fs.writeFileSync(manifest, JSON.stringify({ private: true }));
		const result = spawnSync(
			'npm',
			['install', '--legacy-peer-deps', '--no-audit', '--no-fund', '--ignore-scripts', path.resolve(tarball)],
			{ cwd: nodesDir, encoding: 'utf8' },
		);
		if (result.status !== 0) throw new Error(`Installing ${tarball} failed:\n${result.stderr}`);
		tallyStep('npm install of the tarball into a user folder', (performance.now() - started) / 1000);
	}

	/**
	 * Writes a JSON file into the user folder; returns its path.
	 * @param {string} name
	 * @param {unknown} data
	 */
	writeJson(name, data) {
		const file = path.join(this.userFolder, name);
		fs.writeFileSync(file, JSON.stringify(data, null, 2));
		return file;
	}

	/**
	 * Starts the role's long-running command in the background (`n8n start`, `worker` or
	 * `webhook`); resolves once its log says it is ready. A restart keeps the earlier log.
	 * @param {{ timeoutMs?: number, onLog?: (log: string) => void, env?: Env }} [options]
	 */
	async start({ timeoutMs = 120_000, onLog, env } = {}) {
		const { command, ready } = ROLES[this.role];
		const args = command(this);
		if (this.logFile && fs.existsSync(this.logFile)) {
			const kept = this.logFile.replace(/\.log$/, `.${this.pastLogs.length + 1}.log`);
			fs.renameSync(this.logFile, kept);
			this.pastLogs.push(kept);
		}
		const logFile = path.join(this.userFolder, `n8n-${args[0]}.log`);
		const out = fs.openSync(logFile, 'w');
		const child = spawn(this.node, [this.bin, ...args], { env: this.env(env), stdio: ['ignore', out, out], detached: true });
		fs.closeSync(out);
		/** @type {NodeJS.ErrnoException | undefined} */
		let spawnError;
		child.once('error', (error) => (spawnError = error));
		this.track(child);
		this.child = child;
		fs.writeFileSync(path.join(this.userFolder, 'n8n.pid'), String(child.pid));
		this.logFile = logFile;
		const started = Date.now();
		while (Date.now() - started < timeoutMs) {
			const log = fs.readFileSync(logFile, 'utf8');
			if (ready.test(log)) {
				this.startupMs = Date.now() - started;
				tallyStep(`n8n ${args[0]}, until ready`, this.startupMs / 1000);
				return this;
			}
			if (spawnError) throw new Error(`n8n could not be started with ${this.node} (${spawnError.code || spawnError.message}).`);
			if (child.exitCode !== null) {
				throw new Error(`n8n ${this.owner.version} stopped while starting (exit code ${child.exitCode}); its log is ${logFile}.\n${log.slice(-3000)}`);
			}
			if (onLog) onLog(log);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		throw new Error(`n8n ${this.owner.version} did not start within ${timeoutMs / 1000} s; its log is ${logFile}.\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`);
	}

	/** Stops every process this one started (CLI commands included), by process group. */
	async stop() {
		const started = performance.now();
		let stopped = 0;
		for (const child of this.children) {
			if (hasExited(child) || !child.pid) continue;
			const pid = child.pid;
			const exited = new Promise((resolve) => child.once('exit', resolve));
			try {
				process.kill(-pid, 'SIGTERM');
			} catch {
				continue;
			}
			const timer = setTimeout(() => {
				try {
					process.kill(-pid, 'SIGKILL');
				} catch {
					// already gone
				}
			}, 15_000);
			await exited;
			clearTimeout(timer);
			stopped++;
		}
		this.children = [];
		// Every wait counted, SIGKILL's included (up to 15 s per process), one row per stop() of a process,
		// so that what shutdowns cost is known before any is cut short.
		if (stopped > 0) tallyStep('n8n stop, until its processes exit', (performance.now() - started) / 1000);
	}

	/**
	 * The ids of the executions this process started as a worker, over all its runs.
	 * @returns {string[]}
	 */
	executionIds() {
		const text = [...this.pastLogs, this.logFile]
			.filter((file) => file !== undefined && fs.existsSync(file))
			.map((file) => fs.readFileSync(/** @type {string} */ (file), 'utf8'))
			.join('\n');
		return [...text.matchAll(/Worker started execution (\d+)/g)].map((match) => match[1]);
	}
}

module.exports = { N8nProcess, ROLES, howCliEnded };

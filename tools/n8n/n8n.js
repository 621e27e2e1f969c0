'use strict';
// Drives a real n8n from the command line, headlessly: a user folder of its own, the packed
// package installed the way users install it, imports, `n8n execute`, and `n8n start`.
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { n8nDir } = require('../common/paths');
const { ensureN8n, nodeFor } = require('../install/n8n');
const { defaultVersion, versionSpec } = require('../install/versions');
const { triggerUrls } = require('./workflows');

const ENCRYPTION_KEY = 'videoplatform-local-encryption-key';

/** The CLI arguments that activate a workflow, by the version's activateCommand. */
const ACTIVATE_ARGS = {
	'publish:workflow': (id) => ['publish:workflow', `--id=${id}`],
	'update:workflow': (id) => ['update:workflow', `--id=${id}`, '--active=true'],
};

/** A free TCP port on 127.0.0.1. */
function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

/**
 * The JSON document n8n prints among its log lines: from the first line that is exactly `{` to
 * the last that is exactly `}`, since a late log line (a shutdown message) may follow it.
 */
function parseRawOutput(stdout) {
	const start = stdout.search(/^\{$/m);
	const end = stdout.lastIndexOf('\n}');
	if (start < 0 || end < start) throw new Error(`n8n printed no run data:\n${stdout.slice(-2000)}`);
	return JSON.parse(stdout.slice(start, end + 2));
}

class N8nInstance {
	/**
	 * @param {object} options
	 * @param {string} [options.version]  a version from versions.js; the default 2.x when left out
	 * @param {string} options.userFolder  created if missing; kept between runs
	 */
	constructor({ version = defaultVersion(), userFolder }) {
		const spec = versionSpec(version);
		this.version = spec.version;
		/** What this version can do (tools/install/versions.js); read instead of its major. */
		this.capabilities = spec.capabilities;
		this.userFolder = path.resolve(userFolder);
		this.processes = [];
	}

	async prepare() {
		await ensureN8n(this.version);
		this.node = await nodeFor(this.version);
		this.bin = path.join(n8nDir(this.version), 'node_modules', 'n8n', 'bin', 'n8n');
		this.port = this.port ?? (await freePort());
		if (this.capabilities.taskBroker) this.brokerPort = this.brokerPort ?? (await freePort());
		fs.mkdirSync(path.join(this.userFolder, '.n8n', 'nodes'), { recursive: true });
		return this;
	}

	/** @returns {Record<string, string | undefined>} the environment of every n8n process of this instance */
	env(extra = {}) {
		const inherited = { ...process.env };
		// A custom extension folder from the shell would load a second copy; only `extra` may set one.
		delete inherited.N8N_CUSTOM_EXTENSIONS;
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
			...extra,
		};
		const { modulesToDisable } = this.capabilities;
		if (modulesToDisable.length) env.N8N_DISABLED_MODULES = modulesToDisable.join(',');
		// A test runner's NODE_ENV=test makes n8n keep its database in memory, losing imports.
		env.NODE_ENV = 'production';
		return env;
	}

	/**
	 * Runs an n8n CLI command to completion. Asynchronous on purpose: a synchronous child would
	 * block this process, and with it any local server the command has to reach.
	 */
	cli(args, { allowFailure = false, timeoutMs = 5 * 60_000, env = {} } = {}) {
		return new Promise((resolve, reject) => {
			const child = spawn(this.node, [this.bin, ...args], { env: this.env(env), detached: true });
			this.processes.push(child);
			this.onSpawn?.(child);
			let stdout = '';
			let stderr = '';
			child.stdout.on('data', (chunk) => (stdout += chunk));
			child.stderr.on('data', (chunk) => (stderr += chunk));
			child.once('error', (error) => reject(new Error(`n8n ${args[0]} could not be started with ${this.node} (${error.code || error.message})`)));
			const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), timeoutMs);
			child.on('close', (status) => {
				clearTimeout(timer);
				this.processes = this.processes.filter((p) => p !== child);
				const result = { status, stdout, stderr };
				if (status !== 0 && !allowFailure) {
					reject(new Error(`n8n ${args.join(' ')} exited ${status}:\n${stdout}\n${stderr}`.slice(-4000)));
				} else resolve(result);
			});
		});
	}

	/** Installs the packed package into this user folder, as n8n's community nodes do. */
	installPackage(tarball) {
		const nodesDir = path.join(this.userFolder, '.n8n', 'nodes');
		const manifest = path.join(nodesDir, 'package.json');
		if (!fs.existsSync(manifest)) fs.writeFileSync(manifest, JSON.stringify({ private: true }));
		const result = spawnSync(
			'npm',
			['install', '--legacy-peer-deps', '--no-audit', '--no-fund', '--ignore-scripts', path.resolve(tarball)],
			{ cwd: nodesDir, encoding: 'utf8' },
		);
		if (result.status !== 0) throw new Error(`Installing ${tarball} failed:\n${result.stderr}`);
	}

	writeJson(name, data) {
		const file = path.join(this.userFolder, name);
		fs.writeFileSync(file, JSON.stringify(data, null, 2));
		return file;
	}

	/** Everything `n8n export:<kind> --all` gives (decrypted for credentials); [] when there is none. */
	async exportAll(kind) {
		const file = path.join(this.userFolder, `${kind}.export.json`);
		fs.rmSync(file, { force: true });
		const args = [`export:${kind}`, '--all', `--output=${file}`, ...(kind === 'credentials' ? ['--decrypted'] : [])];
		const result = await this.cli(args, { allowFailure: true });
		const found = result.status === 0 && fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : [];
		fs.rmSync(file, { force: true });
		return found;
	}

	/** A credential with its data; undefined when there is none. */
	async exportCredential(id) {
		return (await this.exportAll('credentials')).find((credential) => credential.id === id);
	}

	async importCredentials(credentials) {
		await this.cli(['import:credentials', `--input=${this.writeJson('credentials.import.json', credentials)}`]);
	}

	async importWorkflow(workflow) {
		await this.cli(['import:workflow', `--input=${this.writeJson(`workflow-${workflow.id}.json`, workflow)}`]);
	}

	async activateWorkflow(id) {
		const args = ACTIVATE_ARGS[this.capabilities.activateCommand];
		if (!args) throw new Error(`n8n ${this.version}: unknown activateCommand "${this.capabilities.activateCommand}" in tools/install/versions.js`);
		await this.cli(args(id));
	}

	/** `n8n execute`: returns { ok, run, stdout, stderr }, run being the raw run data. */
	async execute(id, { env } = {}) {
		const result = await this.cli(['execute', `--id=${id}`, '--rawOutput'], { allowFailure: true, env });
		let run;
		try {
			run = parseRawOutput(result.stdout);
		} catch {
			run = undefined;
			// A run that succeeded has run data; said here, since a test sees only that there is none.
			if (result.status === 0) {
				process.stderr.write(`[n8n ${this.version}] execute --id=${id} exited 0 without run data:\n${result.stdout.slice(-1500)}\n${result.stderr.slice(-1500)}\n`);
			}
		}
		return { ok: result.status === 0, run, stdout: result.stdout, stderr: result.stderr };
	}

	/**
	 * `n8n start` in the background; resolves once the editor and webhooks answer. Another long-
	 * running command (queue mode's `worker`, `webhook`) is started the same way with `command`
	 * and the log line that says it is ready.
	 */
	async start({ timeoutMs = 120_000, onLog, env, command = ['start'], ready = /Editor is now accessible/ } = {}) {
		const logFile = path.join(this.userFolder, `n8n-${command[0]}.log`);
		const out = fs.openSync(logFile, 'w');
		const child = spawn(this.node, [this.bin, ...command], {
			env: this.env(env),
			stdio: ['ignore', out, out],
			detached: true,
		});
		fs.closeSync(out);
		let spawnError;
		child.once('error', (error) => (spawnError = error));
		this.processes.push(child);
		this.onSpawn?.(child);
		this.pid = child.pid;
		fs.writeFileSync(path.join(this.userFolder, 'n8n.pid'), String(child.pid));
		this.logFile = logFile;
		const started = Date.now();
		while (Date.now() - started < timeoutMs) {
			const log = fs.readFileSync(logFile, 'utf8');
			if (ready.test(log)) {
				this.startupMs = Date.now() - started;
				return this;
			}
			if (spawnError) throw new Error(`n8n could not be started with ${this.node} (${spawnError.code || spawnError.message}).`);
			if (child.exitCode !== null) {
				throw new Error(`n8n ${this.version} stopped while starting (exit code ${child.exitCode}); its log is ${logFile}.\n${log.slice(-3000)}`);
			}
			if (onLog) onLog(log);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		throw new Error(`n8n ${this.version} did not start within ${timeoutMs / 1000} s; its log is ${logFile}.\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`);
	}

	/**
	 * Waits until a production webhook answers. n8n announces the editor before it has registered
	 * the active workflows' webhooks. A GET to a POST webhook starts nothing, and n8n's answer
	 * tells a registered path ("not registered for GET requests") from an unknown one.
	 */
	async waitForWebhook(url, timeoutMs = 60_000) {
		const started = Date.now();
		while (Date.now() - started < timeoutMs) {
			const response = await fetch(url).catch(() => undefined);
			const text = response ? await response.text() : '';
			if (response && (response.status !== 404 || /not registered for GET/.test(text))) return;
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
		throw new Error(`The webhook ${url} was not registered within ${timeoutMs / 1000} s`);
	}

	get baseUrl() {
		return `http://127.0.0.1:${this.port}`;
	}

	/** The Production URL of the workflow's Video Platform Trigger on this n8n. */
	triggerUrl(workflow) {
		const [url] = triggerUrls(this.baseUrl, workflow);
		if (!url) throw new Error(`Workflow ${workflow.id} has no enabled Video Platform Trigger with a webhookId`);
		return url;
	}

	/** Stops every process this instance started, by process group. */
	async stop() {
		for (const child of this.processes) {
			if (child.exitCode !== null || child.signalCode !== null) continue;
			const exited = new Promise((resolve) => child.once('exit', resolve));
			try {
				process.kill(-child.pid, 'SIGTERM');
			} catch {
				continue;
			}
			const timer = setTimeout(() => {
				try {
					process.kill(-child.pid, 'SIGKILL');
				} catch {
					// already gone
				}
			}, 15_000);
			await exited;
			clearTimeout(timer);
		}
		this.processes = [];
	}

	/** Stops n8n and removes the user folder: for throw-away test instances only. */
	async dispose() {
		await this.stop();
		fs.rmSync(this.userFolder, { recursive: true, force: true });
	}
}

module.exports = { N8nInstance, freePort, parseRawOutput };

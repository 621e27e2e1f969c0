'use strict';
// A running n8n, driven headlessly from the command line, in either mode:
// - single: one `n8n start` process with SQLite in `userFolder`;
// - queue: PostgreSQL and Redis, a main process (editor, API, test webhooks), workers
//   (`n8n worker`) that run the executions and webhook processors (`n8n webhook`) that take the
//   production webhooks, as n8n documents it for scaling. Each process has a user folder of its
//   own under `userFolder` (made anew by prepare()) with the package installed in its
//   `.n8n/nodes`, as a community package is installed on each n8n instance; all share one
//   encryption key, database and queue. A watchdog stops them by PID if this process dies.
// Both modes share the lifecycle: prepare() (install, ports; the database and Redis too in queue
// mode, since every CLI command needs them), installPackage(), imports through the main
// process's CLI (or its API: importThroughApi), activateWorkflow(), start(), the public API,
// stop() and dispose(). What differs
// is small: the processes' roles (process.js) and the shared environment. Both activate through
// the running main process's public API, one request each instead of a CLI cold start of seconds;
// in queue mode that also registers the webhooks in the database where the webhook processors look them up.
const fs = require('node:fs');
const path = require('node:path');
const { ensureN8n } = require('../install/n8n');
const { defaultVersion, versionSpec } = require('../install/versions');
const { createApiKey, endedWithRunData, ensureOwner, listExecutions, publicApiCall, rest, waitForExecutions, withStatus } = require('./api');
const { startFromMigratedDatabase } = require('./migratedDatabase');
const { N8nProcess, howCliEnded } = require('./process');
const { triggerUrls } = require('./workflows');

/**
 * One key per n8n for the tooling and the tests: n8n 1.x makes a key from the user and the second, so
 * a second key made in the same second fails as a duplicate. A version refuses a scope it lacks.
 */
const API_SCOPES = ['execution:list', 'execution:read', 'workflow:read', 'workflow:list', 'workflow:create', 'workflow:update', 'workflow:activate', 'workflow:deactivate'];

/**
 * @typedef {import('./process').Env} Env
 * @typedef {import('./process').CliResult} CliResult
 * @typedef {{ id: string }} Workflow  workflow JSON, built by workflows.js or loaded
 * @typedef {import('./workflows').Credential} Credential
 * @typedef {import('./workflows').HasNodes & { id: string }} WorkflowWithNodes
 * @typedef {Workflow & { name: string, nodes: { name: string }[], connections: object, settings?: object }} RunnableWorkflow
 * @typedef {object} QueueOptions
 * @property {number} [workers]  `n8n worker` processes (2)
 * @property {number} [concurrency]  executions per worker at once (2)
 * @property {number} [webhookProcessors]  `n8n webhook` processes (1)
 * @property {Env} [env]  added to every process's environment
 * @typedef {{ credentials: Credential[], workflows: Workflow[] }} Imports
 * @typedef {object} PublicApi  a small client of n8n's public API (/api/v1) on the main process
 * @property {string} url
 * @property {string} key
 * @property {(route: string) => Promise<any>} get
 * @property {(route: string, body?: unknown) => Promise<any>} post
 * @property {(route: string, body: unknown) => Promise<any>} put
 * @property {(workflowId: string, options?: { includeData?: boolean }) => Promise<any[]>} executions
 */

/**
 * The JSON document n8n prints among its log lines: from the first line that is exactly `{` to
 * the last that is exactly `}`, since a late log line (a shutdown message) may follow it.
 * @param {string} stdout
 */
function parseRawOutput(stdout) {
	const start = stdout.search(/^\{$/m);
	const end = stdout.lastIndexOf('\n}');
	if (start < 0 || end < start) throw new Error(`n8n printed no run data:\n${stdout.slice(-2000)}`);
	return JSON.parse(stdout.slice(start, end + 2));
}

/** What n8n's editor API (POST /rest/workflows) saves of a new workflow, as the CLI imports it (1.x drops the id). */
const NEW_WORKFLOW_FIELDS = ['id', 'name', 'description', 'nodes', 'connections', 'settings', 'staticData', 'meta', 'pinData'];

/**
 * @param {Record<string, unknown>} workflow
 * @returns {Record<string, unknown>}
 */
const newWorkflowBody = (workflow) => Object.fromEntries(NEW_WORKFLOW_FIELDS.filter((field) => workflow[field] !== undefined).map((field) => [field, workflow[field]]));

class N8n {
	/**
	 * @param {object} options
	 * @param {string} [options.version]  a version from tools/install/versions.js; the default when left out
	 * @param {string} options.userFolder  single: the user folder, kept between runs; queue: the
	 *   folder of every process's user folder and the services' data, made anew by prepare()
	 * @param {number} [options.port]  the main process's port; a free one when left out
	 * @param {QueueOptions} [options.queue]  queue mode, with these processes
	 * @param {(message: string) => void} [options.log]  progress lines (queue mode)
	 * @param {boolean} [options.migratedDatabase]  single mode, a new user folder: start from a copy of
	 *   a database this version has migrated before (migratedDatabase.js), for tests
	 * @param {boolean} [options.importThroughApi]  single mode: imports go through the started n8n's
	 *   API, one request each instead of a cold start of the CLI of 5 s or more; those made before
	 *   start() wait for it. Where the API gives new ids (1.x), idOf() says n8n's. For tests
	 * @param {boolean} [options.editor]  false: n8n serves its API and webhooks but no editor
	 *   (N8N_DISABLE_UI), and skips rewriting the editor's files at every start, about a third of
	 *   a start's CPU. For tests that never open the editor
	 */
	constructor({ version = defaultVersion(), userFolder, port, queue, log = () => {}, migratedDatabase = false, importThroughApi = false, editor = true }) {
		const spec = versionSpec(version);
		this.version = spec.version;
		/** What this version can do (tools/install/versions.js); read instead of its major. */
		this.capabilities = spec.capabilities;
		this.userFolder = path.resolve(userFolder);
		this.log = log;
		/** @type {'single' | 'queue'} */
		this.mode = queue ? 'queue' : 'single';
		this.migratedDatabase = migratedDatabase && !queue;
		/** Whether imports go through the API: asked for, in single mode. */
		this.apiImports = importThroughApi && !queue;
		/** @type {Map<string, string>} the id n8n gave each workflow and credential imported with another (1.x's API) */
		this.n8nIds = new Map();
		/** @type {Set<string>} the credentials imported, by the id they were imported with */
		this.importedCredentials = new Set();
		/** @type {Imports} made before start(), for start() to make through the API */
		this.pendingImports = { credentials: [], workflows: [] };
		// Each left out (or undefined, as startQueueStack passes it on) takes its default.
		this.queue = queue
			? { workers: queue.workers ?? 2, concurrency: queue.concurrency ?? 2, webhookProcessors: queue.webhookProcessors ?? 1, env: queue.env ?? {} }
			: undefined;
		/** @type {Env} what the editor option sets on every process */
		this.editorEnv = editor ? {} : { N8N_DISABLE_UI: 'true' };
		/** @type {Env} set on every process (queue mode: database, Redis, webhook URL) */
		this.sharedEnv = { ...this.editorEnv };
		/** @type {import('../queue/watchdog').Registry | undefined} */
		this.registry = undefined;
		/** @type {{ postgres: import('../queue/services').Postgres, redis: import('../queue/services').Redis } | undefined} */
		this.services = undefined;
		/** @type {PublicApi | undefined} */
		this.apiClient = undefined;
		/** @type {string | undefined} the owner's session, for the editor's REST calls (made with the public API's key) */
		this.ownerCookie = undefined;
		/** @type {string[]} workflows to activate once the main process runs */
		this.pendingActivations = [];

		/** @type {(name: string, role: import('./process').Role, userFolder: string) => N8nProcess} */
		const make = (name, role, folder) => new N8nProcess({ owner: this, name, role, userFolder: folder, concurrency: this.queue?.concurrency });
		const inQueue = (/** @type {string} */ name) => path.join(this.userFolder, name);
		this.main = this.queue ? make('main', 'main', inQueue('main')) : make('n8n', 'single', this.userFolder);
		this.main.port = port;
		/** @type {N8nProcess[]} */
		this.workers = [];
		/** @type {N8nProcess[]} */
		this.webhooks = [];
		for (let i = 1; i <= (this.queue?.workers ?? 0); i++) this.workers.push(make(`worker-${i}`, 'worker', inQueue(`worker-${i}`)));
		for (let i = 1; i <= (this.queue?.webhookProcessors ?? 0); i++) this.webhooks.push(make(`webhook-${i}`, 'webhook', inQueue(`webhook-${i}`)));
	}

	/** Every n8n process: the main one, then workers and webhook processors (queue mode). */
	get processes() {
		return [this.main, ...this.workers, ...this.webhooks];
	}

	/**
	 * Installs this version when needed and picks free ports. In queue mode it also starts
	 * PostgreSQL and Redis in a fresh `userFolder`, since every CLI command needs the database.
	 */
	async prepare() {
		await ensureN8n(this.version);
		if (this.queue) await this.prepareQueue();
		for (const p of this.processes) await p.prepare();
		if (this.migratedDatabase) await startFromMigratedDatabase(this.main);
		// Production URLs (in the editor too) point at the first webhook processor.
		if (this.queue) this.sharedEnv.WEBHOOK_URL = `${this.webhookUrl}/`;
		return this;
	}

	/** Queue mode's part of prepare(): the watchdog, PostgreSQL, Redis and the shared environment. */
	async prepareQueue() {
		// Loaded only here: single mode needs neither apt-get nor the watchdog.
		const { ensureQueueServices, startPostgres, startRedis } = require('../queue/services');
		const { startWatchdog } = require('../queue/watchdog');
		fs.rmSync(this.userFolder, { recursive: true, force: true });
		fs.mkdirSync(this.userFolder, { recursive: true });
		await ensureQueueServices();
		const registry = startWatchdog(path.join(this.userFolder, 'processes'));
		this.registry = registry;
		const options = { registry, log: this.log };
		const [postgres, redis] = await Promise.allSettled([
			startPostgres({ dir: path.join(this.userFolder, 'postgres'), ...options }),
			startRedis({ dir: path.join(this.userFolder, 'redis'), ...options }),
		]);
		if (postgres.status === 'rejected' || redis.status === 'rejected') {
			for (const started of [postgres, redis]) if (started.status === 'fulfilled') await started.value.stop().catch(() => undefined);
			registry.close();
			throw /** @type {PromiseRejectedResult} */ (postgres.status === 'rejected' ? postgres : redis).reason;
		}
		this.services = { postgres: postgres.value, redis: redis.value };
		this.sharedEnv = {
			...this.editorEnv,
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: redis.value.host,
			QUEUE_BULL_REDIS_PORT: String(redis.value.port),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: postgres.value.host,
			DB_POSTGRESDB_PORT: String(postgres.value.port),
			DB_POSTGRESDB_DATABASE: postgres.value.database,
			DB_POSTGRESDB_USER: postgres.value.user,
			DB_POSTGRESDB_PASSWORD: postgres.value.password,
			N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			...this.queue?.env,
		};
	}

	get port() {
		return this.main.port;
	}

	/** The main process: editor, REST and public API (and every webhook in single mode). */
	get baseUrl() {
		return this.main.baseUrl;
	}

	/** Where production webhooks go: the first webhook processor in queue mode, else the main process. */
	get webhookUrl() {
		return (this.webhooks[0] ?? this.main).baseUrl;
	}

	/** The main process's log, PID, and how long its last start took. */
	get logFile() {
		return this.main.logFile;
	}

	get pid() {
		return this.main.pid;
	}

	get startupMs() {
		return this.main.startupMs;
	}

	/**
	 * The environment of the main process.
	 * @param {Env} [extra]
	 */
	env(extra) {
		return this.main.env(extra);
	}

	/**
	 * Runs an n8n CLI command on the main process.
	 * @param {string[]} args
	 * @param {{ allowFailure?: boolean, timeoutMs?: number, env?: Env }} [options]
	 * @returns {Promise<CliResult>}
	 */
	async cli(args, options) {
		// Imports waiting for start() go first, through the CLI: the command may read them.
		const pending = this.takePendingImports();
		if (pending) await this.importWithCli(pending);
		return await this.main.cli(args, options);
	}

	/**
	 * Installs the packed package on every process, as n8n's community nodes do.
	 * @param {string} tarball
	 */
	installPackage(tarball) {
		for (const p of this.processes) p.installPackage(tarball);
	}

	/**
	 * Writes a JSON file into the main process's user folder; returns its path.
	 * @param {string} name
	 * @param {unknown} data
	 */
	writeJson(name, data) {
		return this.main.writeJson(name, data);
	}

	/**
	 * Everything `n8n export:<kind> --all` gives (decrypted for credentials); [] when there is none.
	 * @param {'workflow' | 'credentials'} kind
	 * @returns {Promise<any[]>}
	 */
	async exportAll(kind) {
		const file = path.join(this.main.userFolder, `${kind}.export.json`);
		fs.rmSync(file, { force: true });
		const args = [`export:${kind}`, '--all', `--output=${file}`, ...(kind === 'credentials' ? ['--decrypted'] : [])];
		const result = await this.cli(args, { allowFailure: true });
		const found = result.status === 0 && fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : [];
		fs.rmSync(file, { force: true });
		return found;
	}

	/**
	 * A credential with its data; undefined when there is none.
	 * @param {string} id
	 */
	async exportCredential(id) {
		return (await this.exportAll('credentials')).find((credential) => credential.id === this.idOf(id));
	}

	/**
	 * The id n8n knows a workflow or credential by: the one it was imported with, unless this
	 * version's API gave it another (1.x's refuses ids it is sent).
	 * @param {string} id
	 */
	idOf(id) {
		return this.n8nIds.get(id) ?? id;
	}

	/**
	 * The workflow as n8n knows it: its id, and its nodes' credentials, n8n's.
	 * @template {Workflow} W
	 * @param {W} workflow
	 * @returns {W}
	 */
	withN8nIds(workflow) {
		const { nodes } = /** @type {{ nodes?: Array<{ credentials?: Record<string, { id: string }> }> }} */ (workflow);
		const n8nCredentials = (/** @type {Record<string, { id: string }>} */ credentials) =>
			Object.fromEntries(Object.entries(credentials).map(([type, used]) => [type, { ...used, id: this.idOf(used.id) }]));
		return {
			...workflow,
			id: this.idOf(workflow.id),
			...(nodes ? { nodes: nodes.map((node) => (node.credentials ? { ...node, credentials: n8nCredentials(node.credentials) } : node)) } : {}),
		};
	}

	/** @param {Credential[]} credentials */
	async importCredentials(credentials) {
		await this.importAll({ credentials, workflows: [] });
	}

	/** @param {Workflow} workflow */
	async importWorkflow(workflow) {
		await this.importAll({ credentials: [], workflows: [workflow] });
	}

	/**
	 * Several workflows in one import (n8n takes an array): one cold start of the CLI for all, or
	 * one request each through the API (apiImports).
	 * @param {Workflow[]} workflows
	 */
	async importWorkflows(workflows) {
		await this.importAll({ credentials: [], workflows });
	}

	/**
	 * Adds or replaces credentials and workflows: through the CLI, which keeps their ids, or with
	 * apiImports through the started n8n's API (kept for start() until then).
	 * @param {Imports} imports
	 */
	async importAll(imports) {
		if (!this.apiImports) return await this.importWithCli(imports);
		if (!this.main.running) {
			this.pendingImports.credentials.push(...imports.credentials);
			this.pendingImports.workflows.push(...imports.workflows);
			return;
		}
		await this.importWithApi(imports);
	}

	/** @returns {Imports | undefined} the imports waiting for start(), now taken */
	takePendingImports() {
		const { credentials, workflows } = this.pendingImports;
		if (!credentials.length && !workflows.length) return undefined;
		this.pendingImports = { credentials: [], workflows: [] };
		return { credentials, workflows };
	}

	/**
	 * One cold start of the CLI per kind, under the ids n8n knows them by; an existing id is replaced.
	 * @param {Imports} imports
	 */
	async importWithCli({ credentials, workflows }) {
		const known = credentials.map((credential) => ({ ...credential, id: this.idOf(credential.id) }));
		if (credentials.length) await this.main.cli(['import:credentials', `--input=${this.writeJson('credentials.import.json', known)}`]);
		for (const { id } of credentials) this.importedCredentials.add(id);
		const n8nWorkflows = workflows.map((workflow) => this.withN8nIds(workflow));
		if (workflows.length) await this.main.cli(['import:workflow', `--input=${this.writeJson('workflows.import.json', n8nWorkflows)}`]);
	}

	/**
	 * One request each on the started n8n. A credential through the public API (with its id where
	 * the API keeps it, else n8n's id is remembered), or through the CLI (which works beside a
	 * running n8n, and keeps ids) when the API refuses its data (it takes only the type's fields:
	 * an OAuth2 token is not one) or it exists (imported before, or 409: the CLI replaces it). A
	 * workflow, its credentials named by n8n's ids, as the editor saves a new one (n8n's id
	 * remembered where it gives its own), or replaced through the public API when it exists, as the
	 * CLI replaces it.
	 * @param {Imports} imports
	 */
	async importWithApi({ credentials, workflows }) {
		const api = await this.publicApi();
		const keepsIds = this.capabilities.apiImportKeepsIds;
		/** @type {Credential[]} */
		const forTheCli = [];
		for (const { id, name, type, data } of credentials) {
			if (this.importedCredentials.has(id)) {
				forTheCli.push({ id, name, type, data });
				continue;
			}
			// 1.x's schema of a credential asks for allowedDomains unless allowedHttpRequestDomains is
			// there and other than 'domains' (its `if` holds when the field is absent): 'all' is what
			// its editor saves by default.
			const sent = keepsIds ? { id, name, type, data } : { name, type, data: { allowedHttpRequestDomains: 'all', ...data } };
			await api.post('/credentials', sent).then(
				(/** @type {{ id?: string }} */ created) => {
					this.importedCredentials.add(id);
					if (created?.id && created.id !== id) this.n8nIds.set(id, created.id);
				},
				(/** @type {Error} */ error) => {
					if (!/answered (400|409)/.test(error.message)) throw error;
					forTheCli.push({ id, name, type, data });
				},
			);
		}
		if (forTheCli.length) await this.importWithCli({ credentials: forTheCli, workflows: [] });
		for (const workflow of /** @type {RunnableWorkflow[]} */ (workflows)) {
			const known = this.withN8nIds(workflow);
			const { id, name, nodes, connections, settings = {} } = known;
			const exists = await api.get(`/workflows/${id}`).then(
				() => true,
				(/** @type {Error} */ error) => (/answered 404/.test(error.message) ? false : Promise.reject(error)),
			);
			if (exists) {
				await api.put(`/workflows/${id}`, { name, nodes, connections, settings });
				continue;
			}
			// 1.x's editor API stores `active` as sent, and a workflow without it fails its NOT NULL.
			const body = { ...newWorkflowBody({ settings: {}, ...known }), ...(keepsIds ? {} : { active: false }) };
			const { data } = await rest(this.baseUrl, '/rest/workflows', { method: 'POST', body, cookie: this.ownerCookie });
			const created = (data?.data ?? data)?.id;
			if (created && created !== workflow.id) this.n8nIds.set(workflow.id, created);
		}
	}

	/**
	 * Activates (publishes) a workflow through the main process's public API: at once when it runs,
	 * else right after start().
	 * @param {string} id
	 */
	async activateWorkflow(id) {
		if (!this.main.running) return void this.pendingActivations.push(id);
		await (await this.publicApi()).post(`/workflows/${this.idOf(id)}/activate`);
	}

	/**
	 * `n8n execute` on the main process: returns { ok, run, ended, stdout, stderr }: run is the raw run data, ended how the command ended.
	 * @param {string} id
	 * @param {{ env?: Env }} [options]
	 */
	async execute(id, { env } = {}) {
		const n8nId = this.idOf(id);
		const result = await this.cli(['execute', `--id=${n8nId}`, '--rawOutput'], { allowFailure: true, env });
		let run;
		try {
			run = parseRawOutput(result.stdout);
		} catch {
			run = undefined;
			// A run that succeeded has run data; said here, since a test sees only that there is none.
			if (result.status === 0) {
				process.stderr.write(`[n8n ${this.version}] execute --id=${n8nId} exited 0 without run data:\n${result.stdout.slice(-1500)}\n${result.stderr.slice(-1500)}\n`);
			}
		}
		// n8n 2.41.1's CLI sometimes dies of SIGSEGV while exiting, after it printed and stored a
		// finished run (2 of 6 runs of an empty workflow, 2026-11-25): the run is n8n's verdict then.
		const crashedAfterSuccess = result.signal === 'SIGSEGV' && run?.finished === true && run?.status === 'success';
		if (crashedAfterSuccess) process.stderr.write(`[n8n ${this.version}] execute --id=${n8nId}: the run succeeded, then n8n's process died of SIGSEGV while exiting\n`);
		return { ok: result.status === 0 || crashedAfterSuccess, run, ended: howCliEnded(result), stdout: result.stdout, stderr: result.stderr };
	}

	/**
	 * Runs a workflow on the running main process as the editor's Execute Workflow button does,
	 * without a cold start of the CLI: saves it first through the public API when given it (n8n 2.x
	 * runs the stored workflow, 1.x the one sent), starts it from `trigger`, waits for its execution
	 * and returns what execute() does. stdout holds the execution as n8n stored it; stderr its error's
	 * words (what `n8n execute` prints of a failed run), then what n8n logged meanwhile (what the
	 * CLI would have printed among its log lines), so checks on either read the same.
	 * @param {string | RunnableWorkflow} workflowOrId  an imported workflow's id, run as stored; or the
	 *   workflow, saved first under the id n8n knows it by (imported once before)
	 * @param {{ trigger?: string, timeoutMs?: number }} [options]  `trigger`: the first node when left out
	 */
	async run(workflowOrId, { trigger, timeoutMs = 300_000 } = {}) {
		if (!this.main.running) throw new Error('run() runs a workflow on the started n8n: call start() first (or use execute(), the CLI)');
		// Queue mode runs it on a worker, whose log this does not read.
		if (this.queue) throw new Error('run() is for n8n in one process');
		const api = await this.publicApi();
		const logFile = /** @type {string} */ (this.main.logFile);
		const logFrom = fs.statSync(logFile).size;
		/** @type {RunnableWorkflow} */
		const workflow = typeof workflowOrId === 'string' ? await api.get(`/workflows/${this.idOf(workflowOrId)}`) : this.withN8nIds(workflowOrId);
		const { name, nodes, connections, settings = {} } = workflow;
		if (typeof workflowOrId !== 'string') await api.put(`/workflows/${workflow.id}`, { name, nodes, connections, settings });
		const body = { workflowData: { ...workflow, settings }, triggerToStartFrom: { name: trigger ?? nodes[0].name } };
		const { data } = await rest(this.baseUrl, `/rest/workflows/${workflow.id}/run`, { method: 'POST', body, cookie: this.ownerCookie });
		const executionId = (data.data ?? data).executionId;
		if (!executionId) throw new Error(`n8n started no execution of ${workflow.id}: ${JSON.stringify(data).slice(0, 500)}`);
		const started = Date.now();
		/** @type {unknown} */
		let lastError;
		for (;;) {
			const execution = await api.get(`/executions/${executionId}?includeData=true`).then(withStatus, (error) => void (lastError = error));
			// The run data is saved last (n8n 1.x: in a statement of its own, after the end time).
			if (execution?.stoppedAt && endedWithRunData(execution)) {
				const error = execution.data.resultData?.error;
				const said = error ? [error.message, error.description].filter(Boolean).join('\n') : '';
				const logged = fs.readFileSync(logFile).subarray(logFrom).toString('utf8');
				return { ok: execution.status === 'success', run: execution, ended: undefined, stdout: JSON.stringify(execution, null, 2), stderr: `${said}\n${logged}` };
			}
			if (!this.main.running) throw new Error(`n8n stopped while execution ${executionId} of ${workflow.id} ran; its log is ${logFile}`);
			if (Date.now() - started > timeoutMs) {
				throw new Error(`Execution ${executionId} of ${workflow.id} did not end within ${timeoutMs / 1000} s${lastError ? ` (last read: ${/** @type {Error} */ (lastError).message})` : ''}`);
			}
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	}

	/**
	 * Starts every process in the background; resolves once each says it is ready (the editor and
	 * webhooks answer on the main process), then activates the workflows asked for before. In queue
	 * mode it always gets a public API key (tests read executions with it).
	 * @param {{ timeoutMs?: number, onLog?: (log: string) => void, env?: Env }} [options]
	 */
	async start(options = {}) {
		const started = Date.now();
		await Promise.all(this.processes.map((p) => p.start(options)));
		if (this.queue) {
			this.log(`n8n main, ${this.workers.length} workers and ${this.webhooks.length} webhook processor(s) started in ${Math.round((Date.now() - started) / 1000)} s`);
			await this.publicApi();
		}
		const pending = this.takePendingImports();
		if (pending) {
			await this.importWithApi(pending).catch((/** @type {Error} */ error) => {
				throw new Error(`n8n started, but adding the credentials and workflows imported before start() failed: ${error.message}`);
			});
		}
		for (const id of this.pendingActivations.splice(0)) await this.activateWorkflow(id);
		return this;
	}

	/**
	 * A client of the public API with a key of the owner (created when missing), made once.
	 * @returns {Promise<PublicApi>}
	 */
	async publicApi() {
		if (this.apiClient) return this.apiClient;
		const baseUrl = this.baseUrl;
		const scopes = [...API_SCOPES, ...(this.capabilities.publicApiStop ? ['execution:stop'] : []), ...(this.apiImports ? ['credential:create'] : [])];
		this.ownerCookie = await ensureOwner(baseUrl);
		const key = await createApiKey(baseUrl, this.ownerCookie, scopes);
		this.apiClient = {
			url: `${baseUrl}/api/v1`,
			key,
			get: (route) => publicApiCall(baseUrl, key, 'GET', route),
			post: (route, body) => publicApiCall(baseUrl, key, 'POST', route, body),
			put: (route, body) => publicApiCall(baseUrl, key, 'PUT', route, body),
			executions: (workflowId, options) => listExecutions(baseUrl, key, this.idOf(workflowId), options),
		};
		return this.apiClient;
	}

	/**
	 * The workflow's executions once at least `atLeast` have ended with their run data (api.js),
	 * named by the id it was imported with.
	 * @param {string} workflowId
	 * @param {{ atLeast?: number, timeoutMs?: number }} [options]
	 * @returns {Promise<any[]>}
	 */
	async waitForExecutions(workflowId, options) {
		return await waitForExecutions(this.baseUrl, (await this.publicApi()).key, this.idOf(workflowId), options);
	}

	/** The public API client that start() made in queue mode (or publicApi() before). */
	get api() {
		if (!this.apiClient) throw new Error('No public API key yet: call publicApi() once n8n runs.');
		return this.apiClient;
	}

	/**
	 * Waits until a production webhook answers. n8n announces the editor before it has registered
	 * the active workflows' webhooks. A GET to a POST webhook starts nothing, and n8n's answer
	 * tells a registered path ("not registered for GET requests") from an unknown one.
	 * @param {string} url
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

	/**
	 * Production URLs of a workflow's Video Platform Triggers, on the process that takes them.
	 * @param {WorkflowWithNodes} workflow
	 * @param {N8nProcess} [via]  a webhook processor other than the first
	 * @returns {string[]}
	 */
	triggerUrls(workflow, via = this.webhooks[0] ?? this.main) {
		return triggerUrls(via.baseUrl, workflow);
	}

	/**
	 * The Production URL of the workflow's Video Platform Trigger.
	 * @param {WorkflowWithNodes} workflow
	 */
	triggerUrl(workflow) {
		const [url] = this.triggerUrls(workflow);
		if (!url) throw new Error(`Workflow ${workflow.id} has no enabled Video Platform Trigger with a webhookId`);
		return url;
	}

	/**
	 * { 'worker-1': [execution ids], ... } from the workers' logs ("Worker started execution <id>").
	 * @returns {Record<string, string[]>}
	 */
	executionsByWorker() {
		return Object.fromEntries(this.workers.map((w) => [w.name, w.executionIds()]));
	}

	/**
	 * Queue mode: resolves once a main or webhook process listens for the ends of the jobs it
	 * queues (Bull's `failed` and `completed` channels in Redis have a subscriber). n8n 2.41.1
	 * subscribes only when it first waits for a job, after queueing it, and never hears the end of
	 * a job that ended before it waited: the call that started the job then never gets an answer.
	 * @param {number} [timeoutMs]
	 */
	async waitUntilJobEndsAreHeard(timeoutMs = 60_000) {
		const redis = this.services?.redis;
		if (!redis) throw new Error('waitUntilJobEndsAreHeard() is for queue mode, once prepare() has started Redis');
		const channels = ['bull:jobs:failed', 'bull:jobs:completed'];
		const heard = () => {
			const counts = redis.command('PUBSUB', 'NUMSUB', ...channels).trim().split('\n');
			return channels.every((_, i) => Number(counts[2 * i + 1]) > 0);
		};
		const started = Date.now();
		while (!heard()) {
			if (Date.now() - started > timeoutMs) throw new Error(`No n8n process listened on ${channels.join(' and ')} within ${timeoutMs / 1000} s`);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	}

	/** Stops the workers and starts them again (their user folders and logs are kept). */
	async restartWorkers() {
		await Promise.all(this.workers.map((w) => w.stop()));
		await Promise.all(this.workers.map((w) => w.start()));
	}

	/** One line per process: where it answers, its PID and log. */
	describe() {
		if (!this.queue) return [`n8n       ${this.baseUrl} (PID ${this.pid}): editor, API, webhooks; log ${this.logFile}`];
		const { postgres, redis } = this.services ?? {};
		return [
			`main      ${this.main.baseUrl} (PID ${this.main.pid}): editor, public API, test webhooks; log ${this.main.logFile}`,
			...this.webhooks.map((w) => `${w.name} ${w.baseUrl} (PID ${w.pid}): production webhooks (/webhook/...); log ${w.logFile}`),
			...this.workers.map((w) => `${w.name}  PID ${w.pid}, concurrency ${w.concurrency}: runs the executions; log ${w.logFile}`),
			`postgres  127.0.0.1:${postgres?.port} (PID ${postgres?.pid}); redis 127.0.0.1:${redis?.port} (PID ${redis?.pid})`,
		];
	}

	/**
	 * Every log this n8n has written, by a name to keep it under: each process's runs in order
	 * (`worker-1.run1.log`, `worker-1.run2.log` when it was restarted), then PostgreSQL's and Redis's.
	 * @returns {Record<string, string>}
	 */
	logFiles() {
		/** @type {Record<string, string>} */
		const files = {};
		for (const p of this.processes) {
			const runs = /** @type {string[]} */ ([...p.pastLogs, p.logFile].filter(Boolean));
			runs.forEach((file, i) => (files[runs.length > 1 ? `${p.name}.run${i + 1}.log` : `${p.name}.log`] = file));
		}
		for (const service of Object.values(this.services ?? {})) files[`${service.name}.log`] = service.logFile;
		return files;
	}

	/** Stops every process by process group; in queue mode also Redis, PostgreSQL and the watchdog. */
	async stop() {
		await Promise.all(this.processes.map((p) => p.stop()));
		const { postgres, redis } = this.services ?? {};
		for (const service of [redis, postgres]) await service?.stop().catch(() => undefined);
		this.services = undefined;
		this.registry?.close();
	}

	/** Stops n8n and removes its folder (logs included): for throw-away instances only. */
	async dispose() {
		await this.stop();
		fs.rmSync(this.userFolder, { recursive: true, force: true });
	}
}

module.exports = { N8n, parseRawOutput };

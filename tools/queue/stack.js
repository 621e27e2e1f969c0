'use strict';
// n8n (the default 2.x unless told) in queue mode, as n8n documents it for scaling: PostgreSQL and Redis, one main process
// (editor, API, test webhooks), workers (`n8n worker`) that run the executions, and a webhook
// processor (`n8n webhook`) that takes the production webhooks. Every process has a user folder
// of its own with the packed package installed in its `.n8n/nodes`, as a community package is
// installed on each n8n instance, and all share one encryption key, database and queue.
//
//   const stack = await startQueueStack({ tarball, dir, credentials, workflows, activate, log, version });
//   stack.mainUrl, stack.webhookUrl, stack.workers, stack.api, stack.executionsByWorker(), stack.stop()
const fs = require('node:fs');
const path = require('node:path');
const { N8nInstance } = require('../n8n/n8n');
const { createApiKey, ensureOwner, listExecutions, publicApiCall } = require('../n8n/api');
const { ensureQueueServices, startPostgres, startRedis } = require('./services');
const { startWatchdog } = require('./watchdog');
const wf = require('../n8n/workflows');

const API_SCOPES = ['execution:list', 'execution:read', 'workflow:read', 'workflow:list', 'workflow:create', 'workflow:update', 'workflow:activate', 'workflow:deactivate'];
const STARTED = /Worker started execution (\d+)/g;

/** One n8n process of the stack: an N8nInstance whose environment adds queue mode's. */
class QueueProcess extends N8nInstance {
	constructor({ name, role, version, userFolder, queueEnv, registry }) {
		super({ version, userFolder });
		this.name = name;
		this.role = role;
		this.queueEnv = queueEnv;
		this.pastLogs = [];
		this.onSpawn = (child) => {
			registry.add(child.pid, { group: true });
			child.once('exit', () => registry.remove(child.pid));
		};
	}

	env(extra = {}) {
		return super.env({ ...this.queueEnv, ...extra });
	}

	/** Starts this process's long-running command: `start`, `worker` or `webhook`. */
	async run() {
		if (this.logFile && fs.existsSync(this.logFile)) {
			// A restart keeps what the earlier run logged, so executionsByWorker() still sees it.
			const kept = this.logFile.replace(/\.log$/, `.${this.pastLogs.length + 1}.log`);
			fs.renameSync(this.logFile, kept);
			this.pastLogs.push(kept);
		}
		if (this.role === 'main') return await this.start();
		if (this.role === 'worker') return await this.start({ command: ['worker', `--concurrency=${this.concurrency}`], ready: /n8n worker is now ready/ });
		return await this.start({ command: ['webhook'], ready: /Webhook listener waiting for requests/ });
	}

	/** The ids of the executions this worker started, over all its runs. */
	executionIds() {
		const text = [...this.pastLogs, this.logFile].filter((file) => file && fs.existsSync(file)).map((file) => fs.readFileSync(file, 'utf8')).join('\n');
		return [...text.matchAll(STARTED)].map((match) => match[1]);
	}
}

/** A small client of n8n's public API (/api/v1) on the main process. */
function publicApi(baseUrl, key) {
	return {
		url: `${baseUrl}/api/v1`,
		key,
		get: (route) => publicApiCall(baseUrl, key, 'GET', route),
		post: (route, body) => publicApiCall(baseUrl, key, 'POST', route, body),
		/** Every execution of a workflow (with its run data when asked). */
		executions: (workflowId, options) => listExecutions(baseUrl, key, workflowId, options),
	};
}

/**
 * Starts PostgreSQL, Redis and the n8n processes, all on 127.0.0.1 and free ports (the main
 * process on `mainPort` when given). Credentials and workflows are imported before n8n starts;
 * the workflows in `activate` are then published through the public API of the main process.
 * Later ones go through `stack.importWorkflow()` / `stack.api`.
 * A watchdog stops everything by PID if this process dies without calling `stop()`.
 */
async function startQueueStack(options) {
	const {
		tarball,
		workers = 2,
		concurrency = 2,
		webhookProcessors = 1,
		credentials = [],
		workflows = [],
		activate = [],
		mainPort,
		version,
		env = {},
		log = () => {},
	} = options;
	const dir = path.resolve(options.dir);
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	await ensureQueueServices();
	const registry = startWatchdog(path.join(dir, 'processes'));
	const running = [];
	/** @type {any} */
	const stack = { dir, registry, processes: [], workers: [], webhooks: [] };
	stack.stop = async () => {
		await Promise.all(stack.processes.map((p) => p.stop()));
		for (const service of running.reverse()) await service.stop().catch(() => undefined);
		registry.close();
	};
	/** Stops everything and removes the stack's folder (logs included): for throw-away stacks. */
	stack.dispose = async () => {
		await stack.stop();
		fs.rmSync(dir, { recursive: true, force: true });
	};
	try {
		const [postgres, redis] = await Promise.all([
			startPostgres({ dir: path.join(dir, 'postgres'), registry, log }),
			startRedis({ dir: path.join(dir, 'redis'), registry, log }),
		]);
		running.push(postgres, redis);
		Object.assign(stack, { postgres, redis });

		const queueEnv = {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: redis.host,
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: postgres.host,
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: postgres.database,
			DB_POSTGRESDB_USER: postgres.user,
			DB_POSTGRESDB_PASSWORD: postgres.password,
			N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			...env,
		};
		const make = (name, role) => {
			const p = new QueueProcess({ name, role, version, userFolder: path.join(dir, name), queueEnv, registry });
			p.concurrency = concurrency;
			stack.processes.push(p);
			return p;
		};
		const main = make('main', 'main');
		for (let i = 1; i <= workers; i++) stack.workers.push(make(`worker-${i}`, 'worker'));
		for (let i = 1; i <= webhookProcessors; i++) stack.webhooks.push(make(`webhook-${i}`, 'webhook'));
		stack.main = main;
		if (mainPort) main.port = mainPort;
		for (const p of stack.processes) {
			await p.prepare();
			p.installPackage(tarball);
		}
		// Production URLs (in the editor too) point at the first webhook processor.
		queueEnv.WEBHOOK_URL = `${stack.webhooks[0].baseUrl}/`;

		// The first CLI command creates the schema: one command at a time, before any process
		// starts. All workflows go in one import (n8n takes an array), which saves a cold start each.
		if (credentials.length) await main.importCredentials(credentials);
		if (workflows.length) await main.cli(['import:workflow', `--input=${main.writeJson('workflows.import.json', workflows)}`]);
		if (!credentials.length && !workflows.length) await main.exportAll('workflow');

		const started = Date.now();
		await Promise.all(stack.processes.map((p) => p.run()));
		log(`n8n main, ${workers} workers and ${webhookProcessors} webhook processor(s) started in ${Math.round((Date.now() - started) / 1000)} s`);
		const cookie = await ensureOwner(main.baseUrl);
		stack.api = publicApi(main.baseUrl, await createApiKey(main.baseUrl, cookie, API_SCOPES));
		// Published through the running main process, which registers their webhooks in the
		// database, where the webhook processors look them up.
		for (const id of activate) await stack.api.post(`/workflows/${id}/activate`);
	} catch (error) {
		await stack.stop().catch(() => undefined);
		throw error;
	}
	Object.assign(stack, {
		mainUrl: stack.main.baseUrl,
		webhookUrl: stack.webhooks[0].baseUrl,
		/** Production URLs of a workflow's Video Platform Triggers, on the webhook processor. */
		triggerUrls: (workflow, webhook = stack.webhooks[0]) => wf.triggerUrls(webhook.baseUrl, workflow),
		/** Imports a workflow through the public API (main) and publishes it; returns its new id. */
		async importWorkflow(workflow, { activate: publish = false } = {}) {
			const { name, nodes, connections, settings } = workflow;
			const created = await stack.api.post('/workflows', { name, nodes, connections, settings: settings ?? {} });
			if (publish) await stack.api.post(`/workflows/${created.id}/activate`);
			return created.id;
		},
		activateWorkflow: (id) => stack.api.post(`/workflows/${id}/activate`),
		/** { 'worker-1': [execution ids], ... } from the workers' logs ("Worker started execution <id>"). */
		executionsByWorker: () => Object.fromEntries(stack.workers.map((w) => [w.name, w.executionIds()])),
		/** Stops the workers and starts them again (their user folders and logs are kept). */
		async restartWorkers() {
			await Promise.all(stack.workers.map((w) => w.stop()));
			await Promise.all(stack.workers.map((w) => w.run()));
		},
		describe() {
			return [
				`main      ${stack.main.baseUrl} (PID ${stack.main.pid}): editor, public API, test webhooks; log ${stack.main.logFile}`,
				...stack.webhooks.map((w) => `${w.name} ${w.baseUrl} (PID ${w.pid}): production webhooks (/webhook/...); log ${w.logFile}`),
				...stack.workers.map((w) => `${w.name}  PID ${w.pid}, concurrency ${w.concurrency}: runs the executions; log ${w.logFile}`),
				`postgres  127.0.0.1:${stack.postgres.port} (PID ${stack.postgres.pid}); redis 127.0.0.1:${stack.redis.port} (PID ${stack.redis.pid})`,
			];
		},
	});
	return stack;
}

/**
 * A workflow that a POST to /webhook/<path> starts (on a worker, in queue mode): `rows` become
 * items, each one a Room → Create named after the row. The node is named "Create rooms".
 */
function roomBatchWorkflow(id, path, rows, credentialId, options = {}) {
	const webhookId = `${id}-hook`;
	return wf.workflow(id, [wf.webhookTrigger(path, webhookId), ...wf.itemsFrom('Rows', rows), wf.createRoom('Create rooms', credentialId, {}, options)]);
}

module.exports = { startQueueStack, QueueProcess, roomBatchWorkflow };

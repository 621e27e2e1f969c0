#!/usr/bin/env node
'use strict';
// npm start (USAGE below): n8n with this package, the local sandbox and the example workflows, in one command.
// Ctrl-C stops everything it started. The n8n user folder (.n8n-local/) is kept between runs,
// so workflows you make there survive; the examples are imported once. --n8n picks the n8n: a
// major means its default version (tools/install/versions.js), the default 2.x when left out.
// With --queue, the default 2.x runs in queue mode instead (PostgreSQL, Redis, main, two
// workers, a webhook processor), on data that is made anew on every start.
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { loadExamples, sandboxCredential, SANDBOX_CREDENTIAL_ID, mcpCredential, MCP_CREDENTIAL_ID, MCP_LOCAL_TOKEN } = require('./n8n/examples');
const { OWNER, ensureOwner, activeTriggerUrls } = require('./n8n/api');
const { N8n } = require('./n8n/n8n');
const { hasDatabase } = require('./n8n/migratedDatabase');
const { portOr } = require('./common/ports');
const { InstallError } = require('./install/steps');
const { packPackage } = require('./common/package');
const { startQueueStack } = require('./queue/stack');
const { ensureQueueServices } = require('./queue/services');
const { ensureN8n } = require('./install/n8n');
const { UnknownVersionError, defaultVersion, installableVersions, majorOf, resolveVersion, versionSpec } = require('./install/versions');
const { repoRoot, scratchRoot } = require('./common/paths');
const { mcpUrls, triggerUrls } = require('./n8n/workflows');
const { createSandbox } = require('./sandbox/server');

const SANDBOX_KEY = 'sandbox-key';
const WEBHOOK_EXAMPLE = 'vpExampleWebhook';
const MCP_EXAMPLE = 'vpExampleMcp';
const ACTIVE_EXAMPLES = [WEBHOOK_EXAMPLE, MCP_EXAMPLE];
// Measured from an empty cache on a 2-core machine; the one place this figure is stated.
const FIRST_INSTALL_MINUTES = 5;

/**
 * @typedef {(message: string) => void} Log
 * @typedef {import('./sandbox/server').Sandbox} Sandbox
 * @typedef {import('./n8n/workflows').Credential} Credential
 */

const USAGE = `Usage: npm start [-- --n8n 1|2|<version>] [--port 5678] [--sandbox-port 8787] [--data .n8n-local] [--exit-when-ready]
       npm start -- --queue [--port 5678] [--sandbox-port 8787] [--data .n8n-local] [--exit-when-ready]
  --n8n              a major (its default version) or a version of tools/install/versions.js
  --port             the editor's port, when free (0: any free port)
  --sandbox-port     the sandbox's port, when free (0: any free port)
  --data             where the n8n user folders are kept
  --queue            n8n in queue mode (PostgreSQL, Redis, main, two workers, a webhook processor)
  --exit-when-ready  stop everything once it is ready (a check that it starts)
  --help             this text`;

/**
 * What the command line asks for; unknown options are refused.
 * @param {string[]} argv
 */
function optionsFrom(argv) {
	const { values } = parseArgs({
		args: argv,
		options: {
			n8n: { type: 'string' },
			port: { type: 'string', default: '5678' },
			'sandbox-port': { type: 'string', default: '8787' },
			data: { type: 'string', default: path.join(repoRoot, '.n8n-local') },
			queue: { type: 'boolean', default: false },
			'exit-when-ready': { type: 'boolean', default: false },
			help: { type: 'boolean', short: 'h', default: false },
		},
	});
	return {
		n8n: values.n8n ?? String(majorOf(defaultVersion())),
		port: Number(values.port),
		sandboxPort: Number(values['sandbox-port']),
		dataDir: path.resolve(values.data),
		queue: values.queue,
		exitWhenReady: values['exit-when-ready'],
		help: values.help,
	};
}

const say = (/** @type {string} */ message) => {
	process.stdout.write(`${message}\n`);
};

/**
 * Imports each example once: those imported before (listed in a marker file) are the user's now,
 * even if changed or deleted, and an example added to the project since is imported on the next start.
 * @param {N8n} n8n
 * @param {string} userFolder
 * @param {Log} log
 */
async function importNewExamples(n8n, userFolder, log) {
	const marker = path.join(userFolder, '.examples-imported');
	/** @type {string[]} */
	let imported = [];
	if (fs.existsSync(marker)) {
		try {
			imported = JSON.parse(fs.readFileSync(marker, 'utf8'));
		} catch {
			// An older marker held only a date: the workflows there tell what was imported.
			imported = (await n8n.exportAll('workflow')).map(({ id }) => id);
		}
	}
	const fresh = loadExamples().filter(({ workflow }) => !imported.includes(workflow.id));
	if (fresh.length === 0) return log('      The examples were imported before; your workflows are kept.');
	await n8n.importWorkflows(fresh.map(({ workflow }) => workflow));
	for (const { workflow } of fresh) if (ACTIVE_EXAMPLES.includes(workflow.id)) await n8n.activateWorkflow(workflow.id);
	fs.writeFileSync(marker, JSON.stringify([...imported, ...fresh.map(({ workflow }) => workflow.id)]));
}

const installsWhat = (/** @type {string} */ version) => (versionSpec(version).node === 24 ? 'Node 24 and n8n' : 'n8n');

/**
 * The n8n user folder under `dataDir` for `--n8n <requested>`: one per major for a major (so a
 * newer default version takes over the same workflows, as an n8n upgrade does), one per version
 * for a version named in full.
 * @param {string} dataDir
 * @param {string | number} requested  a major or a version
 */
function userFolderFor(dataDir, requested) {
	const version = resolveVersion(requested);
	return path.join(dataDir, /^\d+$/.test(String(requested).trim()) ? `n8n-${majorOf(version)}` : `n8n-${version}`);
}

/**
 * Runs one numbered step, and says how long it took.
 * @template T
 * @param {Log} log
 * @param {string} label
 * @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
async function step(log, label, work) {
	const started = Date.now();
	log(`${label}...`);
	const result = await work();
	log(`      done in ${Math.round((Date.now() - started) / 1000)} s`);
	return result;
}

/**
 * Everything `npm start` sets up, without waiting for Ctrl-C: the tests use it as it is.
 * Returns the running n8n and sandbox; stop them with `stop()`.
 * @param {{ version?: string, userFolder: string, port?: number, sandboxPort?: number, tarball?: string, migratedDatabase?: boolean, log?: Log }} options
 *   port 0: any free one; tarball: one already packed (the tests pack once for every n8n), else built and packed here;
 *   migratedDatabase: a new user folder starts from a copy of a migrated database (tools/n8n/migratedDatabase.js)
 */
async function startEnvironment({ version = defaultVersion(), userFolder, port, sandboxPort, tarball, migratedDatabase, log = say }) {
	/** @type {{ stop(): Promise<void> }[]} */
	const running = [];
	/** @type {N8n} */
	let n8n;
	/** @type {Sandbox} */
	let sandbox;
	// A new folder has no credentials to keep: no CLI start is spent listing them.
	const newFolder = !hasDatabase(userFolder);
	try {
		n8n = await step(log, `[1/5] n8n ${version}: checking the install (the first time, it installs ${installsWhat(version)}: about ${FIRST_INSTALL_MINUTES} minutes)`, async () =>
			await new N8n({ version, userFolder, port: await portOr(port), migratedDatabase }).prepare(),
		);
		running.push(n8n);

		await step(log, '[2/5] Building and packing the package, and installing it into n8n', async () =>
			n8n.installPackage(tarball ?? packPackage(path.join(scratchRoot, `start-pack-${process.pid}`), { build: true })),
		);

		sandbox = await step(log, '[3/5] Starting the local sandbox of the platform', async () => {
			const started = createSandbox({ apiKey: SANDBOX_KEY, port: await portOr(sandboxPort), webhookTargets: () => activeTriggerUrls(n8n.baseUrl) });
			await started.start();
			running.push(started);
			return started;
		});

		await step(log, '[4/5] Preparing the sandbox credential and the example workflows', async () => {
			const credentials = newFolder ? [] : await n8n.exportAll('credentials');
			const kept = credentials.find(({ id }) => id === SANDBOX_CREDENTIAL_ID);
			if (kept) {
				log('      The sandbox credential exists and is kept as it is.');
				if (!String(kept.data?.baseUrl).startsWith(sandbox.url)) {
					log(`      Note: its Base URL is not the sandbox's address this time, ${sandbox.url}. Edit the credential if it should use the sandbox.`);
				}
			}
			// Each is created once, then the user's to change.
			/** @type {Credential[]} */
			const missing = kept ? [] : [sandboxCredential(sandbox.url, SANDBOX_KEY)];
			if (!credentials.some(({ id }) => id === MCP_CREDENTIAL_ID)) missing.push(mcpCredential());
			if (missing.length) await n8n.importCredentials(missing);
			await importNewExamples(n8n, userFolder, log);
		});

		await step(log, '[5/5] Starting n8n', async () => {
			await n8n.start();
			await ensureOwner(n8n.baseUrl);
		});
	} catch (error) {
		// Nothing may outlive a failed start: n8n runs detached, in a process group of its own.
		for (const service of running.reverse()) await service.stop().catch(() => undefined);
		throw error;
	}
	return {
		n8n,
		sandbox,
		webhookUrl: triggerUrls(n8n.baseUrl, exampleWorkflow(WEBHOOK_EXAMPLE))[0],
		mcpUrl: mcpUrls(n8n.baseUrl, exampleWorkflow(MCP_EXAMPLE))[0],
		async stop() {
			await n8n.stop();
			await sandbox.stop();
		},
	};
}

/**
 * `npm start -- --queue`: the sandbox, then PostgreSQL, Redis and n8n 2.x in queue mode with the
 * package installed on every process, the sandbox credential and the examples imported, and the
 * webhook example active. Returns the running stack and sandbox; stop them with `stop()`.
 * @param {{ dataDir: string, port?: number, sandboxPort?: number, log?: Log }} options
 */
async function startQueueEnvironment({ dataDir, port, sandboxPort, log = say }) {
	const version = defaultVersion();
	/** @type {Sandbox | undefined} */
	let sandbox;
	/** @type {N8n | undefined} */
	let stack;
	try {
		await step(log, `[1/4] n8n ${version}, PostgreSQL and Redis: checking the installs (the first time, it installs ${installsWhat(version)}: about ${FIRST_INSTALL_MINUTES} minutes)`, async () => {
			await ensureN8n(version);
			await ensureQueueServices();
		});
		const tarball = await step(log, '[2/4] Building and packing the package', async () =>
			packPackage(path.join(scratchRoot, `start-pack-${process.pid}`), { build: true }),
		);
		const started = await step(log, '[3/4] Starting the local sandbox of the platform', async () => {
			// The page offers the Production URLs, which the webhook processor answers.
			const targets = async (/** @type {N8n} */ running) =>
				(await activeTriggerUrls(running.baseUrl)).map((target) => ({ ...target, url: target.url.replace(running.baseUrl, running.webhookUrl) }));
			const created = createSandbox({ apiKey: SANDBOX_KEY, port: await portOr(sandboxPort), webhookTargets: () => (stack ? targets(stack) : Promise.resolve([])) });
			await created.start();
			return created;
		});
		sandbox = started;
		const running = await step(log, '[4/4] Starting PostgreSQL, Redis, and n8n in queue mode (main, 2 workers, a webhook processor) with the package on each', async () =>
			await startQueueStack({
				tarball,
				version,
				dir: path.join(dataDir, 'queue'),
				mainPort: await portOr(port),
				credentials: [sandboxCredential(started.url, SANDBOX_KEY), mcpCredential()],
				workflows: loadExamples().map(({ workflow }) => workflow),
				activate: [WEBHOOK_EXAMPLE],
				log: (message) => log(`      ${message}`),
			}),
		);
		stack = running;
		return {
			stack: running,
			sandbox: started,
			webhookUrl: running.triggerUrls(exampleWorkflow(WEBHOOK_EXAMPLE))[0],
			async stop() {
				await running.stop();
				await started.stop();
			},
		};
	} catch (error) {
		await sandbox?.stop().catch(() => undefined);
		throw error;
	}
}

/**
 * An example workflow by its id.
 * @param {string} id
 */
function exampleWorkflow(id) {
	const found = loadExamples().find(({ workflow }) => workflow.id === id);
	if (!found) throw new Error(`No example workflow has the id ${id} (examples/*.json)`);
	return found.workflow;
}

/**
 * Ctrl-C (or SIGTERM) stops the environment once and exits; returns that stop, for --exit-when-ready.
 * @param {{ stop(): Promise<void> }} environment
 * @param {string} what
 */
function stopOnSignals(environment, what) {
	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		say(`\nStopping ${what}...`);
		await environment.stop();
		say(`Stopped ${what}. Nothing of this environment is running any more.`);
		process.exit(0);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
	return stop;
}

/** @param {ReturnType<typeof optionsFrom>} options */
async function mainQueue({ dataDir, port, sandboxPort, exitWhenReady }) {
	const environment = await startQueueEnvironment({ dataDir, port, sandboxPort });
	const { stack, sandbox, webhookUrl } = environment;
	const stop = stopOnSignals(environment, 'n8n (main, workers, webhook processor), PostgreSQL, Redis and the sandbox');

	say(`
n8n ${stack.version} is ready in queue mode. Who does what:
  ${stack.describe().join('\n  ')}
  Editor (main): ${stack.baseUrl}  Log in with ${OWNER.email} / ${OWNER.password}
  Sandbox of the platform: ${sandbox.url}/ (API key "${SANDBOX_KEY}")

Production webhooks go to the webhook processor, which runs the Video Platform Trigger's
webhook() and queues the rest of the run; the workers run it (each worker's log says
"Worker started execution <id>"). Manual runs from the editor are also sent to the workers.

The webhook example "Video Platform: react to platform webhooks" is active. Its Production URL:
  ${webhookUrl}
Send it an example delivery from the sandbox page, or in another terminal with:
  npm run sandbox:send -- ${webhookUrl}

The other examples are imported, not active. This n8n's data (PostgreSQL, Redis, the user
folders in ${stack.userFolder}) is made anew on every start.

Press Ctrl-C to stop everything.`);

	if (exitWhenReady) await stop();
}

/** @param {ReturnType<typeof optionsFrom>} options */
async function main({ n8n: requested, dataDir, port, sandboxPort, exitWhenReady }) {
	const environment = await startEnvironment({
		version: resolveVersion(requested),
		userFolder: userFolderFor(dataDir, requested),
		port,
		sandboxPort,
	});
	const { n8n, sandbox, webhookUrl, mcpUrl } = environment;
	const stop = stopOnSignals(environment, 'n8n and the sandbox');

	say(`
n8n ${n8n.version} is ready at ${n8n.baseUrl}
  Log in with ${OWNER.email} / ${OWNER.password}
  Sandbox of the platform: ${sandbox.url}/ (API key "${SANDBOX_KEY}"; it shows the rooms and requests)

Try first: open "Video Platform: create a room by hand", click "Execute workflow", then reload
${sandbox.url}/ to see the room.

The webhook example "Video Platform: react to platform webhooks" is active. Its Production URL:
  ${webhookUrl}
Send it an example delivery from the sandbox page, or in another terminal with:
  npm run sandbox:send -- ${webhookUrl}

The AI example "Video Platform: let AI agents create rooms" is active. Its MCP address:
  ${mcpUrl}
Connect an MCP client there with the header "Authorization: Bearer ${MCP_LOCAL_TOKEN}" (the token
of the credential "${mcpCredential().name}", unless you changed it; docs/ai-agents.md).

Press Ctrl-C to stop everything.`);

	if (exitWhenReady) await stop();
}

/**
 * What to try after a failure, in one sentence.
 * @param {Error & { code?: string }} error
 */
function adviceFor(error) {
	if (String(error.code).startsWith('ERR_PARSE_ARGS_')) return USAGE;
	if (error instanceof UnknownVersionError) {
		const majors = [...new Set(installableVersions({ role: 'full' }).map(majorOf))];
		return `Give --n8n a major (${majors.join(', ')}) or one of these versions: ${installableVersions().join(', ')}.`;
	}
	if (error instanceof InstallError) {
		return 'Fix what the log shows (often the npm registry was out of reach, or the disk is full), then run `npm start` again: the half-finished install is redone.';
	}
	return 'Run `npm start` again; if it fails the same way, read the log named above, or start from new n8n data with `rm -rf .n8n-local` (this deletes your local workflows).';
}

async function run() {
	const options = optionsFrom(process.argv.slice(2));
	if (options.help) return void say(USAGE);
	await (options.queue ? mainQueue(options) : main(options));
}

if (require.main === module) {
	run().catch((error) => {
		process.stderr.write(`\nnpm start failed: ${error.message.split('\n')[0]}\n${adviceFor(error)}\n`);
		process.exit(1);
	});
}

module.exports = { startEnvironment, startQueueEnvironment, optionsFrom, userFolderFor, WEBHOOK_EXAMPLE, MCP_EXAMPLE };

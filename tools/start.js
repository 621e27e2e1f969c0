#!/usr/bin/env node
'use strict';
// npm start [-- --n8n 1] [--port 5678] [--sandbox-port 8787] [--exit-when-ready]
// n8n with this package, the local sandbox and the example workflows, in one command.
// Ctrl-C stops everything it started. The n8n user folder (.n8n-local/) is kept between runs,
// so workflows you make there survive; the examples are imported once.
const fs = require('node:fs');
const path = require('node:path');

const { loadExamples, sandboxCredential } = require('./lib/examples');
const { OWNER, ensureOwner } = require('./lib/n8n-api');
const { N8nInstance, freePort } = require('./lib/n8n-instance');
const { packPackage } = require('./lib/package');
const { repoRoot, scratchRoot } = require('./lib/paths');
const { createSandbox } = require('./sandbox/server');

const SANDBOX_KEY = 'sandbox-key';
const WEBHOOK_EXAMPLE = 'vpExampleWebhook';

function option(flag, fallback) {
	const index = process.argv.indexOf(flag);
	return index >= 0 ? process.argv[index + 1] : fallback;
}

const say = (message) => {
	process.stdout.write(`${message}\n`);
};

/** The preferred port when it is free, else any free one (0 means any). */
async function portOr(preferred) {
	if (!preferred) return await freePort();
	const net = require('node:net');
	const free = await new Promise((resolve) => {
		const server = net.createServer().once('error', () => resolve(false));
		server.listen(preferred, '127.0.0.1', () => server.close(() => resolve(true)));
	});
	return free ? preferred : await freePort();
}

/**
 * Everything `npm start` sets up, without waiting for Ctrl-C: the tests use it as it is.
 * Returns the running n8n and sandbox; stop them with `stop()`.
 */
async function startEnvironment({ major, userFolder, port, sandboxPort, log = say }) {
	log(`[1/5] n8n ${major}.x: making sure it is installed (the first time takes a few minutes)...`);
	const n8n = await new N8nInstance({ major, userFolder }).prepare();
	n8n.port = await portOr(port);

	log('[2/5] Building and packing the package, and installing it into n8n...');
	const tarball = packPackage(path.join(scratchRoot, `start-pack-${process.pid}`), { build: true });
	n8n.installPackage(tarball);

	log('[3/5] Starting the local sandbox of the platform...');
	const sandbox = createSandbox({ apiKey: SANDBOX_KEY, port: await portOr(sandboxPort) });
	await sandbox.start();
	await n8n.importCredentials([sandboxCredential(sandbox.url, SANDBOX_KEY)]);

	const marker = path.join(userFolder, '.examples-imported');
	if (!fs.existsSync(marker)) {
		log('[4/5] Importing the example workflows...');
		for (const { workflow } of loadExamples()) {
			await n8n.importWorkflow(workflow);
			if (workflow.id === WEBHOOK_EXAMPLE) await n8n.activateWorkflow(workflow.id);
		}
		fs.writeFileSync(marker, new Date().toISOString());
	} else {
		log('[4/5] Example workflows were imported before; your workflows are kept.');
	}

	log('[5/5] Starting n8n...');
	await n8n.start();
	await ensureOwner(n8n.baseUrl);
	return {
		n8n,
		sandbox,
		async stop() {
			await n8n.stop();
			await sandbox.stop();
		},
	};
}

async function main() {
	const major = Number(option('--n8n', '2'));
	if (![1, 2].includes(major)) throw new Error('--n8n takes 1 or 2');
	const environment = await startEnvironment({
		major,
		userFolder: path.join(repoRoot, '.n8n-local', `n8n-${major}`),
		port: Number(option('--port', '5678')),
		sandboxPort: Number(option('--sandbox-port', '8787')),
	});
	const { n8n, sandbox } = environment;
	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		say('\nStopping n8n and the sandbox...');
		await environment.stop();
		process.exit(0);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);

	say(`
n8n ${n8n.version} is ready at ${n8n.baseUrl}
  Log in with ${OWNER.email} / ${OWNER.password}
  Sandbox of the platform: ${sandbox.url}/ (API key "${SANDBOX_KEY}"; it shows the rooms and requests)

Try first: open "Video Platform: create a room by hand", click "Execute workflow" (n8n 1.x:
"Test workflow"), then reload
${sandbox.url}/ to see the room. The webhook example is active: send it an example delivery
from the sandbox page. Press Ctrl-C to stop everything.`);

	if (process.argv.includes('--exit-when-ready')) await stop();
}

if (require.main === module) {
	main().catch((error) => {
		process.stderr.write(`npm start failed: ${error.message}\n`);
		process.exit(1);
	});
}

module.exports = { startEnvironment, WEBHOOK_EXAMPLE };

#!/usr/bin/env node
'use strict';
// npm run dev [-- --port 5678] [--sandbox-port 8787]
// For contributors: `tsc --watch`, and a local n8n (the default 2.x) that loads the package
// straight from dist (node types CUSTOM.videoPlatform and CUSTOM.videoPlatformTrigger), with the
// sandbox and its credential. n8n does not reload community nodes by itself, so after each compile
// without errors the package is reloaded (n8n's own reload, else a restart of n8n).
const { spawn } = require('node:child_process');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { sandboxCredential } = require('./n8n/examples');
const { OWNER, ensureOwner } = require('./n8n/api');
const { N8n } = require('./n8n/n8n');
const { repoRoot } = require('./common/paths');
const { createSandbox } = require('./sandbox/server');

// N8N_DEV_RELOAD=true adds POST /rest/dev/reload, which reloads the custom extension folders. Its
// file watcher does not work for them (n8n 2.41 looks for dist/node_modules and logs ENOENT).
const n8nEnv = { N8N_CUSTOM_EXTENSIONS: path.join(repoRoot, 'dist'), N8N_DEV_RELOAD: 'true' };

const USAGE = `Usage: npm run dev [-- --port 5678] [--sandbox-port 8787]
  --port          n8n's port (default: a free one)
  --sandbox-port  the sandbox's port (default: a free one)
  --help          this text`;
const say = (/** @type {string} */ message) => void process.stdout.write(`[dev] ${message}\n`);

/**
 * @param {string} command
 * @param {string[]} args
 * @returns {Promise<void>}
 */
function run(command, args) {
	return new Promise((resolve, reject) => {
		spawn(command, args, { cwd: repoRoot, stdio: 'inherit' }).once('exit', (code) =>
			code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}`)),
		);
	});
}

/**
 * Reloads the package in the running n8n; restarts n8n when the reload is refused.
 * @param {N8n} n8n
 * @returns {Promise<void>}
 */
async function reload(n8n) {
	const response = await fetch(`${n8n.baseUrl}/rest/dev/reload`, { method: 'POST' }).catch(() => undefined);
	if (response?.ok) return say('Reloaded the package in n8n. Refresh the editor to see description changes.');
	say(`n8n's reload answered ${response ? response.status : 'nothing'}; restarting n8n...`);
	await n8n.stop();
	await n8n.start({ env: n8nEnv });
	say('n8n restarted.');
}

/**
 * The sandbox and n8n, with the sandbox credential and the owner; stops both if anything fails.
 * @param {{ port?: number, sandboxPort?: number }} ports  a free one for each left out
 */
async function startServices({ port, sandboxPort }) {
	// The default version; the folder keeps its name so that a newer default takes over its workflows.
	const n8n = await new N8n({ userFolder: path.join(repoRoot, '.n8n-local', 'dev-n8n-2'), port }).prepare();
	// The sandbox's own default key, as with npm start.
	const sandbox = createSandbox({ port: sandboxPort ?? 0 });
	try {
		await sandbox.start();
		// Imported every time, so that it points at this run's sandbox port.
		await n8n.importCredentials([sandboxCredential(sandbox.url, sandbox.options.apiKey)]);
		await n8n.start({ env: n8nEnv });
		await ensureOwner(n8n.baseUrl);
		return { n8n, sandbox };
	} catch (error) {
		await n8n.stop().catch(() => undefined);
		await sandbox.stop().catch(() => undefined);
		throw error;
	}
}

async function main() {
	const { values } = parseArgs({
		args: process.argv.slice(2),
		options: { port: { type: 'string' }, 'sandbox-port': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
	});
	if (values.help) return void process.stdout.write(`${USAGE}\n`);
	// A full build first: it empties dist and copies the icons, which tsc does not.
	await run('npm', ['run', 'build', '--silent']);
	const { n8n, sandbox } = await startServices({ port: Number(values.port) || undefined, sandboxPort: Number(values['sandbox-port']) || undefined });
	say(`n8n ${n8n.version} at ${n8n.baseUrl} (log in with ${OWNER.email} / ${OWNER.password}); log: ${n8n.logFile}`);
	say(`Sandbox: ${sandbox.url}/ with the credential "${sandboxCredential(sandbox.url, sandbox.options.apiKey).name}".`);
	say('Edit nodes/ or credentials/: each compile without errors reloads the package. Ctrl-C stops all.');

	const tsc = path.join(repoRoot, 'node_modules', '.bin', 'tsc');
	const watch = spawn(tsc, ['--watch', '--preserveWatchOutput', '-p', 'tsconfig.json'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
	let first = true;
	// One reload at a time; a compile during a reload gets a reload of its own after it.
	let reloading = Promise.resolve();
	watch.stdout.on('data', (chunk) => {
		process.stdout.write(chunk);
		// tsc --watch ends every compile with "Found N errors. Watching for file changes."
		const found = /Found (\d+) errors?\. Watching for file changes/.exec(String(chunk));
		if (!found) return;
		// The first compile only repeats the build that n8n started with.
		if (first) return void (first = false);
		if (found[1] !== '0') return say('Not reloaded: fix the errors above first.');
		reloading = reloading.then(() => reload(n8n)).catch((error) => say(`Reload failed: ${error.message}`));
	});

	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		watch.kill();
		await n8n.stop();
		await sandbox.stop();
		process.exit(0);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((/** @type {Error & { code?: string }} */ error) => {
	process.stderr.write(`\nnpm run dev failed: ${error.message}\n`);
	if (String(error.code).startsWith('ERR_PARSE_ARGS_')) process.stderr.write(`${USAGE}\n`);
	process.exit(1);
});

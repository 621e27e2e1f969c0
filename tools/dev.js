#!/usr/bin/env node
'use strict';
// npm run dev [-- --port 5678] [--sandbox-port 8787]
// For contributors: n8n's node CLI (`n8n-node dev --external-n8n`, which runs tsc --watch) beside the
// pinned n8n (the default 2.x: `n8n-node dev` alone would run n8n@latest, which does not install
// here), with the sandbox and its credential. n8n loads the package from dist (node types
// CUSTOM.videoPlatform and CUSTOM.videoPlatformTrigger) and reloads it after each compile by itself.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { sandboxCredential } = require('./n8n/examples');
const { OWNER, ensureOwner } = require('./n8n/api');
const { N8n } = require('./n8n/n8n');
const { repoRoot } = require('./common/paths');
const { createSandbox } = require('./sandbox/server');

const dist = path.join(repoRoot, 'dist');
const n8nEnv = { N8N_CUSTOM_EXTENSIONS: dist, N8N_DEV_RELOAD: 'true' };

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
		// n8n's hot reload lists <folder>/node_modules of a custom folder, and watches none without one.
		fs.mkdirSync(path.join(dist, 'node_modules'), { recursive: true });
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

	say('n8n\'s node CLI takes the screen now: it compiles on every change and n8n reloads the package. Press q there to stop everything.');
	const cli = path.join(repoRoot, 'node_modules', '.bin', 'n8n-node');
	// It links the repository into <folder>/.n8n/custom/node_modules, a folder this n8n does not read:
	// n8n would then scan the repository's node_modules too, and refuse to start on the first
	// *.node.js there that is not a node (pkce-challenge's; seen with n8n 2.41.1).
	const linkFolder = path.join(n8n.userFolder, 'node-cli');
	const dev = spawn(cli, ['dev', '--external-n8n', '--custom-user-folder', linkFolder], { cwd: repoRoot, stdio: 'inherit' });
	await new Promise((resolve) => dev.once('exit', resolve));
	await n8n.stop();
	await sandbox.stop();
	say('Stopped n8n and the sandbox.');
}

main().catch((/** @type {Error & { code?: string }} */ error) => {
	process.stderr.write(`\nnpm run dev failed: ${error.message}\n`);
	if (String(error.code).startsWith('ERR_PARSE_ARGS_')) process.stderr.write(`${USAGE}\n`);
	process.exit(1);
});

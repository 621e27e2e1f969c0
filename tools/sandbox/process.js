'use strict';
// The sandbox in a process of its own, for measurements that must not share an event loop
// with it. Controlled over its /_sandbox endpoints; stopped by PID.
const path = require('node:path');
const { spawn } = require('node:child_process');

/**
 * @param {{ port: number, apiKey: string, latencyMs?: number, rateLimit?: number, maxLifetimeS?: number }} options
 */
async function startSandboxProcess({ port, apiKey, latencyMs = 0, rateLimit = 0, maxLifetimeS = 1800 }) {
	const cli = path.join(__dirname, 'cli.js');
	const args = [cli, '--port', String(port), '--api-key', apiKey, '--latency-ms', String(latencyMs)];
	args.push('--rate-limit', String(rateLimit), '--max-lifetime-s', String(maxLifetimeS));
	const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
	await new Promise((/** @type {(value?: void) => void} */ resolve, reject) => {
		child.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
		child.stdout.on('data', (chunk) => {
			if (String(chunk).includes('listening')) resolve();
		});
	});
	const url = `http://127.0.0.1:${port}`;
	return {
		url,
		pid: child.pid,
		/** @returns {Promise<import('./server').SandboxState>} */
		async state() {
			return /** @type {import('./server').SandboxState} */ (await (await fetch(`${url}/_sandbox/state`)).json());
		},
		async reset() {
			await fetch(`${url}/_sandbox/state`, { method: 'DELETE' });
		},
		async stop() {
			if (child.exitCode !== null) return;
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			await exited;
		},
	};
}

/** @typedef {Awaited<ReturnType<typeof startSandboxProcess>>} SandboxProcess */

module.exports = { startSandboxProcess };

'use strict';
// A local npm registry (verdaccio, installed into the cache on first use) that serves only what the
// tests publish to it: no uplink, so a package it was not given is a 404, never a download from
// the real registry.
// It runs as a child process on 127.0.0.1, stopped by PID, under the cache's Node 24 (verdaccio 6
// needs Node 22 or later).
const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { freePort } = require('../common/ports');
const { ensureNode24, ensureVerdaccio } = require('../install/n8n');

const PUBLISHER = { name: 'e2e-publisher', password: 'e2e-publisher-password' };

/**
 * verdaccio's configuration: storage and users in `dir`, every package readable by anyone and
 * published by a signed-in user, no uplinks, the web UI off.
 * @param {string} dir
 */
function config(dir) {
	return [
		`storage: ${JSON.stringify(path.join(dir, 'storage'))}`,
		'auth:',
		'  htpasswd:',
		`    file: ${JSON.stringify(path.join(dir, 'htpasswd'))}`,
		'    max_users: 10',
		'uplinks: {}',
		'packages:',
		"  '**':",
		'    access: $all',
		'    publish: $authenticated',
		'    unpublish: $authenticated',
		'web:',
		'  enable: false',
		'log: { type: stdout, format: json, level: warn }',
		'',
	].join('\n');
}

/**
 * @typedef {object} Registry
 * @property {string} url  http://127.0.0.1:<port>
 * @property {number | undefined} pid
 * @property {string} logFile  verdaccio's output
 * @property {string} authToken  the publisher account's token, for an npm of one's own
 * @property {(tarball: string, options?: { version?: string }) => void} publish  publishes a packed
 *   package (npm publish), under another version when given one (a newer release of the same code)
 * @property {(name: string) => Promise<any>} metadata  the registry's document of a package
 * @property {() => Promise<void>} stop
 */

/**
 * Starts verdaccio with its data in `dir` (made anew); resolves once it answers.
 * @param {object} options
 * @param {string} options.dir
 * @param {string} [options.publicUrl]  set VERDACCIO_PUBLIC_URL, for tarball links under another address
 * @param {number} [options.timeoutMs]
 * @returns {Promise<Registry>}
 */
async function startRegistry({ dir, publicUrl, timeoutMs = 60_000 }) {
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	const configFile = path.join(dir, 'config.yaml');
	fs.writeFileSync(configFile, config(dir));
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const logFile = path.join(dir, 'verdaccio.log');
	const log = fs.openSync(logFile, 'w');
	const env = { ...process.env, ...(publicUrl ? { VERDACCIO_PUBLIC_URL: publicUrl } : {}) };
	const child = spawn(await ensureNode24(), [await ensureVerdaccio(), '--config', configFile, '--listen', `127.0.0.1:${port}`], {
		stdio: ['ignore', log, log],
		env,
	});
	fs.closeSync(log);
	const stop = async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		const exited = new Promise((resolve) => child.once('exit', resolve));
		child.kill('SIGTERM');
		const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
		await exited;
		clearTimeout(timer);
	};
	const started = Date.now();
	for (;;) {
		const ping = await fetch(`${url}/-/ping`).catch(() => undefined);
		if (ping?.ok) break;
		if (child.exitCode !== null || Date.now() - started > timeoutMs) {
			await stop();
			throw new Error(`verdaccio did not start on ${url}: ${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}

	const signUp = await fetch(`${url}/-/user/org.couchdb.user:${PUBLISHER.name}`, {
		method: 'PUT',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ name: PUBLISHER.name, password: PUBLISHER.password }),
	});
	const { token } = /** @type {{ token?: string }} */ (await signUp.json());
	if (!signUp.ok || !token) {
		await stop();
		throw new Error(`verdaccio refused the publisher account (HTTP ${signUp.status})`);
	}
	const auth = `--//127.0.0.1:${port}/:_authToken=${token}`;

	return {
		url,
		pid: child.pid,
		logFile,
		authToken: token,
		publish(tarball, { version } = {}) {
			let what = path.resolve(tarball);
			if (version) {
				what = path.join(dir, `unpacked-${version}`);
				fs.rmSync(what, { recursive: true, force: true });
				fs.mkdirSync(what);
				spawnSync('tar', ['-xzf', path.resolve(tarball), '-C', what, '--strip-components=1']);
				const manifest = path.join(what, 'package.json');
				fs.writeFileSync(manifest, JSON.stringify({ ...JSON.parse(fs.readFileSync(manifest, 'utf8')), version }, null, 2));
			}
			const result = spawnSync('npm', ['publish', what, `--registry=${url}/`, auth, '--no-provenance'], {
				cwd: dir,
				encoding: 'utf8',
				env: { ...process.env, npm_config_cache: path.join(dir, 'npm-cache') },
			});
			if (result.status !== 0) throw new Error(`npm publish ${tarball} to ${url} failed:\n${result.stdout}\n${result.stderr}`);
		},
		async metadata(name) {
			const response = await fetch(`${url}/${name.replace('/', '%2f')}`);
			if (!response.ok) throw new Error(`${url} has no ${name} (HTTP ${response.status})`);
			return await response.json();
		},
		stop,
	};
}

module.exports = { startRegistry };

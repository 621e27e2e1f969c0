'use strict';
// Builds and packs the package as it would be published.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { repoRoot, testedTarballsList } = require('./paths');
const { integrityOf } = require('../release/checks');

/**
 * @param {string[]} args
 * @param {string} [cwd]
 */
function npm(args, cwd = repoRoot) {
	const result = spawnSync('npm', args, { cwd, encoding: 'utf8' });
	if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
	return result.stdout;
}

/**
 * Packs the already built package (or the package in `from`) into `destination`; returns the tarball's path.
 * @param {string} destination
 * @param {{ build?: boolean, from?: string }} [options]
 * @returns {string}
 */
function packPackage(destination, { build = false, from = repoRoot } = {}) {
	if (build) npm(['run', 'build']);
	if (from === repoRoot && !fs.existsSync(path.join(repoRoot, 'dist'))) throw new Error('dist is missing: run `npm run build` first.');
	fs.mkdirSync(destination, { recursive: true });
	const [info] = JSON.parse(npm(['pack', '--json', '--pack-destination', destination], from));
	const tarball = path.join(destination, info.filename);
	if (from === repoRoot) recordTested(tarball);
	return tarball;
}

/**
 * Adds a tarball of this package that a test installs to the list a release checks: it publishes
 * only a tarball equal to every one tested since the last build (tools/release; a build empties it).
 * @param {string} tarball
 */
function recordTested(tarball) {
	fs.mkdirSync(path.dirname(testedTarballsList), { recursive: true });
	fs.appendFileSync(testedTarballsList, `${integrityOf(tarball)}\n`);
}

/** Where `npm test` has the tarball it packed once for every end-to-end file (test/e2e/packedTarball.ts). */
const PACKED_TARBALL_ENV = 'VIDEOPLATFORM_PACKED_TARBALL';

module.exports = { packPackage, recordTested, PACKED_TARBALL_ENV };

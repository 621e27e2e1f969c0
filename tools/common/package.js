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
	// A release publishes only a tarball equal to every one the tests packed (tools/release).
	if (from === repoRoot) {
		fs.mkdirSync(path.dirname(testedTarballsList), { recursive: true });
		fs.appendFileSync(testedTarballsList, `${integrityOf(tarball)}\n`);
	}
	return tarball;
}

/** Where `npm test` has the tarball it packed once for every end-to-end file (test/e2e/packedTarball.ts). */
const PACKED_TARBALL_ENV = 'VIDEOPLATFORM_PACKED_TARBALL';

module.exports = { packPackage, PACKED_TARBALL_ENV };

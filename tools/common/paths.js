'use strict';
// Where tooling keeps heavy installs and state. The n8n installs live outside the repo so
// that they stay warm across fresh clones (CI) and repeated `npm start` runs.
const os = require('node:os');
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '..', '..');
const cacheRoot =
	process.env.VIDEOPLATFORM_CACHE_DIR || path.join(os.homedir(), '.cache', 'n8n-nodes-videoplatform');

module.exports = {
	repoRoot,
	cacheRoot,
	node24Dir: path.join(cacheRoot, 'node24'),
	/** Where one n8n version is installed (tools/install/versions.js lists them). */
	n8nDir: (/** @type {string} */ version) => path.join(cacheRoot, `n8n-${version}`),
	/** Taken around every apt-get of the tools (Chromium, PostgreSQL and Redis): one at a time (chromium.sh too). */
	aptLock: path.join(cacheRoot, 'apt.lock'),
	scratchRoot: path.join(repoRoot, '.scratch'),
	/** The integrity of every tarball the tests packed from this build (a build empties it). */
	testedTarballsList: path.join(repoRoot, '.scratch', 'tested-tarballs.txt'),
	/** The seconds of each phase of the last `npm test` (and CI's `npm ci`), one JSON line each. */
	phasesFile: path.join(repoRoot, '.scratch', 'phases.jsonl'),
};

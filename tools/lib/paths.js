'use strict';
// Where tooling keeps heavy installs and state. The n8n installs live outside the repo so
// that they stay warm across fresh clones (CI) and repeated `npm start` runs.
const os = require('node:os');
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '..', '..');
const cacheRoot =
	process.env.VIDEOPLATFORM_CACHE_DIR || path.join(os.homedir(), '.cache', 'n8n-nodes-videoplatform');

/** n8n versions the package is tested with, by major. */
const N8N_VERSIONS = {
	2: { version: '2.41.1', node: 24, overrides: { linkedom: '0.18.14' } },
	1: { version: '1.123.50', node: 20, overrides: { xlsx: '0.18.5' } },
};

module.exports = {
	repoRoot,
	cacheRoot,
	N8N_VERSIONS,
	node24Dir: path.join(cacheRoot, 'node24'),
	n8nDir: (major) => path.join(cacheRoot, `n8n-${N8N_VERSIONS[major].version}`),
	scratchRoot: path.join(repoRoot, '.scratch'),
};

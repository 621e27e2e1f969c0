#!/usr/bin/env node
'use strict';
// node tools/install/lock.js [<version> ...]: writes tools/install/locks/n8n-<version>.json, the
// lockfile the install of that n8n version uses (tools/install/n8n.js), resolved from the npm
// registry without installing anything. Run it for a version added to versions.js, or whose
// overrides changed; with none given, for every installable version.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { installableVersions, resolveVersion, versionSpec } = require('./versions');
const { packageJsonOf, lockFileOf } = require('./n8n');

/** @param {string} version */
function writeLock(version) {
	const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-lock-'));
	// Named as the install folder is, since npm writes the folder's name into the lockfile.
	const dir = path.join(parent, `n8n-${version}`);
	fs.mkdirSync(dir);
	try {
		fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(packageJsonOf(versionSpec(version)), null, 2));
		const result = spawnSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
		if (result.status !== 0) throw new Error(`npm could not resolve n8n ${version} (exit ${result.status})`);
		fs.mkdirSync(path.dirname(lockFileOf(version)), { recursive: true });
		fs.copyFileSync(path.join(dir, 'package-lock.json'), lockFileOf(version));
		process.stdout.write(`Wrote ${path.relative(process.cwd(), lockFileOf(version))}\n`);
	} finally {
		fs.rmSync(parent, { recursive: true, force: true });
	}
}

const asked = process.argv.slice(2);
for (const version of asked.length ? asked.map((v) => resolveVersion(v)) : installableVersions()) writeLock(version);

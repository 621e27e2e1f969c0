'use strict';
// A database that n8n of one version has migrated once, copied into each new user folder of the
// tests that ask for it (N8n's `migratedDatabase`, single mode): otherwise the first command in every
// new folder spends 4 to 6 s creating n8n's tables (2.41.1: 11.6 s against 5.9 s for its first CLI
// command, 2026-12-02). The copy is n8n's own work, made by the first such folder after `npm test`
// cleared the kept ones (tools/checks/test.js). What a new user meets (the first npm start, the
// first-run walk, the manual install) keeps an empty folder.
const fs = require('node:fs');
const path = require('node:path');
const { scratchRoot } = require('../common/paths');

// SQLite's files: the database, and its write-ahead log and index when n8n keeps them (2.x).
const FILES = ['database.sqlite', 'database.sqlite-wal', 'database.sqlite-shm'];

/**
 * Whether n8n has made its database in this user folder (a new one has none yet).
 * @param {string} userFolder
 */
const hasDatabase = (userFolder) => fs.existsSync(path.join(userFolder, '.n8n', FILES[0]));

/** @param {string} version */
const keptFolder = (version) => path.join(scratchRoot, `migrated-database-${version}`);

/**
 * @param {string} from
 * @param {string} to
 */
function copyDatabase(from, to) {
	fs.mkdirSync(to, { recursive: true });
	for (const file of FILES) if (fs.existsSync(path.join(from, file))) fs.copyFileSync(path.join(from, file), path.join(to, file));
}

/**
 * Gives a single-mode process's new user folder a migrated database: a copy of the one kept for its
 * version, or, the first time, its own, made by a command that only migrates (an import of no
 * credentials) and then kept. A folder that has a database keeps it.
 * @param {import('./process').N8nProcess} n8nProcess  prepared, not started
 */
async function startFromMigratedDatabase(n8nProcess) {
	if (hasDatabase(n8nProcess.userFolder)) return;
	const folder = path.join(n8nProcess.userFolder, '.n8n');
	const kept = keptFolder(n8nProcess.owner.version);
	if (fs.existsSync(path.join(kept, FILES[0]))) return copyDatabase(kept, folder);
	const nothing = n8nProcess.writeJson('migrate.import.json', []);
	try {
		await n8nProcess.cli(['import:credentials', `--input=${nothing}`]);
	} finally {
		fs.rmSync(nothing, { force: true });
	}
	// Made aside and renamed, so that a run beside this one never copies half a database.
	const making = `${kept}.${process.pid}`;
	fs.rmSync(making, { recursive: true, force: true });
	copyDatabase(folder, making);
	try {
		fs.renameSync(making, kept);
	} catch {
		fs.rmSync(making, { recursive: true, force: true });
	}
}

module.exports = { hasDatabase, startFromMigratedDatabase };

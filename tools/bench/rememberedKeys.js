'use strict';
// The keys n8n's deduplication store remembers for one node (scope This Node), read and written
// in a stopped single-process n8n's SQLite database, or in queue mode's PostgreSQL (n8n running
// or not), as n8n's DeduplicationHelper keeps them: one processed_data row per workflow and
// context `n:<node id>`, value {"mode":"entries","data":[…]} with the MD5 (base64) of each key.
// Used to start the Drop Redelivered bench with a full list.
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const path = require('node:path');

const { n8nDir, repoRoot } = require('../common/paths');

/** The key the trigger gives a delivery whose `idField` is `id`, from the built node itself. */
function deliveryKeyOfId(/** @type {string} */ id) {
	const { deliveryKeyOf } = require(path.join(repoRoot, 'dist', 'nodes', 'VideoPlatform', 'trigger', 'deliveryKey.js'));
	const raw = JSON.stringify({ id });
	return deliveryKeyOf(JSON.parse(raw), 'id', null, raw).deliveryKey;
}
const md5 = (/** @type {string} */ key) => createHash('md5').update(key).digest('base64');

/**
 * Runs `script` with n8n's own sqlite3 module and Node, the database file in argv[1], `input` on
 * stdin; returns its stdout.
 * @param {import('../n8n/n8n').N8n} n8n
 * @param {string} script
 * @param {string} input
 */
function withDatabase(n8n, script, input = '') {
	const database = path.join(n8n.main.userFolder, '.n8n', 'database.sqlite');
	const result = spawnSync(n8n.main.node, ['-e', script, database], { cwd: n8nDir(n8n.version), input, encoding: 'utf8', timeout: 60_000 });
	if (result.status !== 0) throw new Error(`Reading n8n's database failed: ${result.stderr || result.error}`);
	return result.stdout;
}

const sqlText = (/** @type {string} */ text) => `'${text.replaceAll("'", "''")}'`;
/** The row's key columns in PostgreSQL (n8n's camelCase names are quoted there). */
const whereRow = (/** @type {string} */ workflowId, /** @type {string} */ context) => `"workflowId" = ${sqlText(workflowId)} AND context = ${sqlText(context)}`;

/**
 * Writes the row into queue mode's PostgreSQL. psql takes the SQL as one argument, which Linux
 * caps at 128 KiB, and 10,000 keys are about 270 KB: the value is written in parts.
 * @param {import('../queue/services').Postgres} postgres
 * @param {{ workflowId: string, context: string, value: string }} row
 */
function insertIntoPostgres(postgres, { workflowId, context, value }) {
	const [first, ...rest] = value.match(/[^]{1,60000}/g) ?? [''];
	postgres.query(`INSERT INTO processed_data ("workflowId", context, value, "createdAt", "updatedAt") VALUES (${sqlText(workflowId)}, ${sqlText(context)}, ${sqlText(first)}, NOW(), NOW())`);
	for (const part of rest) postgres.query(`UPDATE processed_data SET value = value || ${sqlText(part)} WHERE ${whereRow(workflowId, context)}`);
}

/**
 * Makes n8n remember `count` keys for the node, as if that many deliveries with ids
 * `${prefix}1` … `${prefix}${count}` had been let through. A single-process n8n must be stopped.
 * @param {import('../n8n/n8n').N8n} n8n
 * @param {{ workflowId: string, nodeId: string, count: number, prefix: string }} options
 */
function rememberKeys(n8n, { workflowId, nodeId, count, prefix }) {
	const data = Array.from({ length: count }, (_, i) => md5(deliveryKeyOfId(`${prefix}${i + 1}`)));
	const value = JSON.stringify({ mode: 'entries', data });
	const postgres = n8n.services?.postgres;
	if (postgres) return insertIntoPostgres(postgres, { workflowId, context: `n:${nodeId}`, value });
	const row = JSON.stringify({ workflowId, context: `n:${nodeId}`, value });
	withDatabase(
		n8n,
		`const sqlite3 = require('sqlite3'); const row = JSON.parse(require('fs').readFileSync(0, 'utf8'));
		const db = new sqlite3.Database(process.argv[1]);
		db.run("INSERT INTO processed_data (workflowId, context, value, createdAt, updatedAt) VALUES (?, ?, ?, STRFTIME('%Y-%m-%d %H:%M:%f', 'NOW'), STRFTIME('%Y-%m-%d %H:%M:%f', 'NOW'))",
			[row.workflowId, row.context, row.value], (error) => { if (error) { console.error(error.message); process.exit(1); } db.close(); });`,
		row,
	);
}

/**
 * How many keys n8n remembers for the node now, and how many of `ids` (let through) it lacks.
 * A single-process n8n must be stopped; queue mode's PostgreSQL must still run.
 * @param {import('../n8n/n8n').N8n} n8n
 * @param {{ workflowId: string, nodeId: string }} options
 * @param {string[]} ids
 */
function rememberedAfter(n8n, { workflowId, nodeId }, ids) {
	const postgres = n8n.services?.postgres;
	const fromSqlite = () => withDatabase(
		n8n,
		`const sqlite3 = require('sqlite3'); const db = new sqlite3.Database(process.argv[1]);
		db.get('SELECT value FROM processed_data WHERE workflowId = ? AND context = ?', [${JSON.stringify(workflowId)}, ${JSON.stringify(`n:${nodeId}`)}],
			(error, row) => { if (error) { console.error(error.message); process.exit(1); } process.stdout.write(row ? row.value : '{"data":[]}'); db.close(); });`,
	);
	const out = postgres ? postgres.query(`SELECT value FROM processed_data WHERE ${whereRow(workflowId, `n:${nodeId}`)}`).trim() || '{"data":[]}' : fromSqlite();
	const kept = new Set(JSON.parse(out).data);
	return { count: kept.size, missing: ids.filter((id) => !kept.has(md5(deliveryKeyOfId(id)))).length };
}

module.exports = { rememberKeys, rememberedAfter };

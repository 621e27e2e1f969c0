'use strict';
// The keys n8n's deduplication store remembers for one node (scope This Node), read and written
// in a stopped single-process n8n's SQLite database, as n8n's DeduplicationHelper keeps them: one
// processed_data row per workflow and context `n:<node id>`, value {"mode":"entries","data":[…]}
// with the MD5 (base64) of each key. Used to start the Drop Redelivered bench with a full list.
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

/**
 * Makes n8n remember `count` keys for the node, as if that many deliveries with ids
 * `${prefix}1` … `${prefix}${count}` had been let through. n8n must be stopped.
 * @param {import('../n8n/n8n').N8n} n8n
 * @param {{ workflowId: string, nodeId: string, count: number, prefix: string }} options
 */
function rememberKeys(n8n, { workflowId, nodeId, count, prefix }) {
	const data = Array.from({ length: count }, (_, i) => md5(deliveryKeyOfId(`${prefix}${i + 1}`)));
	const row = JSON.stringify({ workflowId, context: `n:${nodeId}`, value: JSON.stringify({ mode: 'entries', data }) });
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
 * n8n must be stopped.
 * @param {import('../n8n/n8n').N8n} n8n
 * @param {{ workflowId: string, nodeId: string }} options
 * @param {string[]} ids
 */
function rememberedAfter(n8n, { workflowId, nodeId }, ids) {
	const out = withDatabase(
		n8n,
		`const sqlite3 = require('sqlite3'); const db = new sqlite3.Database(process.argv[1]);
		db.get('SELECT value FROM processed_data WHERE workflowId = ? AND context = ?', [${JSON.stringify(workflowId)}, ${JSON.stringify(`n:${nodeId}`)}],
			(error, row) => { if (error) { console.error(error.message); process.exit(1); } process.stdout.write(row ? row.value : '{"data":[]}'); db.close(); });`,
	);
	const kept = new Set(JSON.parse(out).data);
	return { count: kept.size, missing: ids.filter((id) => !kept.has(md5(deliveryKeyOfId(id)))).length };
}

module.exports = { rememberKeys, rememberedAfter };

#!/usr/bin/env node
'use strict';
// Usage: node tools/install-n8n.js [1] [2]   (both when none is given)
const { ensureN8n } = require('./lib/n8n-install');

async function main() {
	const majors = process.argv.slice(2).length ? process.argv.slice(2) : ['2', '1'];
	for (const major of majors) await ensureN8n(Number(major));
}

main().catch((error) => {
	process.stderr.write(`[install] ${error.message}. Then run the same command again: a half-finished install is redone.\n`);
	process.exit(1);
});

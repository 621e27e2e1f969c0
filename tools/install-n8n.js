#!/usr/bin/env node
'use strict';
// Usage: node tools/install-n8n.js [1] [2]   (both when none is given)
const { ensureN8n } = require('./lib/n8n-install');

const majors = process.argv.slice(2).length ? process.argv.slice(2) : ['2', '1'];
try {
	for (const major of majors) ensureN8n(Number(major));
} catch (error) {
	process.stderr.write(`[install-n8n] ${error.message}\n`);
	process.exit(1);
}

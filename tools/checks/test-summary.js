#!/usr/bin/env node
'use strict';
// Prints jest's result as one plain line, "N passed, N failed", for CI logs.
const fs = require('node:fs');
const { parseArgs } = require('node:util');

// Usage: node tools/checks/test-summary.js <jest --json output file>
const [file] = parseArgs({ args: process.argv.slice(2), allowPositionals: true }).positionals;
if (!file || !fs.existsSync(file)) {
	process.stdout.write('0 passed, 1 failed (no test results were written)\n');
	process.exit(0);
}
const results = JSON.parse(fs.readFileSync(file, 'utf8'));
const failed = results.numFailedTests + (results.numRuntimeErrorTestSuites || 0);
const skipped = results.numPendingTests + results.numTodoTests;
process.stdout.write(`${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);

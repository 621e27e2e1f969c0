#!/usr/bin/env node
'use strict';
// Prints jest's result as one plain line, "N passed, N failed", for CI logs, then where the time went.
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { phaseRows, phaseTable, recordedPhases } = require('./phases');

// Usage: node tools/checks/test-summary.js [--npm-ci-seconds N] <jest --json output file>
const { values, positionals } = parseArgs({ args: process.argv.slice(2), allowPositionals: true, options: { 'npm-ci-seconds': { type: 'string' } } });
const [file] = positionals;
const npmCi = values['npm-ci-seconds'] === undefined ? [] : [{ name: 'npm ci', seconds: Number(values['npm-ci-seconds']) }];
const printTimes = (/** @type {object} */ jestResults) =>
	process.stdout.write(`\nWhere the time went (seconds; installs and the first npm start run in the background, beside the other phases, and jest runs as two lanes side by side; the last rows add up the steps the end-to-end files repeat, with how many there were):\n${phaseTable(phaseRows([...npmCi, ...recordedPhases()], jestResults))}\n`);
if (!file || !fs.existsSync(file)) {
	process.stdout.write('0 passed, 1 failed (no test results were written)\n');
	printTimes({});
	process.exit(0);
}
const results = JSON.parse(fs.readFileSync(file, 'utf8'));
const failed = results.numFailedTests + (results.numRuntimeErrorTestSuites || 0);
const skipped = results.numPendingTests + results.numTodoTests;
process.stdout.write(`${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
// The failures again, by name: the two jest lanes print theirs apart, far from the end of the log.
for (const { name, status, message, assertionResults = [] } of results.testResults ?? []) {
	if (status !== 'failed') continue;
	const tests = assertionResults.filter((/** @type {{ status: string }} */ test) => test.status === 'failed');
	const file = path.relative(process.cwd(), name);
	if (!tests.length) process.stdout.write(`  failed to run: ${file}: ${String(message).trim().split('\n')[0]}\n`);
	for (const { fullName } of tests) process.stdout.write(`  failed: ${file} › ${fullName}\n`);
}
printTimes(results);

#!/usr/bin/env node
'use strict';
// node tools/release/pack.js <folder>
// After `npm test`: packs the build the tests ran on into <folder> and writes its integrity beside it,
// refusing when the tests packed nothing or packed other bytes. The release publishes that file.
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { testedTarballsList } = require('../common/paths');
const { integrityOf } = require('./checks');

const fail = (/** @type {string} */ message) => {
	process.stderr.write(`release pack: ${message}\n`);
	process.exit(1);
};

const { positionals } = parseArgs({ args: process.argv.slice(2), allowPositionals: true, options: {} });
if (positionals.length !== 1) fail('usage: node tools/release/pack.js <folder>');
const tested = fs.existsSync(testedTarballsList) ? [...new Set(fs.readFileSync(testedTarballsList, 'utf8').split('\n').filter(Boolean))] : [];
if (!tested.length) fail(`no tarball was tested since the last build (${testedTarballsList} is empty): run npm test first.`);

// Required late: packing appends to the list read above.
const { packPackage } = require('../common/package');
const tarball = packPackage(path.resolve(positionals[0]));
const integrity = integrityOf(tarball);
const other = tested.filter((seen) => seen !== integrity);
if (other.length) fail(`the tests packed ${other.length} tarball(s) with other bytes than ${path.basename(tarball)}: rebuild and run npm test again.`);
fs.writeFileSync(`${tarball}.integrity`, `${integrity}\n`);
process.stdout.write(`${tarball}\n${integrity}\n`);

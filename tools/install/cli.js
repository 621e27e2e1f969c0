#!/usr/bin/env node
'use strict';
const { parseArgs } = require('node:util');
const { N8N_VERSIONS, UnknownVersionError, defaultVersion, installableVersions, majorOf, newestFirst, resolveVersion } = require('./versions');

const USAGE = `Usage: node tools/install/cli.js [--list] [<major or version> ...]
Installs n8n versions (and Node 24 when one needs it) into the cache; a major means its default
version. With none given, every installable version in tools/install/versions.js, the ones the
end-to-end tests run on. An existing install is checked, and redone when broken or outdated.
  --list   the known versions and what each is for; installs nothing
  --help   this text`;

/**
 * What the command line asks for: { help }, { list }, or { versions } to install, in order.
 * @param {string[]} argv
 * @returns {{ help: true } | { list: true } | { versions: string[] }}
 */
function planFrom(argv) {
	const { values, positionals } = parseArgs({
		args: argv,
		allowPositionals: true,
		options: { help: { type: 'boolean', short: 'h' }, list: { type: 'boolean' } },
	});
	if (values.help) return { help: true };
	if (values.list) return { list: true };
	const versions = positionals.length ? positionals.map((requested) => resolveVersion(requested)) : installableVersions();
	return { versions: [...new Set(versions)] };
}

/** One line per known version, newest first. */
function listing() {
	const defaults = new Set(installableVersions({ role: 'full' }).map((version) => defaultVersion(majorOf(version))));
	return Object.keys(N8N_VERSIONS)
		.sort(newestFirst)
		.map((version) => {
			const entry = N8N_VERSIONS[version];
			if (entry.notInstallable) return `${version}  not installable: ${entry.notInstallable}`;
			const role = entry.role === 'full' ? 'every end-to-end suite' : 'the smoke end-to-end test';
			return `${version}  Node ${entry.node}, ${role}${defaults.has(version) ? `; what "${majorOf(version)}" means` : ''}`;
		})
		.join('\n');
}

async function main() {
	const plan = planFrom(process.argv.slice(2));
	if ('help' in plan) return void process.stdout.write(`${USAGE}\n`);
	if ('list' in plan) return void process.stdout.write(`${listing()}\n`);
	// Loaded only to install: --help and --list touch nothing.
	const { ensureN8n } = require('./n8n');
	for (const version of plan.versions) await ensureN8n(version);
}

if (require.main === module) {
	main().catch((error) => {
		process.stderr.write(`[install] ${error.message.replace(/\.$/, '')}.\n`);
		if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || error instanceof UnknownVersionError) process.stderr.write(`${USAGE}\n`);
		else process.stderr.write('Then run the same command again: a half-finished install is redone.\n');
		process.exit(1);
	});
}

module.exports = { planFrom, listing };

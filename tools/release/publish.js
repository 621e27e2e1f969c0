#!/usr/bin/env node
'use strict';
// node tools/release/publish.js --tarball <file.tgz> --tag <vX.Y.Z> [--registry <url>] [--no-provenance]
// Publishes the tarball that tools/release/pack.js proved equal to the tested one, after the checks
// of checks.js on the package.json inside it. In GitHub Actions npm adds provenance through OIDC
// (trusted publishing); --no-provenance is for a test against a local registry, where none can be made.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { repoRoot } = require('../common/paths');
const { integrityOf, manifestIn, releaseProblems } = require('./checks');

const USAGE = 'Usage: node tools/release/publish.js --tarball <file.tgz> --tag <vX.Y.Z> [--registry <url>] [--no-provenance]';

function main() {
	const { values } = parseArgs({
		args: process.argv.slice(2),
		options: {
			tarball: { type: 'string' },
			tag: { type: 'string' },
			registry: { type: 'string' },
			'no-provenance': { type: 'boolean' },
		},
	});
	if (!values.tarball || !values.tag) throw new Error(USAGE);
	const tarball = path.resolve(values.tarball);
	const expected = fs.existsSync(`${tarball}.integrity`) ? fs.readFileSync(`${tarball}.integrity`, 'utf8').trim() : '';
	if (!expected) throw new Error(`${path.basename(tarball)}.integrity is missing: pack with tools/release/pack.js after npm test.`);
	if (integrityOf(tarball) !== expected) throw new Error(`${path.basename(tarball)} is not the tarball that was tested (its integrity differs).`);

	const problems = releaseProblems({
		manifest: manifestIn(tarball),
		tag: values.tag,
		changelog: fs.readFileSync(path.join(repoRoot, 'CHANGELOG.md'), 'utf8'),
		githubRepository: process.env.GITHUB_REPOSITORY,
	});
	if (problems.length) throw new Error(`Not published:\n- ${problems.join('\n- ')}`);

	const args = ['publish', tarball, '--access', 'public'];
	args.push(values['no-provenance'] ? '--no-provenance' : '--provenance');
	if (values.registry) args.push('--registry', values.registry);
	const result = spawnSync('npm', args, { stdio: 'inherit' });
	if (result.status !== 0) throw new Error(`npm ${args.join(' ')} exited ${result.status}`);
}

try {
	main();
} catch (error) {
	process.stderr.write(`release publish: ${/** @type {Error} */ (error).message}\n`);
	process.exit(1);
}

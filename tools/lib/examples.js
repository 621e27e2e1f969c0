'use strict';
// The example workflows in examples/, and the sandbox credential they refer to.
const fs = require('node:fs');
const path = require('node:path');
const { repoRoot } = require('./paths');
const { credential } = require('./workflows');

const EXAMPLES_DIR = path.join(repoRoot, 'examples');
const SANDBOX_CREDENTIAL_ID = 'vpSandbox';

function loadExamples() {
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => ({ file, workflow: JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) }));
}

function sandboxCredential(sandboxUrl, apiKey) {
	return { ...credential(SANDBOX_CREDENTIAL_ID, sandboxUrl, apiKey), name: 'Video Platform (local sandbox)' };
}

module.exports = { EXAMPLES_DIR, loadExamples, sandboxCredential, SANDBOX_CREDENTIAL_ID };

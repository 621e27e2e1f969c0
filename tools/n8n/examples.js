'use strict';
// The example workflows in examples/, and the sandbox credential they refer to.
const fs = require('node:fs');
const path = require('node:path');
const { repoRoot } = require('../common/paths');
const { credential } = require('./workflows');

const EXAMPLES_DIR = path.join(repoRoot, 'examples');
const SANDBOX_CREDENTIAL_ID = 'vpSandbox';
// The MCP example's endpoint credential. The token only guards a local n8n on 127.0.0.1; the
// README says to replace it before n8n is reachable from elsewhere.
const MCP_CREDENTIAL_ID = 'vpMcpBearer';
const MCP_LOCAL_TOKEN = 'local-mcp-token-change-me';

/** @returns {{ file: string, workflow: any }[]} the examples as JSON, unchecked */
function loadExamples() {
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => ({ file, workflow: JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) }));
}

/**
 * @param {string} sandboxUrl
 * @param {string} apiKey
 */
function sandboxCredential(sandboxUrl, apiKey) {
	return { ...credential(SANDBOX_CREDENTIAL_ID, sandboxUrl, apiKey), name: 'Video Platform (local sandbox)' };
}

/** @returns {import('./workflows').Credential} */
function mcpCredential(token = MCP_LOCAL_TOKEN) {
	return { id: MCP_CREDENTIAL_ID, name: 'MCP clients (local token)', type: 'httpBearerAuth', data: { token } };
}

module.exports = {
	EXAMPLES_DIR,
	loadExamples,
	sandboxCredential,
	SANDBOX_CREDENTIAL_ID,
	mcpCredential,
	MCP_CREDENTIAL_ID,
	MCP_LOCAL_TOKEN,
};

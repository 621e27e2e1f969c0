'use strict';
// Every n8n version the tooling knows, keyed by version: how it installs, what it can do, and how
// much of the end-to-end suite runs on it. Adding a version is one entry in N8N_VERSIONS and its
// lockfile (`node tools/install/lock.js <version>`, again after changing its overrides).
//
// Entry fields:
// - node: 24 (installed into the cache from the npm package node@24) or 20 (the Node running the tools)
// - overrides: npm overrides the install needs (a dependency missing from the registry, or declared as a URL)
// - installWith: 'npm-install' (a plain install, install scripts run), or 'scripts-off-then-rebuild'
//   (no install script runs, since some download from outside the registry and others compile
//   native code n8n does without; nativeModules are then rebuilt against the headers of `node`, or
//   taken from an earlier install's build of the same module version for the same Node)
// - nativeModules: what must build (compile, or take its package's binary) and load for the install to count
// - role: 'full' (every end-to-end suite runs on it) or 'smoke' (test/e2e/smoke.e2e.test.ts only)
// - capabilities: what the tools and tests check instead of a major version:
//   - modulesToDisable: set as N8N_DISABLED_MODULES (mcp-registry reaches out of the machine); a
//     version without such a module refuses to start when named one, so it gets []
//   - taskBroker: starts an internal task broker (port 5679 unless told), so each process needs
//     its own N8N_RUNNERS_BROKER_PORT
//   - publicApiStop: the public API can stop a running execution (POST /executions/{id}/stop)
//   - credentialTestRuleMessages: the credential Test shows the credential's own rule messages for
//     error answers (else n8n's own text for the status)
//   - mcpNodeSearch: n8n's own MCP server (/mcp-server/http) has the AI builder's node search tool
//     (search_nodes), which reads the nodes' builderHint
//   - packagesManagedByEnv: `n8n start` installs, updates and removes community packages to match
//     N8N_COMMUNITY_PACKAGES when N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV=true
//   - v3Report: n8n's report of what its 3.0 changes (GET /rest/breaking-changes/report?version=v3)
//   - ssrfProtection: N8N_SSRF_PROTECTION_ENABLED=true makes n8n refuse requests to private
//     addresses unless N8N_SSRF_ALLOWED_HOSTNAMES / N8N_SSRF_ALLOWED_IP_RANGES allow them (1.x has no such setting)
//   - jsonByteOrderMark: n8n parses a JSON body that starts with a byte-order mark ('dropped',
//     middlewares/body-parser's stripBom) or answers 422 to it ('refused')
//   - apiImportKeepsIds: the public API creates a credential with the id it is sent, and the
//     editor's REST API a workflow (1.x gives both new ids)
// - notInstallable: why a version cannot be installed here; it has no other field.

/**
 * @typedef {object} Capabilities
 * @property {readonly string[]} modulesToDisable
 * @property {boolean} taskBroker
 * @property {boolean} publicApiStop
 * @property {boolean} credentialTestRuleMessages
 * @property {boolean} mcpNodeSearch
 * @property {boolean} packagesManagedByEnv
 * @property {boolean} v3Report
 * @property {boolean} ssrfProtection
 * @property {'dropped' | 'refused'} jsonByteOrderMark
 * @property {boolean} apiImportKeepsIds
 *
 * @typedef {object} VersionEntry
 * @property {20 | 24} [node]
 * @property {Record<string, string>} [overrides]
 * @property {'npm-install' | 'scripts-off-then-rebuild'} [installWith]
 * @property {string[]} [nativeModules]
 * @property {'full' | 'smoke'} [role]
 * @property {Capabilities} [capabilities]
 * @property {string} [notInstallable]
 *
 * @typedef {VersionEntry & { version: string, capabilities: Capabilities }} VersionSpec
 * @typedef {Readonly<Record<string, { notInstallable?: string, role?: string }>>} VersionTable  a list like N8N_VERSIONS (tests pass their own)
 */

/** Measured on 2.41.1. */
const AS_IN_2_41 = Object.freeze({
	modulesToDisable: Object.freeze(['mcp-registry']),
	taskBroker: true,
	publicApiStop: true,
	credentialTestRuleMessages: true,
	mcpNodeSearch: true,
	packagesManagedByEnv: true,
	v3Report: true,
	ssrfProtection: true,
	jsonByteOrderMark: 'dropped',
	apiImportKeepsIds: true,
});

/** Measured on 1.123.50 (task runners are off by default there: no broker). */
const AS_IN_1_123 = Object.freeze({
	modulesToDisable: Object.freeze([]),
	taskBroker: false,
	publicApiStop: false,
	credentialTestRuleMessages: false,
	mcpNodeSearch: false,
	packagesManagedByEnv: false,
	v3Report: false,
	ssrfProtection: false,
	jsonByteOrderMark: 'refused',
	apiImportKeepsIds: false,
});

/** @type {Readonly<Record<string, VersionEntry>>} */
const N8N_VERSIONS = Object.freeze({
	'2.41.3': {
		notInstallable:
			'23 of its own packages are missing from the npm registry (among them n8n-core@2.41.2, @n8n/task-runner@2.41.2, @n8n/agents@0.26.2 and n8n-editor-ui@2.41.1); overriding them all with older ones would not install 2.41.3 (checked 2026-11-24)',
	},
	'2.41.1': {
		node: 24,
		overrides: { linkedom: '0.18.14' },
		installWith: 'scripts-off-then-rebuild',
		nativeModules: ['sqlite3', 'isolated-vm'],
		role: 'full',
		capabilities: AS_IN_2_41,
	},
	'1.123.81': {
		node: 24,
		// Unlike 1.123.50 it pulls isolated-vm, which does not compile for Node 20 (seen 2026-11-24).
		overrides: { xlsx: '0.18.5' },
		installWith: 'scripts-off-then-rebuild',
		nativeModules: ['sqlite3', 'isolated-vm'],
		role: 'smoke',
		capabilities: AS_IN_1_123,
	},
	'1.123.50': {
		node: 20,
		overrides: { xlsx: '0.18.5' },
		installWith: 'scripts-off-then-rebuild',
		nativeModules: ['sqlite3'],
		role: 'full',
		capabilities: AS_IN_1_123,
	},
	// The oldest n8n the package supports: its n8n-workflow is the first with NodeConnectionTypes
	// (docs/self-hosting.md, "n8n versions").
	'1.85.4': {
		node: 20,
		overrides: { xlsx: '0.18.5' },
		installWith: 'scripts-off-then-rebuild',
		nativeModules: ['sqlite3'],
		role: 'smoke',
		capabilities: AS_IN_1_123,
	},
});

/** A version named on the command line or in code that the list does not offer. */
class UnknownVersionError extends Error {}

const majorOf = (/** @type {string} */ version) => Number(version.split('.')[0]);

/**
 * Newest first, by number: 2.41.1 before 2.9.0.
 * @param {string} a
 * @param {string} b
 */
function newestFirst(a, b) {
	const [x, y] = [a, b].map((v) => v.split('.').map(Number));
	for (let i = 0; i < Math.max(x.length, y.length); i++) {
		if ((x[i] ?? 0) !== (y[i] ?? 0)) return (y[i] ?? 0) - (x[i] ?? 0);
	}
	return 0;
}

/**
 * The versions that install here, newest first, optionally only those of one role.
 * @param {{ role?: 'full' | 'smoke' }} [filter]
 * @param {VersionTable} [table]
 * @returns {string[]}
 */
function installableVersions({ role } = {}, table = N8N_VERSIONS) {
	return Object.keys(table)
		.filter((version) => !table[version].notInstallable && (!role || table[version].role === role))
		.sort(newestFirst);
}

/**
 * The version a major stands for: its newest fully tested one, so that `npm start` never runs a
 * version that only has a smoke test. Without a major, the newest major's.
 * @param {number | string} [major]
 * @param {VersionTable} [table]
 * @returns {string}
 */
function defaultVersion(major, table = N8N_VERSIONS) {
	const full = installableVersions({ role: 'full' }, table);
	const found = major === undefined ? full[0] : full.find((version) => majorOf(version) === Number(major));
	if (!found) throw new UnknownVersionError(`No fully tested n8n ${major}.x in tools/install/versions.js`);
	return found;
}

/**
 * The entry of an installable version, with its version; a clear error for any other.
 * @param {string} version
 * @param {VersionTable} [table]
 * @returns {VersionSpec}
 */
function versionSpec(version, table = N8N_VERSIONS) {
	const entry = Object.hasOwn(table, version) ? table[version] : undefined;
	if (entry?.notInstallable) throw new UnknownVersionError(`n8n ${version} cannot be installed: ${entry.notInstallable}`);
	if (!entry) {
		throw new UnknownVersionError(`n8n "${version}" is not in tools/install/versions.js; known: ${installableVersions({}, table).join(', ')}`);
	}
	return /** @type {VersionSpec} */ ({ version, ...entry });
}

/**
 * A major ("1", "2") becomes its default version; a full version is checked and kept.
 * @param {number | string} requested
 * @param {VersionTable} [table]
 * @returns {string}
 */
function resolveVersion(requested, table = N8N_VERSIONS) {
	const text = String(requested).trim();
	const version = /^\d+$/.test(text) ? defaultVersion(text, table) : text;
	return versionSpec(version, table).version;
}

module.exports = {
	N8N_VERSIONS,
	UnknownVersionError,
	majorOf,
	newestFirst,
	installableVersions,
	defaultVersion,
	versionSpec,
	resolveVersion,
};

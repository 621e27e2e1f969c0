'use strict';
// The bits of n8n's HTTP API the tooling needs: set up the owner, get a public API key, read
// executions back.
const { triggerUrls } = require('./workflows');

const OWNER = {
	email: 'owner@videoplatform.local',
	firstName: 'Local',
	lastName: 'Owner',
	password: 'Sandbox-Owner-2026',
};
// n8n ties its session cookie to a browser id sent with every REST call.
const BROWSER_ID = 'videoplatform-tooling';

/**
 * @param {string} baseUrl
 * @param {string} path
 * @param {{ method?: string, body?: unknown, cookie?: string }} [options]
 * @returns {Promise<{ data: any, cookie: string | undefined }>}
 */
async function rest(baseUrl, path, { method = 'GET', body, cookie } = {}) {
	const response = await fetch(`${baseUrl}${path}`, {
		method,
		headers: {
			'Content-Type': 'application/json',
			'browser-id': BROWSER_ID,
			...(cookie ? { Cookie: cookie } : {}),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
	const cookies = response.headers.getSetCookie?.() ?? [];
	const auth = cookies.find((c) => c.startsWith('n8n-auth='));
	return { data: text ? JSON.parse(text) : undefined, cookie: auth ? auth.split(';')[0] : cookie };
}

/**
 * Creates the owner account, or logs in if it exists. Returns the session cookie.
 * @param {string} baseUrl
 * @param {typeof OWNER} [owner]
 * @returns {Promise<string>}
 */
async function ensureOwner(baseUrl, owner = OWNER) {
	const cookie = await setUpOrLogIn(baseUrl, owner);
	if (!cookie) throw new Error(`n8n at ${baseUrl} accepted the owner's login but sent no session cookie`);
	return cookie;
}

/**
 * @param {string} baseUrl
 * @param {typeof OWNER} owner
 */
async function setUpOrLogIn(baseUrl, owner) {
	try {
		return (await rest(baseUrl, '/rest/owner/setup', { method: 'POST', body: owner })).cookie;
	} catch (error) {
		if (!/answered 400/.test(/** @type {Error} */ (error).message)) throw error;
		const login = await rest(baseUrl, '/rest/login', {
			method: 'POST',
			body: { emailOrLdapLoginId: owner.email, email: owner.email, password: owner.password },
		});
		return login.cookie;
	}
}

/**
 * A public API key that may do what `scopes` lists (N8n.publicApi() makes the one each n8n uses).
 * @param {string} baseUrl
 * @param {string} cookie  the owner's session
 * @param {string[]} scopes
 * @returns {Promise<string>}
 */
async function createApiKey(baseUrl, cookie, scopes) {
	const { data } = await rest(baseUrl, '/rest/api-keys', {
		method: 'POST',
		cookie,
		body: { label: `tooling-${Date.now()}`, scopes, expiresAt: null },
	});
	return (data.data ?? data).rawApiKey ?? (data.data ?? data).apiKey;
}

/**
 * One call to n8n's public API (/api/v1) with an API key; the parsed answer, or an error naming the call.
 * @param {string} baseUrl
 * @param {string} apiKey
 * @param {string} method
 * @param {string} route
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
async function publicApiCall(baseUrl, apiKey, method, route, body) {
	const response = await fetch(`${baseUrl}/api/v1${route}`, {
		method,
		headers: { 'X-N8N-API-KEY': apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} /api/v1${route} answered ${response.status}: ${text.slice(0, 500)}`);
	return text ? JSON.parse(text) : undefined;
}

/**
 * n8n 1.85.4's public API leaves `status` out of an execution (1.123.50's has it): then it is read
 * from `finished` and `stoppedAt`, and a stopped run that did not finish counts as 'error'.
 * @param {any} execution
 */
const withStatus = (execution) =>
	execution.status !== undefined ? execution : { ...execution, status: execution.finished ? 'success' : execution.stoppedAt ? 'error' : 'running' };

/**
 * Whether an execution has ended with its run data stored. n8n 1.x on SQLite writes an ending
 * execution's status and its run data in two statements (ExecutionRepository.updateExistingExecution
 * in 1.123.50), so for a moment it reads as ended with the run data it started with: no node's.
 * @param {any} execution  read with its data, through withStatus
 */
const endedWithRunData = (execution) => {
	const result = execution.data?.resultData;
	return execution.status !== 'running' && execution.status !== 'new' && (Object.keys(result?.runData ?? {}).length > 0 || result?.error !== undefined);
};

/**
 * Every execution of a workflow, through the public API.
 * @param {string} baseUrl
 * @param {string} apiKey
 * @param {string} workflowId
 * @param {{ includeData?: boolean }} [options]
 * @returns {Promise<any[]>}
 */
async function listExecutions(baseUrl, apiKey, workflowId, { includeData = false } = {}) {
	/** @type {any[]} */
	const all = [];
	/** @type {string | undefined} */
	let cursor;
	do {
		const query = new URLSearchParams({ workflowId, limit: '250', includeData: String(includeData) });
		if (cursor) query.set('cursor', cursor);
		const page = await publicApiCall(baseUrl, apiKey, 'GET', `/executions?${query}`);
		all.push(...page.data.map(withStatus));
		cursor = page.nextCursor;
	} while (cursor);
	return all;
}

/**
 * Executions are saved shortly after a webhook answers: polls until at least `atLeast` exist and
 * each has ended with its run data stored, or the time is up, and returns what is there then.
 * @param {string} baseUrl
 * @param {string} apiKey
 * @param {string} workflowId
 * @param {{ atLeast?: number, timeoutMs?: number }} [options]
 */
async function waitForExecutions(baseUrl, apiKey, workflowId, { atLeast = 1, timeoutMs = 30_000 } = {}) {
	const started = Date.now();
	for (;;) {
		const found = await listExecutions(baseUrl, apiKey, workflowId, { includeData: true });
		const settled = found.every(endedWithRunData);
		if ((found.length >= atLeast && settled) || Date.now() - started > timeoutMs) return found;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/**
 * The Production URLs of the Video Platform Triggers in active workflows, with the workflows' names.
 * @param {string} baseUrl
 * @returns {Promise<{ name: string, url: string }[]>}
 */
async function activeTriggerUrls(baseUrl) {
	const cookie = await ensureOwner(baseUrl);
	const { data } = await rest(baseUrl, '/rest/workflows', { cookie });
	/** @type {{ name: string, url: string }[]} */
	const found = [];
	for (const { id, name, active } of data.data ?? data) {
		if (!active) continue;
		const full = (await rest(baseUrl, `/rest/workflows/${id}`, { cookie })).data;
		for (const url of triggerUrls(baseUrl, full.data ?? full)) found.push({ name, url });
	}
	return found;
}

/**
 * Turns on n8n's own MCP server (Settings → Instance-level MCP, n8n 2.x) and returns a fresh token for it
 * (a new one each call: n8n shows an existing token only redacted).
 * @param {string} baseUrl
 * @param {string} cookie  the owner's session
 * @returns {Promise<string>}
 */
async function instanceMcpToken(baseUrl, cookie) {
	await rest(baseUrl, '/rest/mcp/settings', { method: 'PATCH', cookie, body: { mcpAccessEnabled: true } });
	const { data } = await rest(baseUrl, '/rest/mcp/api-key/rotate', { method: 'POST', cookie });
	return (data.data ?? data).apiKey;
}

/**
 * n8n's own report of what its next major changes for this instance (2.x: Settings → Migration
 * report). Without `version`, n8n reports on 2.0; per rule it gives only a count of workflows.
 * @param {string} baseUrl
 * @param {'v2' | 'v3'} version
 * @returns {Promise<{ targetVersion: string, instanceResults: any[], workflowResults: any[] }>}
 */
async function breakingChangesReport(baseUrl, version) {
	const cookie = await ensureOwner(baseUrl);
	const { data } = await rest(baseUrl, `/rest/breaking-changes/report?version=${version}`, { cookie });
	return (data.data ?? data).report;
}

/**
 * One rule of that report in full: for a workflow rule, the affected workflows (id, name, issues).
 * n8n answers 404 for a rule that affects nothing.
 * @param {string} baseUrl
 * @param {string} ruleId
 * @returns {Promise<{ ruleId: string, affectedWorkflows?: { id: string, name: string, issues: unknown[] }[], instanceIssues?: unknown[] }>}
 */
async function breakingChangesRule(baseUrl, ruleId) {
	const cookie = await ensureOwner(baseUrl);
	const { data } = await rest(baseUrl, `/rest/breaking-changes/report/${encodeURIComponent(ruleId)}`, { cookie });
	return data.data ?? data;
}

module.exports = {
	endedWithRunData,
	OWNER,
	rest,
	ensureOwner,
	activeTriggerUrls,
	breakingChangesReport,
	breakingChangesRule,
	createApiKey,
	instanceMcpToken,
	listExecutions,
	publicApiCall,
	waitForExecutions,
	withStatus,
};

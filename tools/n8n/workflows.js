'use strict';
// Builders for workflow and credential JSON that n8n 1.x and 2.x both import. Shared by the
// end-to-end tests, the examples check, `npm start` and the benchmark.

const PACKAGE = 'n8n-nodes-videoplatform';
const VIDEO_PLATFORM = `${PACKAGE}.videoPlatform`;
const VIDEO_PLATFORM_TRIGGER = `${PACKAGE}.videoPlatformTrigger`;
// n8n registers a `usableAsTool` node a second time under this name, for AI connections.
const VIDEO_PLATFORM_TOOL = `${VIDEO_PLATFORM}Tool`;
const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';

/**
 * @typedef {object} WorkflowNode
 * @property {string} id
 * @property {string} name
 * @property {string} type
 * @property {number} typeVersion
 * @property {number[]} position
 * @property {Record<string, any>} parameters
 * @property {string} [webhookId]
 * @property {boolean} [disabled]
 * @property {Record<string, { id: string, name: string }>} [credentials]
 * @property {string} [onError]
 * @typedef {Record<string, { [connectionType: string]: { node: string, type: string, index: number }[][] }>} Connections
 * @typedef {{ id: string, name: string, active: boolean, settings: Record<string, unknown>, nodes: WorkflowNode[], connections: Connections }} Workflow
 * @typedef {{ nodes: { type: string, webhookId?: string, disabled?: boolean, parameters?: Record<string, any> }[] }} HasNodes  any workflow JSON, built here or loaded
 * @typedef {{ id: string, name: string, type: string, data: Record<string, unknown> }} Credential
 */

/**
 * @param {string} name
 * @param {string} type
 * @param {Record<string, any>} parameters
 * @param {object} [extra]  more node fields (typeVersion, webhookId, credentials, onError...)
 * @returns {WorkflowNode}
 */
function node(name, type, parameters, extra = {}) {
	return { id: name.replace(/\W/g, '-'), name, type, typeVersion: 1, position: [0, 0], parameters, ...extra };
}

const credentialRef = (/** @type {string} */ id) => ({ videoPlatformApi: { id, name: id } });

/**
 * @param {string} id
 * @param {string} baseUrl
 * @param {string} apiKey
 * @returns {Credential & { data: { baseUrl: string, apiKey: string } }}
 */
function credential(id, baseUrl, apiKey) {
	return { id, name: id, type: 'videoPlatformApi', data: { baseUrl, apiKey } };
}

/**
 * Chains nodes left to right; the first of each chain is its start. Positions are laid out.
 * @param {string} id
 * @param {...WorkflowNode[]} chains
 * @returns {Workflow}
 */
function workflow(id, ...chains) {
	/** @type {Map<string, WorkflowNode>} */
	const nodes = new Map();
	/** @type {Connections} */
	const connections = {};
	chains.forEach((chain, row) => {
		chain.forEach((current, column) => {
			if (!nodes.has(current.name)) nodes.set(current.name, { ...current, position: [column * 240, row * 200] });
			const next = chain[column + 1];
			if (!next) return;
			connections[current.name] ??= { main: [[]] };
			connections[current.name].main[0].push({ node: next.name, type: 'main', index: 0 });
		});
	});
	return { id, name: id, active: false, settings: {}, nodes: [...nodes.values()], connections };
}

const manualTrigger = () => node('Start', 'n8n-nodes-base.manualTrigger', {});

/** n8n's Webhook node on POST /webhook/<path>, answering as soon as the run is queued or started. */
const webhookTrigger = (/** @type {string} */ path, /** @type {string} */ webhookId) =>
	node('Webhook', 'n8n-nodes-base.webhook', { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} }, { typeVersion: 2, webhookId });

/**
 * Items from a literal list, through nodes that exist in n8n 1.x and 2.x alike.
 * @param {string} prefix
 * @param {unknown[]} rows
 */
function itemsFrom(prefix, rows) {
	return [
		node(`${prefix} list`, 'n8n-nodes-base.set', { mode: 'raw', jsonOutput: JSON.stringify({ rows }) }, { typeVersion: 3.4 }),
		node(`${prefix} items`, 'n8n-nodes-base.splitOut', { fieldToSplitOut: 'rows' }),
	];
}

/**
 * Video Platform → Room → Create, named after `$json.name`.
 * @param {string} name
 * @param {string} credentialId
 * @param {object} [extra]  more node fields
 * @param {object} [options]  the node's options
 */
function createRoom(name, credentialId, extra = {}, options = {}) {
	return node(
		name,
		VIDEO_PLATFORM,
		{
			resource: 'room',
			operation: 'create',
			name: '={{ $json.name }}',
			type: '={{ $json.type ?? "conference" }}',
			options,
		},
		{ credentials: credentialRef(credentialId), ...extra },
	);
}

/**
 * Video Platform → Webhook Delivery → Drop Redelivered, for right after the trigger. Its fields are
 * the former Redelivery Filter's (deliveryKey, keysRemembered, scope); it needs no credential.
 * @param {string} name
 * @param {object} [parameters]
 */
function dropRedelivered(name, parameters = {}) {
	return node(name, VIDEO_PLATFORM, { resource: 'webhookDelivery', operation: 'dropRedelivered', ...parameters });
}

/**
 * n8n's own Remove Duplicates (v2), "Remove Items Processed in Previous Executions", keyed as Drop
 * Redelivered is by default: the same check in n8n's database, for comparisons.
 * @param {string} name
 * @param {number} historySize
 */
function removeDuplicates(name, historySize) {
	return node(
		name,
		'n8n-nodes-base.removeDuplicates',
		{
			operation: 'removeItemsSeenInPreviousExecutions',
			logic: 'removeItemsWithAlreadySeenKeyValues',
			dedupeValue: '={{ $json._webhook.deliveryKey }}',
			options: { historySize },
		},
		{ typeVersion: 2 },
	);
}

/**
 * The HTTP Request node using this package's credential as a predefined credential type.
 * @param {string} name
 * @param {string} credentialId
 * @param {object} parameters
 * @param {object} [extra]
 */
function httpRequestWithCredential(name, credentialId, parameters, extra = {}) {
	return node(
		name,
		'n8n-nodes-base.httpRequest',
		{ authentication: 'predefinedCredentialType', nodeCredentialType: 'videoPlatformApi', ...parameters },
		{ typeVersion: 4.2, credentials: credentialRef(credentialId), ...extra },
	);
}

/**
 * The Production URLs of a workflow's Video Platform Triggers. n8n builds them from the node's
 * webhook id and the trigger's fixed webhook path, "webhook".
 * @param {string} baseUrl
 * @param {HasNodes} workflow
 * @returns {string[]}
 */
function triggerUrls(baseUrl, { nodes }) {
	return nodes
		.filter((n) => n.type === VIDEO_PLATFORM_TRIGGER && n.webhookId && !n.disabled)
		.map((n) => `${baseUrl}/webhook/${n.webhookId}/webhook`);
}

/**
 * An MCP Server Trigger (version 2: streamable HTTP and SSE on one path) whose tools are the
 * given tool nodes, its endpoint guarded by a Bearer credential.
 * @param {string} id
 * @param {{ path: string, bearerCredentialId: string }} endpoint
 * @param {(Record<string, unknown> & { name: string })[]} tools  tool nodes, as built here or loaded from an example
 * @returns {Workflow}
 */
function mcpServerWorkflow(id, { path, bearerCredentialId }, tools) {
	const trigger = node(
		'MCP Server Trigger',
		MCP_TRIGGER,
		{ authentication: 'bearerAuth', path },
		{ typeVersion: 2, webhookId: `${id}-mcp`, credentials: { httpBearerAuth: { id: bearerCredentialId, name: bearerCredentialId } } },
	);
	/** @type {Connections} */
	const connections = {};
	tools.forEach((tool, index) => {
		tool.position = [index * 240, 220];
		connections[tool.name] = { ai_tool: [[{ node: trigger.name, type: 'ai_tool', index: 0 }]] };
	});
	return { id, name: id, active: false, settings: {}, nodes: /** @type {WorkflowNode[]} */ ([trigger, ...tools]), connections };
}

/**
 * The production address MCP clients connect to, for each MCP Server Trigger of a workflow.
 * @param {string} baseUrl
 * @param {HasNodes} workflow
 * @returns {string[]}
 */
function mcpUrls(baseUrl, { nodes }) {
	return nodes.filter((n) => n.type === MCP_TRIGGER && !n.disabled).map((n) => `${baseUrl}/mcp/${n.parameters?.path}`);
}

/**
 * The items a node put out in its first run, as n8n recorded them.
 * @param {any} run  an execution with its data, or `n8n execute`'s run data
 * @param {string} nodeName
 * @returns {any[]}
 */
function outputOf(run, nodeName) {
	const runs = run.data.resultData.runData[nodeName];
	if (!runs) throw new Error(`Node "${nodeName}" did not run`);
	return runs[0].data?.main[0] ?? [];
}

/**
 * Why a run failed, in the words n8n stored: the run's own error and each node's, then the end of
 * what the CLI printed. What an end-to-end test prints when a run it expected to succeed did not.
 * @param {{ run?: any, ended?: string, stdout: string, stderr: string }} result  what N8n.execute returned
 * @returns {string}
 */
function whyRunFailed({ run, ended, stdout, stderr }) {
	const resultData = run?.data?.resultData;
	const said = (/** @type {any} */ error) => [error.message, error.description].filter(Boolean).join(' | ');
	const lines = resultData?.error ? [`run error: ${said(resultData.error)}`] : ['run error: none stored'];
	for (const [node, runs] of Object.entries(resultData?.runData ?? {})) {
		for (const taskData of /** @type {any[]} */ (runs)) if (taskData.error) lines.push(`node "${node}": ${said(taskData.error)}`);
	}
	if (!run) lines.push('no run data was printed');
	if (ended) lines.push(`n8n execute ${ended}`);
	const tail = (/** @type {string} */ text) => text.trim().split('\n').slice(-15).join('\n');
	return [...lines, '--- stdout (end) ---', tail(stdout), '--- stderr (end) ---', tail(stderr)].join('\n');
}

/**
 * How long a node took in its first run, in ms, as n8n measured it.
 * @param {any} run
 * @param {string} nodeName
 * @returns {number}
 */
function executionTimeOf(run, nodeName) {
	return run.data.resultData.runData[nodeName][0].executionTime;
}

/**
 * When a node's first run started and ended (epoch ms), as n8n recorded it.
 * @param {any} run
 * @param {string} nodeName
 * @returns {[number, number]}
 */
function runWindowOf(run, nodeName) {
	const { startTime, executionTime } = run.data.resultData.runData[nodeName][0];
	return [startTime, startTime + executionTime];
}

module.exports = {
	whyRunFailed,
	PACKAGE,
	VIDEO_PLATFORM,
	VIDEO_PLATFORM_TRIGGER,
	VIDEO_PLATFORM_TOOL,
	MCP_TRIGGER,
	node,
	credential,
	credentialRef,
	workflow,
	manualTrigger,
	webhookTrigger,
	itemsFrom,
	createRoom,
	dropRedelivered,
	removeDuplicates,
	httpRequestWithCredential,
	triggerUrls,
	mcpServerWorkflow,
	mcpUrls,
	outputOf,
	executionTimeOf,
	runWindowOf,
};

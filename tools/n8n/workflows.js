'use strict';
// Builders for workflow and credential JSON that n8n 1.x and 2.x both import. Shared by the
// end-to-end tests, the examples check, `npm start` and the benchmark.

const PACKAGE = 'n8n-nodes-videoplatform';
const VIDEO_PLATFORM = `${PACKAGE}.videoPlatform`;
const VIDEO_PLATFORM_TRIGGER = `${PACKAGE}.videoPlatformTrigger`;
// n8n registers a `usableAsTool` node a second time under this name, for AI connections.
const VIDEO_PLATFORM_TOOL = `${VIDEO_PLATFORM}Tool`;
const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';

function node(name, type, parameters, extra = {}) {
	return { id: name.replace(/\W/g, '-'), name, type, typeVersion: 1, position: [0, 0], parameters, ...extra };
}

const credentialRef = (id) => ({ videoPlatformApi: { id, name: id } });

function credential(id, baseUrl, apiKey) {
	return { id, name: id, type: 'videoPlatformApi', data: { baseUrl, apiKey } };
}

/** Chains nodes left to right; the first of each chain is its start. Positions are laid out. */
function workflow(id, ...chains) {
	const nodes = new Map();
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
const webhookTrigger = (path, webhookId) =>
	node('Webhook', 'n8n-nodes-base.webhook', { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} }, { typeVersion: 2, webhookId });

/** Items from a literal list, through nodes that exist in n8n 1.x and 2.x alike. */
function itemsFrom(prefix, rows) {
	return [
		node(`${prefix} list`, 'n8n-nodes-base.set', { mode: 'raw', jsonOutput: JSON.stringify({ rows }) }, { typeVersion: 3.4 }),
		node(`${prefix} items`, 'n8n-nodes-base.splitOut', { fieldToSplitOut: 'rows' }),
	];
}

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
 */
function dropRedelivered(name, parameters = {}) {
	return node(name, VIDEO_PLATFORM, { resource: 'webhookDelivery', operation: 'dropRedelivered', ...parameters });
}

/** The HTTP Request node using this package's credential as a predefined credential type. */
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
 */
function triggerUrls(baseUrl, { nodes }) {
	return nodes
		.filter((n) => n.type === VIDEO_PLATFORM_TRIGGER && n.webhookId && !n.disabled)
		.map((n) => `${baseUrl}/webhook/${n.webhookId}/webhook`);
}

/**
 * An MCP Server Trigger (version 2: streamable HTTP and SSE on one path) whose tools are the
 * given tool nodes, its endpoint guarded by a Bearer credential.
 */
function mcpServerWorkflow(id, { path, bearerCredentialId }, tools) {
	const trigger = node(
		'MCP Server Trigger',
		MCP_TRIGGER,
		{ authentication: 'bearerAuth', path },
		{ typeVersion: 2, webhookId: `${id}-mcp`, credentials: { httpBearerAuth: { id: bearerCredentialId, name: bearerCredentialId } } },
	);
	const connections = {};
	tools.forEach((tool, index) => {
		tool.position = [index * 240, 220];
		connections[tool.name] = { ai_tool: [[{ node: trigger.name, type: 'ai_tool', index: 0 }]] };
	});
	return { id, name: id, active: false, settings: {}, nodes: [trigger, ...tools], connections };
}

/** The production address MCP clients connect to, for each MCP Server Trigger of a workflow. */
function mcpUrls(baseUrl, { nodes }) {
	return nodes.filter((n) => n.type === MCP_TRIGGER && !n.disabled).map((n) => `${baseUrl}/mcp/${n.parameters.path}`);
}

/** The items a node put out in its first run, as n8n recorded them. */
function outputOf(run, nodeName) {
	const runs = run.data.resultData.runData[nodeName];
	if (!runs) throw new Error(`Node "${nodeName}" did not run`);
	return runs[0].data?.main[0] ?? [];
}

/** How long a node took in its first run, in ms, as n8n measured it. */
function executionTimeOf(run, nodeName) {
	return run.data.resultData.runData[nodeName][0].executionTime;
}

module.exports = {
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
	httpRequestWithCredential,
	triggerUrls,
	mcpServerWorkflow,
	mcpUrls,
	outputOf,
	executionTimeOf,
};

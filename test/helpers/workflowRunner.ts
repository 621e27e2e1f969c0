import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { Credentials, DataDeduplicationService, ExecutionLifecycleHooks, WebhookContext, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypes,
	INodeTypeDescription,
	IPinData,
	IRun,
	IWebhookData,
	ITaskData,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, ICredentialsHelper, NodeConnectionTypes, Workflow } from 'n8n-workflow';

import { VideoPlatformApi } from '../../credentials/VideoPlatformApi.credentials';
import { VideoPlatformWebhookApi } from '../../credentials/VideoPlatformWebhookApi.credentials';
import { VideoPlatform } from '../../nodes/VideoPlatform/VideoPlatform.node';
import { VideoPlatformTrigger } from '../../nodes/VideoPlatform/VideoPlatformTrigger.node';
import { MemoryDeduplicator } from './memoryDeduplicator';
import { recordingResponse } from './webhookContext';

// Runs whole workflows through n8n-core's own engine (WorkflowExecute), in the test process, the
// way n8n's node test harness (packages/core/nodes-testing) does: the package's node classes from
// source, its credential classes, n8n-core's real request helpers, Continue On Fail, pairedItem
// and cancel signal. What n8n's server would add (its database, the credential store, the
// webhook server, n8n-nodes-base) is replaced by the small stand-ins below.

/** The package's node types under the names n8n gives a community package's nodes. */
const PACKAGE = 'n8n-nodes-videoplatform';
export const NODE_TYPES = {
	videoPlatform: `${PACKAGE}.videoPlatform`,
	videoPlatformTrigger: `${PACKAGE}.videoPlatformTrigger`,
	manualTrigger: 'n8n-nodes-base.manualTrigger',
} as const;

/**
 * Stands in for n8n-nodes-base's Manual Trigger (not installed here): it starts the workflow with
 * one empty item, as n8n's does; pin data on it (as in the editor) gives the workflow its items.
 */
class ManualTriggerStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Manual Trigger (stand-in)',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Starts the workflow with one empty item',
		defaults: { name: 'When clicking ‘Execute workflow’' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [[{ json: {} }]];
	}
}

class PackageNodeTypes implements INodeTypes {
	private readonly types: Record<string, INodeType> = {
		[NODE_TYPES.videoPlatform]: new VideoPlatform(),
		[NODE_TYPES.videoPlatformTrigger]: new VideoPlatformTrigger(),
		[NODE_TYPES.manualTrigger]: new ManualTriggerStandIn(),
	};

	getByName(type: string): INodeType {
		const found = this.types[type];
		if (!found) throw new Error(`The workflow runner knows no node type "${type}"; it has ${Object.keys(this.types).join(', ')}`);
		return found;
	}

	getByNameAndVersion(type: string, version?: number): INodeType {
		const found = this.getByName(type);
		const versions = [found.description.version].flat();
		if (version !== undefined && !versions.includes(version)) {
			throw new Error(`The node type "${type}" has no version ${version} (it has ${versions.join(', ')})`);
		}
		return found;
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

const CREDENTIAL_TYPES: Record<string, ICredentialType> = Object.fromEntries(
	[new VideoPlatformApi(), new VideoPlatformWebhookApi()].map((type) => [type.name, type]),
);

/** A credential as n8n stores it, decrypted: its id is what a node's `credentials` names. */
export interface StoredCredential {
	type: string;
	data: ICredentialDataDecryptedObject;
}

/**
 * n8n's credential store and credential helper for a run: credentials by id, authenticated with
 * the credential class's own `authenticate` as n8n's CredentialsHelper does for a function.
 */
class StoredCredentialsHelper extends ICredentialsHelper {
	/** Every credential read the engine made, by id. */
	readonly reads: string[] = [];

	constructor(private readonly stored: Record<string, StoredCredential>) {
		super();
	}

	private typeOf(name: string): ICredentialType {
		const type = CREDENTIAL_TYPES[name];
		if (!type) throw new Error(`The workflow runner knows no credential type "${name}"`);
		return type;
	}

	getParentTypes(name: string): string[] {
		const parents = this.typeOf(name).extends ?? [];
		return [...parents, ...parents.flatMap((parent) => (CREDENTIAL_TYPES[parent] ? this.getParentTypes(parent) : []))];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.typeOf(typeName);
		if (authenticate === undefined) return requestOptions;
		if (typeof authenticate !== 'function') {
			throw new Error(`"${typeName}" authenticates with a generic expression, which this runner does not resolve`);
		}
		return await authenticate(credentials, requestOptions);
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(details: INodeCredentialsDetails, type: string): Promise<Credentials> {
		return new Credentials(details, type);
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		details: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const credential = details.id === null ? undefined : this.stored[details.id];
		if (!credential || credential.type !== type) {
			throw new Error(`Credential with ID "${details.id}" does not exist for type "${type}".`);
		}
		this.reads.push(details.id!);
		return { ...credential.data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.typeOf(type).properties;
	}
}

/** A workflow as n8n exports it (the editor's "Download"), with its pin data. */
export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: INode[];
	connections: IConnections;
	settings?: IWorkflowSettings;
	pinData?: IPinData;
	staticData?: IDataObject;
}

const FIXTURES = path.join(__dirname, '..', 'workflows');

// n8n-core's node contexts read InstanceSettings, which keeps an encryption key in the user
// folder's .n8n/config: a scratch folder of this repository's, never the home folder.
process.env.N8N_USER_FOLDER ??= path.join(__dirname, '..', '..', '.scratch', 'workflow-runner');
// n8n's logger prints every node error; the tests read them from the run data instead.
process.env.N8N_LOG_LEVEL ??= 'silent';

/** Reads `test/workflows/<name>.json`; a fresh copy each time, since a run may change it. */
export function loadWorkflow(name: string): WorkflowJson {
	return JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as WorkflowJson;
}

/** n8n's deduplication database for this test process: DataDeduplicationService takes one, once. */
let deduplicator: MemoryDeduplicator | undefined;
export async function deduplicationStore(): Promise<MemoryDeduplicator> {
	if (!deduplicator) {
		deduplicator = new MemoryDeduplicator();
		await DataDeduplicationService.init(deduplicator);
	}
	return deduplicator;
}

export interface RunOptions {
	/** By id, as the nodes' `credentials` name them. */
	credentials?: Record<string, StoredCredential>;
	/** The node to start at; by default the workflow's only node without an input. */
	startNode?: string;
	/** The start node's input, e.g. what a trigger put out; by default one empty item. */
	startItems?: INodeExecutionData[];
	/** As n8n sets it: `manual` from the editor, `webhook` for a delivery, `trigger` for a trigger. */
	mode?: WorkflowExecuteMode;
	/** Aborts the run as n8n's Stop button does (it cancels the execution). */
	stopSignal?: AbortSignal;
}

export interface WorkflowRun {
	/** What n8n saves for the execution: handed over by the `workflowExecuteAfter` hook. */
	run: IRun;
	/** Node names in the order the engine finished them. */
	order: string[];
	/** The workflow's static data as the engine left it, to pass to a later run. */
	staticData: IDataObject;
	/** Credential ids the engine read, once per read. */
	credentialReads: string[];
	/** The node's first run's first output, or undefined if it did not run. */
	output(nodeName: string): INodeExecutionData[] | undefined;
	/** The node's first run. */
	task(nodeName: string): ITaskData | undefined;
	/**
	 * The node's first run once its execute has returned or thrown. After a stop n8n saves the
	 * run at once, while the node ends in the background; the engine still records how it ended.
	 */
	settledTask(nodeName: string, timeoutMs?: number): Promise<ITaskData | undefined>;
}

let executionCounter = 0;

function startNodeOf(workflow: Workflow, json: WorkflowJson, name?: string): INode {
	if (name) {
		const node = workflow.getNode(name);
		if (!node) throw new Error(`The workflow has no node "${name}"`);
		return node;
	}
	const destinations = new Set(
		Object.values(json.connections).flatMap((outputs) =>
			Object.values(outputs).flatMap((byIndex) => (byIndex ?? []).flatMap((list) => (list ?? []).map((c) => c.node))),
		),
	);
	const starts = json.nodes.filter((node) => !destinations.has(node.name) && !node.disabled);
	if (starts.length !== 1) throw new Error(`Name the start node: the workflow has ${starts.length} nodes without an input`);
	return workflow.getNode(starts[0].name)!;
}

const BASE = 'http://127.0.0.1:5678';

/** One execution's Workflow, hooks and additionalData, as n8n's server prepares them. */
function prepareExecution(json: WorkflowJson, mode: WorkflowExecuteMode, credentials: Record<string, StoredCredential>) {
	const executionId = String(++executionCounter);
	const workflow = new Workflow({
		id: json.id ?? 'workflow-under-test',
		name: json.name,
		nodes: json.nodes,
		connections: json.connections,
		active: mode !== 'manual',
		nodeTypes: new PackageNodeTypes(),
		settings: { executionOrder: 'v1', ...json.settings },
		staticData: json.staticData,
	});
	const credentialsHelper = new StoredCredentialsHelper(credentials);
	const workflowData = { ...json, id: workflow.id, active: workflow.active, isArchived: false, activeVersionId: null, createdAt: new Date(), updatedAt: new Date() };
	const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
	const additionalData = {
		credentialsHelper,
		hooks,
		executionId,
		workflowId: workflow.id,
		currentNodeExecutionIndex: 0,
		variables: {},
		restApiUrl: `${BASE}/rest`,
		instanceBaseUrl: `${BASE}/`,
		formBaseUrl: `${BASE}/form`,
		formWaitingBaseUrl: `${BASE}/form-waiting`,
		formTestBaseUrl: `${BASE}/form-test`,
		webhookBaseUrl: `${BASE}/webhook`,
		webhookWaitingBaseUrl: `${BASE}/webhook-waiting`,
		webhookTestBaseUrl: `${BASE}/webhook-test`,
		mcpBaseUrl: `${BASE}/mcp`,
		mcpTestBaseUrl: `${BASE}/mcp-test`,
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not part of the workflow runner');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
	} as unknown as IWorkflowExecuteAdditionalData;
	return { workflow, hooks, additionalData, credentialsHelper };
}

/**
 * Runs a workflow to its end through n8n-core's WorkflowExecute and returns its run data, as
 * n8n's `workflowExecuteAfter` hook hands it over. A stopped run returns what n8n saves for it.
 */
export async function runWorkflow(json: WorkflowJson, options: RunOptions = {}): Promise<WorkflowRun> {
	await deduplicationStore();
	const mode = options.mode ?? 'manual';
	const { workflow, hooks, additionalData, credentialsHelper } = prepareExecution(json, mode, options.credentials ?? {});
	const order: string[] = [];
	hooks.addHandler('nodeExecuteAfter', (nodeName) => {
		order.push(nodeName);
	});
	const ended = new Promise<IRun>((resolve) => hooks.addHandler('workflowExecuteAfter', (run) => resolve(run)));

	const startNode = startNodeOf(workflow, json, options.startNode);
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: startNode, data: { main: [options.startItems ?? [{ json: {} }]] }, source: null }],
		},
		resultData: { runData: {}, pinData: json.pinData },
	});
	const execution = new WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(workflow);
	// A cancelled execution never settles this promise; n8n, too, waits for the hook instead.
	execution.catch(() => undefined);
	const stop = () => execution.cancel();
	options.stopSignal?.addEventListener('abort', stop, { once: true });
	if (options.stopSignal?.aborted) stop();
	try {
		const run = await ended;
		const runData = () => runExecutionData.resultData.runData;
		return {
			run,
			order,
			staticData: workflow.staticData,
			credentialReads: credentialsHelper.reads,
			task: (nodeName) => run.data.resultData.runData[nodeName]?.[0],
			output: (nodeName) => run.data.resultData.runData[nodeName]?.[0]?.data?.main?.[0] ?? undefined,
			settledTask: async (nodeName, timeoutMs = 5_000) => {
				for (const deadline = Date.now() + timeoutMs; !runData()[nodeName]?.[0] && Date.now() < deadline; ) {
					await new Promise((resolve) => setTimeout(resolve, 10));
				}
				return runData()[nodeName]?.[0];
			},
		};
	} finally {
		options.stopSignal?.removeEventListener('abort', stop);
	}
}

/** A webhook delivery as the trigger sees it: n8n has parsed the JSON and kept the raw bytes. */
export interface Delivery {
	/** Sent as these exact bytes; parsed as JSON for the body when it is JSON. */
	bytes: string;
	headers?: Record<string, string>;
	query?: Record<string, string>;
}

export interface DeliveryResult {
	/** What n8n answers the platform: the node's own answer, or what the node sent itself. */
	answer: { status: number; body: unknown };
	/** The execution the delivery started, if any. */
	execution?: WorkflowRun;
}

/**
 * Delivers one webhook the way n8n's webhook server does for an active workflow: the trigger's
 * webhook() runs in n8n-core's WebhookContext on the request, and what it returns as
 * workflowData starts an execution at the trigger (mode "webhook").
 */
export async function deliverWebhook(
	json: WorkflowJson,
	delivery: Delivery,
	options: Omit<RunOptions, 'startItems' | 'mode'> = {},
): Promise<DeliveryResult> {
	const triggerNode = json.nodes.find((node) => node.type === NODE_TYPES.videoPlatformTrigger);
	if (!triggerNode) throw new Error('The workflow has no Video Platform Trigger');
	const { workflow, additionalData } = prepareExecution(json, 'webhook', options.credentials ?? {});
	const node = workflow.getNode(triggerNode.name)!;
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const [webhookDescription] = nodeType.description.webhooks ?? [];

	let parsed: unknown = {};
	try {
		parsed = JSON.parse(delivery.bytes);
	} catch {
		// n8n hands the node an empty body when the JSON does not parse; the raw bytes stay.
	}
	const sent: { status: number; body?: unknown } = { status: 200 };
	const response = recordingResponse(sent);
	additionalData.httpRequest = {
		body: parsed,
		rawBody: Buffer.from(delivery.bytes),
		headers: Object.fromEntries(Object.entries({ 'content-type': 'application/json', ...delivery.headers }).map(([k, v]) => [k.toLowerCase(), v])),
		query: delivery.query ?? {},
		params: {},
	} as unknown as IWorkflowExecuteAdditionalData['httpRequest'];
	additionalData.httpResponse = response as unknown as IWorkflowExecuteAdditionalData['httpResponse'];
	const webhookData = {
		httpMethod: 'POST',
		node: node.name,
		path: webhookDescription?.path ?? '',
		webhookDescription,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
		webhookId: node.webhookId,
	} as IWebhookData;
	const context = new WebhookContext(workflow, node, additionalData, 'webhook', webhookData, [], null);
	const answered = await nodeType.webhook!.call(context);

	if (answered.noWebhookResponse) return { answer: { status: sent.status, body: sent.body } };
	const answer = { status: 200, body: answered.webhookResponse };
	const items = answered.workflowData?.[0];
	if (!items) return { answer };
	const execution = await runWorkflow(json, { ...options, mode: 'webhook', startNode: node.name, startItems: items });
	return { answer, execution };
}

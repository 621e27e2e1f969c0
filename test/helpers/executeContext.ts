import { Container } from '@n8n/di';
import { OutboundHttp } from '@n8n/backend-network';
import type {
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	NodeExecutionHint,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { authenticated } from './authenticate';
import type { DeduplicationStore } from './deduplicationContext';

export const testNode: INode = {
	id: 'node-1',
	name: 'Video Platform',
	type: 'n8n-nodes-videoplatform.videoPlatform',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

export interface Credentials {
	baseUrl: string;
	apiKey: string;
}

export type HttpHandler = (requestOptions: IHttpRequestOptions, decrypted?: object) => Promise<unknown>;

/**
 * n8n-core's real HTTP client, with the credential's header applied as n8n applies it, and errors wrapped as n8n-core wraps them.
 * `{ useDefaultSsrfPolicy: 'enforced' }` gives the client as n8n runs it with N8N_SSRF_PROTECTION_ENABLED=true.
 */
export function realHttp(credentials: Credentials, clientOptions?: Parameters<OutboundHttp['requests']>[0]): HttpHandler {
	const client = Container.get(OutboundHttp).requests(clientOptions);
	return async (requestOptions, decrypted) => {
		// As n8n-core does: the credential handed over by the node wins over a fresh read.
		const source = decrypted ?? credentials;
		try {
			return await client.request(await authenticated(source, requestOptions));
		} catch (error) {
			throw new NodeApiError(testNode, error as never);
		}
	};
}

export interface ContextOptions {
	credentials: Credentials;
	/** The node's parameters, nested as n8n stores them; a function value gets the item index. */
	parameters?: Record<string, unknown>;
	items?: INodeExecutionData[];
	continueOnFail?: boolean;
	http?: HttpHandler;
	/** n8n's execution cancel signal, which aborts when the user stops the execution. */
	cancelSignal?: AbortSignal;
	/** n8n's database of remembered keys (deduplicationContext.ts), for Create Once Per Key. */
	store?: DeduplicationStore;
	/** The node the run is of; its id names its list of keys. */
	node?: INode;
}

/** As n8n reads a parameter: a dotted name is a path into the parameters, like `options.x`. */
function parameterAt(parameters: Record<string, unknown>, name: string): unknown {
	let value: unknown = parameters;
	for (const key of name.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as Record<string, unknown>)[key];
	}
	return value;
}

export type ExecuteContext = IExecuteFunctions & {
	credentialReads: { count: number };
	/** What the node added with addExecutionHints. */
	hints: NodeExecutionHint[];
};

export function createExecuteContext(options: ContextOptions): ExecuteContext {
	const http = options.http ?? realHttp(options.credentials);
	const parameters: Record<string, unknown> = {
		resource: 'room',
		operation: 'create',
		...options.parameters,
	};
	const credentialReads = { count: 0 };
	const hints: NodeExecutionHint[] = [];
	const context = {
		credentialReads,
		hints,
		addExecutionHints: (...added: NodeExecutionHint[]) => hints.push(...added),
		getNode: () => options.node ?? testNode,
		getWorkflow: () => options.store?.workflow,
		getExecutionCancelSignal: () => options.cancelSignal,
		getInputData: () => options.items ?? [{ json: {} }],
		continueOnFail: () => options.continueOnFail ?? false,
		getCredentials: async () => {
			credentialReads.count++;
			return { ...options.credentials };
		},
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
			const value = parameterAt(parameters, name) ?? fallback;
			if (value === undefined) throw new Error(`Could not get parameter "${name}"`);
			return typeof value === 'function' ? (value as (i: number) => unknown)(itemIndex) : value;
		},
		helpers: {
			httpRequestWithAuthentication: async (
				_type: string,
				requestOptions: IHttpRequestOptions,
				additional?: { credentialsDecrypted?: { data?: object } },
			) => await http(requestOptions, additional?.credentialsDecrypted?.data),
			...options.store?.helpersFor(options.node ?? testNode),
		},
	};
	return context as unknown as ExecuteContext;
}

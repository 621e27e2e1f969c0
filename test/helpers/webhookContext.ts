import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

export interface WebhookContextOptions {
	body?: unknown;
	rawBody?: string;
	headers?: IDataObject;
	query?: IDataObject;
	parameters?: IDataObject;
	secret?: { headerName: string; secret: string };
	staticData?: IDataObject;
}

/** The part of Express's response a webhook node uses to answer by itself, recording the answer. */
export function recordingResponse(answered: { status?: number; body?: unknown }) {
	const response = {
		status(code: number) {
			answered.status = code;
			return response;
		},
		json(body: unknown) {
			answered.body = body;
			return response;
		},
	};
	return response;
}

/** A mocked IWebhookFunctions that records what the node answered by itself. */
export function createWebhookContext(options: WebhookContextOptions) {
	const answered: { status?: number; body?: unknown } = {};
	const response = recordingResponse(answered);
	const parameters: IDataObject = { authentication: 'none', event: '*', options: {}, ...options.parameters };
	const staticData = options.staticData ?? {};
	const context = {
		getNodeParameter: (name: string, fallback?: unknown) => parameters[name] ?? fallback,
		getCredentials: async () => {
			if (!options.secret) throw new Error('no credential set');
			return options.secret;
		},
		getHeaderData: () => ({ ...options.headers }),
		getQueryData: () => ({ ...options.query }),
		getRequestObject: () => ({
			body: options.body,
			rawBody: options.rawBody === undefined ? undefined : Buffer.from(options.rawBody),
		}),
		getResponseObject: () => response,
		getWorkflowStaticData: () => staticData,
	};
	return { context: context as unknown as IWebhookFunctions, answered, staticData };
}

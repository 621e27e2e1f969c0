import { Readable } from 'node:stream';
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

export interface WebhookContextOptions {
	body?: unknown;
	/** The raw body n8n read; without it (and without `unread`), n8n kept none, as for a multipart body. */
	rawBody?: string | Buffer;
	/** A body n8n left unread (version 1.1, a type n8n does not parse): the request's stream carries it. */
	unread?: Buffer | string;
	/** The charset n8n took from the Content-Type, as it sets `request.encoding` (lower-cased). */
	encoding?: string;
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

/** The request as n8n hands it to webhook(): a stream, read by n8n or not. */
function requestOf(options: WebhookContextOptions) {
	const headers = { ...options.headers };
	const { encoding } = options;
	if (options.unread !== undefined) return Object.assign(Readable.from([Buffer.from(options.unread)]), { headers, body: options.body, encoding });
	if (options.rawBody !== undefined) return Object.assign(Readable.from([]), { headers, body: options.body, rawBody: Buffer.from(options.rawBody), encoding });
	return { headers: { ...headers, 'content-type': 'multipart/form-data; boundary=x' }, body: options.body };
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
		getRequestObject: () => requestOf(options),
		getResponseObject: () => response,
		getWorkflowStaticData: () => staticData,
	};
	return { context: context as unknown as IWebhookFunctions, answered, staticData };
}

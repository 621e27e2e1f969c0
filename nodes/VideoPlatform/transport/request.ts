import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

/** Everything an operation says about a request: method, path after the Base URL (platform.ts) and body. */
export interface PlatformRequest {
	method: IHttpRequestMethods;
	path: string;
	body?: IDataObject;
}

/** A successful answer: parsed JSON where it is JSON, else the raw text. */
export interface PlatformResponse {
	statusCode: number;
	body: unknown;
}

/** What an operation sends its one item's requests through. */
export interface PlatformRequester {
	request(request: PlatformRequest): Promise<PlatformResponse>;
}

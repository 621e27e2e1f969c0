import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

/** One part of a request path, e.g. `rooms` or a room's ID; the transport encodes it. */
export type PathSegment = string | number;

/** What a 404 means for one request, in the node's words; without it, a 404 means a wrong Base URL. */
export interface NotFoundMeaning {
	message: string;
	description: string;
}

/** Everything an operation says about a request: method, path, body, and what a 404 means. */
export interface PlatformRequest {
	method: IHttpRequestMethods;
	/** The path after the version prefix, one segment per entry: `['rooms']`, `['rooms', id]`. */
	path: readonly PathSegment[];
	body?: IDataObject;
	/** For requests that name something, e.g. a room by its ID: the 404 that says it does not exist. */
	notFound?: NotFoundMeaning;
}

/**
 * Methods that change nothing on the server (RFC 9110 §9.2.1). Only these are sent again after a
 * server error or a lost answer: sending a POST again could create a second room.
 */
const SAFE_METHODS: ReadonlySet<IHttpRequestMethods> = new Set<IHttpRequestMethods>(['GET', 'HEAD']);

export function isSafeMethod(method: IHttpRequestMethods): boolean {
	return SAFE_METHODS.has(method);
}

/** A segment that would not name one thing: empty, or a dot segment a server may resolve away. */
function isUnusableSegment(text: string): boolean {
	return text === '' || text === '.' || text === '..';
}

/**
 * `/rooms/a%2Fb`: each segment percent-encoded, so that a `/`, `?`, `#` or `..` in a value (an ID
 * from an earlier node, say) stays inside its segment. Undefined when a segment names nothing.
 */
export function encodePath(path: readonly PathSegment[]): string | undefined {
	const texts = path.map((segment) => String(segment));
	if (texts.length === 0 || texts.some(isUnusableSegment)) return undefined;
	return texts.map((text) => `/${encodeURIComponent(text)}`).join('');
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

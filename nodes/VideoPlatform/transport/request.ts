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

/** Far longer than any ID; a longer path would make servers refuse the request line or headers. */
const MAX_SEGMENT_LENGTH = 1024;

function segmentProblem(segment: unknown): string | undefined {
	if (typeof segment === 'number' ? !Number.isFinite(segment) : typeof segment !== 'string') {
		return 'is not text or a number';
	}
	const text = String(segment);
	if (text === '' || text === '.' || text === '..') return 'is empty, "." or ".."';
	if (text.length > MAX_SEGMENT_LENGTH) return `is longer than ${MAX_SEGMENT_LENGTH} characters`;
	// A lone half of a surrogate pair (an emoji cut in two) has no UTF-8 form.
	if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)) return 'has a broken character';
	return undefined;
}

/** `/rooms/a%2Fb`: each segment percent-encoded, so a `/`, `?`, `#` or `..` stays inside it; or why one cannot be sent. */
export function encodePath(path: readonly PathSegment[]): { path: string } | { problem: string } {
	const problem = path.length === 0 ? 'is missing' : path.map(segmentProblem).find((found) => found !== undefined);
	if (problem) return { problem };
	return { path: path.map((segment) => `/${encodeURIComponent(String(segment))}`).join('') };
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

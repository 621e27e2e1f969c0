import type { IDataObject } from 'n8n-workflow';

import type { PlatformResponse } from '../transport/answer';

/**
 * The API's answer is passed through as it is when it is a JSON object. The success body is
 * not published, so anything else (empty, text, a list) is wrapped rather than dropped.
 */
export function responseToJson({ statusCode, body }: PlatformResponse): IDataObject {
	if (body !== null && typeof body === 'object' && !Array.isArray(body)) return body as IDataObject;
	return { statusCode, response: body as IDataObject['response'] };
}

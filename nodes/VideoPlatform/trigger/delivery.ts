import type { IDataObject } from 'n8n-workflow';

import { DELIVERY_INFO_KEY } from '../shared/deliveryKey';

/** Inside the details: a payload's own `_webhook` member, which the details must not lose. */
export const PAYLOAD_OWN_INFO_KEY = 'fromPayload';

export interface IncomingDelivery {
	/** What n8n's body parser made of the body, if anything. */
	parsedBody: unknown;
	/** The raw body, when n8n kept it. */
	rawBody?: Buffer | string;
	headers: IDataObject;
	query: IDataObject;
}

function rawText(raw: Buffer | string | undefined): string {
	if (raw === undefined) return '';
	return typeof raw === 'string' ? raw : raw.toString('utf8');
}

/** The payload: a JSON object as it is, anything else under `body`, never a crash. */
export function payloadOf({ parsedBody, rawBody }: IncomingDelivery): IDataObject {
	if (parsedBody && typeof parsedBody === 'object' && !Array.isArray(parsedBody) && !Buffer.isBuffer(parsedBody)) {
		if (Object.keys(parsedBody).length > 0 || rawText(rawBody).trim() === '') return parsedBody as IDataObject;
	}
	if (Array.isArray(parsedBody)) return { body: parsedBody as IDataObject[] };
	const text = rawText(rawBody) || (typeof parsedBody === 'string' ? parsedBody : '');
	try {
		const parsed: unknown = JSON.parse(text);
		if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as IDataObject;
		return { body: parsed as IDataObject['body'] };
	} catch {
		return { body: text };
	}
}

/** Reads a dot path such as `data.room.id` from a payload. */
export function valueAt(payload: IDataObject, path: string): unknown {
	let current: unknown = payload;
	for (const key of path.split('.').filter((part) => part !== '')) {
		// Only the payload's own fields: never `constructor` or anything else a plain object inherits.
		if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, key)) {
			return undefined;
		}
		current = (current as Record<string, unknown>)[key];
	}
	return current;
}

/**
 * The item a delivery starts the workflow with: the payload's fields at the top level, and the
 * request's headers and query (minus the headers named in `hidden`) and `more` under
 * DELIVERY_INFO_KEY. The payload cannot replace those details: its own member of that name
 * moves inside them.
 */
export function deliveryItem(
	delivery: IncomingDelivery,
	hidden: string[],
	receivedAt: string,
	more: IDataObject = {},
): IDataObject {
	const payload = payloadOf(delivery);
	const hiddenNames = new Set(hidden.map((name) => name.toLowerCase()));
	const headers = Object.fromEntries(
		Object.entries(delivery.headers).filter(([name]) => !hiddenNames.has(name.toLowerCase())),
	);
	const details: IDataObject = { headers, query: delivery.query, receivedAt, ...more };
	if (Object.prototype.hasOwnProperty.call(payload, DELIVERY_INFO_KEY)) {
		details[PAYLOAD_OWN_INFO_KEY] = payload[DELIVERY_INFO_KEY];
	}
	return { ...payload, [DELIVERY_INFO_KEY]: details };
}

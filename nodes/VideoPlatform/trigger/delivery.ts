import type { IDataObject } from 'n8n-workflow';

import { DELIVERY_INFO_KEY } from '../shared/deliveryKey';
import { withoutByteOrderMark } from './rawJson';

export interface IncomingDelivery {
	/** What n8n's body parser made of the body, if anything. */
	parsedBody: unknown;
	/** The raw body, when n8n kept it. */
	rawBody?: Buffer | string;
	/** The charset n8n took from the Content-Type (its `request.encoding`), lower-cased, if any. */
	encoding?: string;
	headers: IDataObject;
	query: IDataObject;
}

/**
 * The raw body's text as n8n decodes a body it parses: with Node's Buffer decoder for the charset
 * n8n took from the Content-Type, as n8n calls it (UTF-8 without one). A charset Node does not know
 * makes n8n refuse a body it parses (422), so only a body the trigger parses itself (a `+json`
 * type, for example) gets here with one: it is read as UTF-8, as before.
 */
export function bodyTextOf({ rawBody, encoding }: IncomingDelivery): string {
	if (rawBody === undefined) return '';
	if (typeof rawBody === 'string') return rawBody;
	try {
		return rawBody.toString(encoding as BufferEncoding | undefined);
	} catch {
		return rawBody.toString('utf8');
	}
}

/** The payload: a JSON object as it is, anything else under `body`, never a crash. */
export function payloadOf(delivery: IncomingDelivery): IDataObject {
	const { parsedBody } = delivery;
	const rawText = bodyTextOf(delivery);
	if (parsedBody && typeof parsedBody === 'object' && !Array.isArray(parsedBody) && !Buffer.isBuffer(parsedBody)) {
		if (Object.keys(parsedBody).length > 0 || rawText.trim() === '') return parsedBody as IDataObject;
	}
	if (Array.isArray(parsedBody)) return { body: parsedBody as IDataObject[] };
	const text = rawText || (typeof parsedBody === 'string' ? parsedBody : '');
	try {
		// As n8n 2.x parses JSON: a leading byte-order mark is not part of it.
		const parsed: unknown = JSON.parse(withoutByteOrderMark(text));
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
		// A payload's own `_webhook` member, which the details must not lose.
		details.fromPayload = payload[DELIVERY_INFO_KEY];
	}
	return { ...payload, [DELIVERY_INFO_KEY]: details };
}

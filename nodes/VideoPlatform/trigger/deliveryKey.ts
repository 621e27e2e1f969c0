import { createHash, randomUUID } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import type { DeliveryKey } from '../shared/deliveryKey';
import { UNMATCHABLE_KEY_PREFIX } from '../shared/deliveryKey';
import { valueAt } from './delivery';
import { canonicalSource, exactSourceAt } from './rawJson';

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * JSON with the keys of every object sorted, so that equal values give equal text. Recursive:
 * the trigger refuses a delivery nested deeper than MAX_NESTING_DEPTH (shared/nesting.ts)
 * before it gets here.
 */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const entries = Object.keys(value).sort();
		return `{${entries.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

function isEmpty(value: unknown): boolean {
	if (value === undefined || value === null) return true;
	if (typeof value === 'string') return value.trim() === '';
	if (Array.isArray(value)) return value.length === 0;
	if (typeof value === 'object') return Object.keys(value).length === 0;
	return false;
}

/**
 * A delivery id compared by value: its canonical JSON, so an object is never "[object Object]"
 * and `1` is not `"1"`; numbers as the raw body has them (`source`), so that two ids beyond 2^53
 * that JSON.parse rounds to one number stay two. A missing or empty id (blank text, `{}`, `[]`) is no id.
 */
export function deliveryIdOf(value: unknown, source?: string): string | undefined {
	if (isEmpty(value)) return undefined;
	return source === undefined ? canonicalJson(value) : canonicalSource(source);
}

/** The SHA-256 of the body's bytes as n8n read them; null when n8n kept no raw body. */
export function bodySha256Of(rawBody: Buffer | string | undefined): string | null {
	return rawBody === undefined ? null : sha256Hex(rawBody);
}

/**
 * The key that Webhook Delivery → Drop Redelivered after the trigger compares. Always a fixed-length
 * digest, so what n8n keeps per delivery does not grow with the id. With an id field set, the id's value;
 * without one, the raw body's digest. Prefixes keep the two kinds apart. A delivery that has
 * neither gets a random key that matches nothing, so it is never dropped.
 */
export function deliveryKeyOf(
	payload: IDataObject,
	idField: string,
	bodySha256: string | null,
	rawJson?: string,
): DeliveryKey & { deliveryId?: string } {
	const field = idField.trim();
	if (field !== '') {
		const value = valueAt(payload, field);
		const id = deliveryIdOf(value, exactSourceAt(rawJson, field, value));
		// The id's exact text, for users who compare it themselves: a text id as it is.
		const deliveryId = typeof value === 'string' ? value : id;
		if (id !== undefined) return { deliveryKey: `id:${sha256Hex(id)}`, deliveryKeySource: 'id', deliveryId };
	} else if (bodySha256 !== null) {
		return { deliveryKey: `body:${bodySha256}`, deliveryKeySource: 'body' };
	}
	return { deliveryKey: `${UNMATCHABLE_KEY_PREFIX}${randomUUID()}`, deliveryKeySource: 'none' };
}

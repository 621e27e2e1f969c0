import { createHash, randomUUID } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import type { DeliveryKey } from '../shared/deliveryKey';
import { UNMATCHABLE_KEY_PREFIX } from '../shared/deliveryKey';
import { valueAt } from './delivery';
import { canonicalJson } from './canonicalJson';
import { canonicalSource, exactSourceAt } from './rawJson';

export { canonicalJson };

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** Whether a value holds a number JSON.parse may have rounded: any but a whole number within ±2^53. */
function holdsInexactNumber(value: unknown): boolean {
	const pending: unknown[] = [value];
	while (pending.length > 0) {
		const next = pending.pop();
		if (typeof next === 'number' && !Number.isSafeInteger(next)) return true;
		if (next !== null && typeof next === 'object') for (const inner of Object.values(next)) pending.push(inner);
	}
	return false;
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
function deliveryIdOf(value: unknown, source?: string): string | undefined {
	if (isEmpty(value)) return undefined;
	return source === undefined ? canonicalJson(value) : canonicalSource(source);
}

/** The SHA-256 of the body's bytes as n8n read them; null when n8n kept no raw body. */
export function bodySha256Of(rawBody: Buffer | string | undefined): string | null {
	return rawBody === undefined ? null : sha256Hex(rawBody);
}

const bodyKeyOf = (bodySha256: string | null): DeliveryKey =>
	bodySha256 === null
		? { deliveryKey: `${UNMATCHABLE_KEY_PREFIX}${randomUUID()}`, deliveryKeySource: 'none' }
		: { deliveryKey: `body:${bodySha256}`, deliveryKeySource: 'body' };

/**
 * The key that Webhook Delivery → Drop Redelivered after the trigger compares. Always a fixed-length
 * digest, so what n8n keeps per delivery does not grow with the id. With an id field set, the id's value;
 * without one, the raw body's digest. Prefixes keep the two kinds apart. A delivery that has
 * neither gets a random key that matches nothing, so it is never dropped. An id holding a number
 * whose text the body does not give (`inexact`) is keyed by the body's digest instead: its parsed
 * number may be the rounding of another id's too, and two deliveries must not share a key.
 */
export function deliveryKeyOf(
	payload: IDataObject,
	idField: string,
	bodySha256: string | null,
	rawJson?: string,
): DeliveryKey & { deliveryId?: string; inexact?: true } {
	const field = idField.trim();
	if (field === '') return bodyKeyOf(bodySha256);
	const value = valueAt(payload, field);
	const source = exactSourceAt(rawJson, field, value);
	if (source === undefined && holdsInexactNumber(value)) return { ...bodyKeyOf(bodySha256), inexact: true };
	const id = deliveryIdOf(value, source);
	if (id === undefined) return { deliveryKey: `${UNMATCHABLE_KEY_PREFIX}${randomUUID()}`, deliveryKeySource: 'none' };
	// The id's exact text, for users who compare it themselves: a text id as it is.
	const deliveryId = typeof value === 'string' ? value : id;
	return { deliveryKey: `id:${sha256Hex(id)}`, deliveryKeySource: 'id', deliveryId };
}

/**
 * The contract between the Video Platform Trigger, which gives every delivery a key, and
 * Webhook Delivery → Drop Redelivered, which compares it. Both read it from here only.
 */

/** Where the trigger puts the request's own details in an item, beside the payload's fields. */
export const DELIVERY_INFO_KEY = '_webhook';

/** Where a delivery's key came from: its id field, its raw body, or nothing it could be matched by. */
export type DeliveryKeySource = 'id' | 'body' | 'none';

/** What the trigger adds under DELIVERY_INFO_KEY; the field names are part of the contract. */
export interface DeliveryKey {
	deliveryKey: string;
	deliveryKeySource: DeliveryKeySource;
}

const KEY_FIELD: keyof DeliveryKey = 'deliveryKey';

/** The item path of the key, as users see it in field descriptions. */
export const DELIVERY_KEY_PATH = `${DELIVERY_INFO_KEY}.${KEY_FIELD}`;

/** What the editor calls each side of the contract, so that the other side's words name it alike. */
export const EDITOR_NAMES = {
	/** The trigger's option that sets the key. */
	deliveryIdField: 'Delivery ID Field',
	/** Drop Redelivered's action, as the node creator lists it. */
	dropRedeliveredAction: 'Drop redelivered webhook deliveries',
} as const;

/** Drop Redelivered's default: the key of the item right after the trigger. */
export const DELIVERY_KEY_EXPRESSION = `{{ $json.${DELIVERY_KEY_PATH} }}`;

/** The text key the trigger put in an item's JSON, as DELIVERY_KEY_EXPRESSION reads it; else undefined. */
export function textDeliveryKeyIn(json: Record<string, unknown>): string | undefined {
	const info = json[DELIVERY_INFO_KEY];
	const key = info !== null && typeof info === 'object' ? (info as Record<string, unknown>)[KEY_FIELD] : undefined;
	return typeof key === 'string' ? key : undefined;
}

/** Starts the key of a delivery that can be matched by nothing: such a key is never remembered. */
export const UNMATCHABLE_KEY_PREFIX = 'none:';

/** The key to compare and remember, or null for an item that always passes and is not remembered. */
export function comparedKey(key: string): string | null {
	const trimmed = key.trim();
	return trimmed === '' || trimmed.startsWith(UNMATCHABLE_KEY_PREFIX) ? null : trimmed;
}

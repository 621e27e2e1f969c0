import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * What the platform's API reference states, in one place. Anything the reference leaves
 * open ("not shown") is absent here on purpose; add it here once it is published.
 */

/** The version prefix, placed directly after the base URL. */
export const API_VERSION_PREFIX = '/v1';

/** Where rooms are created (POST), after the Base URL. */
export const ROOMS_PATH = `${API_VERSION_PREFIX}/rooms`;

/** Room types the reference lists. It states that the full set is not published yet. */
export const ROOM_TYPES: INodePropertyOptions[] = [{ name: 'Conference', value: 'conference' }];

/**
 * Webhook event kinds. The reference does not publish any yet, so the trigger passes every
 * delivery through. Add each kind here as `{ name, value }` once it is published.
 */
export const EVENT_KINDS: INodePropertyOptions[] = [];

/**
 * Where a delivery's payload names its event kind, as a dot path. Not published yet; set it
 * together with EVENT_KINDS, and the trigger's "Trigger On" choice starts to filter.
 */
export const EVENT_KIND_FIELD: string | undefined = undefined;

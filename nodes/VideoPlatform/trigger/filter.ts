import type { IDataObject } from 'n8n-workflow';

import { EVENT_KIND_FIELD } from '../platform';
import { valueAt } from './delivery';

export const ALL_DELIVERIES = '*';

/** Splits "a, b ,c" into ["a", "b", "c"]. */
export function parseAllowedValues(list: string): string[] {
	return list
		.split(',')
		.map((value) => value.trim())
		.filter((value) => value !== '');
}

/** Whether the field at `path` holds one of the allowed values (compared as text). */
export function fieldMatches(payload: IDataObject, path: string, allowed: string[]): boolean {
	if (path.trim() === '' || allowed.length === 0) return true;
	const value = valueAt(payload, path.trim());
	if (value === undefined || value === null || typeof value === 'object') return false;
	return allowed.includes(String(value));
}

/** "Trigger On": every delivery until event kinds, and the field naming them, are published. */
export function eventMatches(payload: IDataObject, event: string): boolean {
	if (event === ALL_DELIVERIES || EVENT_KIND_FIELD === undefined) return true;
	return fieldMatches(payload, EVENT_KIND_FIELD, [event]);
}

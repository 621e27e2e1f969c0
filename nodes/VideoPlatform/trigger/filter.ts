import type { IDataObject } from 'n8n-workflow';

import { EVENT_KIND_FIELD } from '../platform';
import { valueAt } from './delivery';
import { exactSourceAt } from './rawJson';

export const ALL_DELIVERIES = '*';

/** Splits "a, b ,c" into ["a", "b", "c"]. */
export function parseAllowedValues(list: string): string[] {
	return list
		.split(',')
		.map((value) => value.trim())
		.filter((value) => value !== '');
}

/**
 * Whether the field at `path` holds one of the allowed values, compared as text: a number as the
 * raw body wrote it (JSON.parse rounds those beyond 2^53), or as JavaScript writes it unless that
 * is a rounded integer.
 */
export function fieldMatches(payload: IDataObject, path: string, allowed: string[], rawJson?: string): boolean {
	if (path.trim() === '' || allowed.length === 0) return true;
	const value = valueAt(payload, path.trim());
	if (value === undefined || value === null || typeof value === 'object') return false;
	if (typeof value !== 'number') return allowed.includes(String(value));
	const sent = exactSourceAt(rawJson, path.trim(), value);
	if (sent !== undefined && allowed.includes(sent)) return true;
	// An integer beyond 2^53 as JavaScript writes it is another number than the one sent.
	const rounded = sent !== undefined && Number.isInteger(value) && !Number.isSafeInteger(value);
	return !rounded && allowed.includes(String(value));
}

/** "Trigger On": every delivery until event kinds, and the field naming them, are published. */
export function eventMatches(payload: IDataObject, event: string): boolean {
	if (event === ALL_DELIVERIES || EVENT_KIND_FIELD === undefined) return true;
	return fieldMatches(payload, EVENT_KIND_FIELD, [event]);
}
